#!/usr/bin/env bats
# make install and make uninstall into a DESTDIR: uninstall removes
# exactly what install put, and nothing else.

load helper

setup() {
	setup_world
}

# files DIR: every file and link under DIR, sorted
files() {
	(cd "$1" && find . ! -type d | sort)
}

@test "make uninstall removes exactly what make install put" {
	dest="$WORLD/dest"
	# what was there before stays: another program, another page
	mkdir -p "$dest/usr/bin" "$dest/usr/share/man/man1"
	echo keep >"$dest/usr/bin/git"
	echo keep >"$dest/usr/share/man/man1/git.1"
	before=$(files "$dest")
	run make -s -C "$SRC_DIR" BUILD="$BIN_DIR" DESTDIR="$dest" PREFIX=/usr install
	assert_success
	installed=$(files "$dest")
	# install put the programs, the pages and the shared files
	[[ $installed == *"./usr/bin/git-campaign-hook"* ]]
	[[ $installed == *"./usr/share/man/man1/git-campaign-hooks.1"* ]]
	[[ $installed == *"./usr/share/git-campaign/hooks/pre-commit"* ]]
	[ "$(echo "$installed" | wc -l)" -gt 20 ]
	run make -s -C "$SRC_DIR" BUILD="$BIN_DIR" DESTDIR="$dest" PREFIX=/usr uninstall
	assert_success
	[ "$(files "$dest")" = "$before" ]
	[ ! -e "$dest/usr/share/git-campaign" ]
	[ "$(cat "$dest/usr/bin/git")" = keep ]
	# twice is harmless
	run make -s -C "$SRC_DIR" BUILD="$BIN_DIR" DESTDIR="$dest" PREFIX=/usr uninstall
	assert_success
}
