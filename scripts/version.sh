#!/bin/sh
# The version a build reports, as git's GIT-VERSION-GEN makes it: VERSION
# at the commit tagged vVERSION, else VERSION.N.gHASH (N commits past that
# tag; without the tag, only the commit), ".dirty" with uncommitted
# changes; VERSION alone outside a git checkout (a tarball).
v=$(cat VERSION)
d=$(git describe --tags --match "v$v" --dirty 2>/dev/null) ||
	d=$(git describe --always --dirty 2>/dev/null) || d=
case $d in
"") echo "$v" ;;
"v$v") echo "$v" ;;
"v$v"-*) echo "$v.${d#"v$v"-}" | tr - . ;;
*) echo "$v.g$d" | tr - . ;;
esac
