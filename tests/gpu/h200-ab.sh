#!/bin/sh
# On a GPU machine, from a bundle: A/A runs of kernels.cu with
# `ab --gpu-control` (nothing changed between A and B, so neither the
# program nor the control may move), each summarised in one line per row.
B=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/gcamp-out}
mkdir -p "$OUT"
PATH="$B:$PATH"
export PATH
W=$(mktemp -d)
cd "$W" || exit 2
git init -q -b main p && cd p || exit 2
git config user.name t && git config user.email t@t
cp "$B/kernels.cu" . && printf 'kernels\n' >.gitignore
git add . && git commit -q -m kernels
git campaign init demo --base main >/dev/null || exit 2
git campaign env gpu-control; echo "rc=$?"
git campaign env --floor >/dev/null; echo "floor rc=$?"
summary() {
	python3 - "$1" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
for w in d["workloads"]:
    s = w["a"] + w["b"]
    cv = statistics.pstdev(s) / statistics.mean(s) * 100
    print("%-14s A %.5g B %.5g B/A %.4f [%.4f, %.4f] %s cv %.1f%%" % (
        w["workload"][-14:], w["median_a"], w["median_b"], w["ratio"],
        w["ci_low"], w["ci_high"], w["verdict"], cv))
print("invalid", d["invalid"])
PY
}
for n in 10 10 20; do
	echo "== ab A/A, n $n"
	git campaign ab --build 'nvcc -O2 -o kernels kernels.cu' --run ./kernels \
		--gpu-control -n "$n" --json >"$OUT/ab-$n.json"
	echo "ab rc=$?"
	summary "$OUT/ab-$n.json"
done
git campaign ab --build 'nvcc -O2 -o kernels kernels.cu' --run ./kernels \
	--gpu-control -n 10 | tail -12
