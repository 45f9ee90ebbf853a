#!/bin/sh
# On a GPU machine, from a bundle: an A/A run of a small CUDA program with
# `ab --gpu-control` (nothing changed between A and B, so neither the
# program nor the control may move).
B=$(cd "$(dirname "$0")" && pwd)
PATH="$B:$PATH"
export PATH
W=$(mktemp -d)
cd "$W" || exit 2
git init -q -b main p && cd p || exit 2
git config user.name t && git config user.email t@t
cp "$B/vadd.cu" . && printf 'vadd\n' >.gitignore
git add . && git commit -q -m vadd
git campaign init demo --base main >/dev/null || exit 2
git campaign env gpu-control; echo "rc=$?"
git campaign ab --build 'nvcc -O2 -o vadd vadd.cu' --run ./vadd \
	--gpu-control -n 10 ${TOL:+--control-tolerance $TOL}
echo "ab rc=$?"
