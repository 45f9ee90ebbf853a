#!/bin/sh
# On a GPU machine, from a bundle: `git campaign ncu` on each kernel of
# kernels.cu (then with the sections each calls for), the floor stored, and
# A/A runs of `ab --gpu-control` whose control reads its own timed device
# work, with the floor as the table's reference. Keeps outputs under $OUT
# (at most 8 files).
B=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/gcamp-out}
mkdir -p "$OUT"
PATH="$B:$PATH"
export PATH
echo "== ncu: $(command -v ncu) $(ncu --version | tail -1)"
W=$(mktemp -d)
cd "$W" || exit 2
git init -q -b main p && cd p || exit 2
git config user.name t && git config user.email t@t
cp "$B/kernels.cu" . && printf 'kernels\n' >.gitignore
git add . && git commit -q -m kernels
git campaign init demo --base main >/dev/null || exit 2
nvcc -O2 -o kernels kernels.cu && ./kernels || exit 2
git campaign env --check-profiling
echo "== skip 0 refused"
git campaign ncu --kernel vadd --skip 0 --count 1 -- ./kernels 2>&1 | head -1
for k in vadd spin tiny; do
	echo "== ncu $k"
	git campaign ncu --kernel "^$k\$" --skip 1 --count 2 --json \
		-- ./kernels >"$W/$k.json"
	echo "rc=$?"
	cat "$W/$k.json" >>"$OUT/handbacks.json"
	next=$(python3 -c 'import json,sys; print(" ".join("--section "+s for s in json.load(open(sys.argv[1]))["next"]))' "$W/$k.json")
	echo "== ncu $k $next"
	git campaign ncu --kernel "^$k\$" --skip 1 --count 2 $next \
		--recommend "probe $k" --category launch-size -- ./kernels | tee "$W/$k.txt"
	echo "rc=$?"
	cp "$(sed -n 's/^raw output: *//p' "$W/$k.txt")" "$OUT/$k-next.csv"
done
git notes --ref=refs/notes/campaign show HEAD | grep -c .
echo "== floor"
git campaign env --floor | grep -A1 '^floor'
summary() {
	python3 - "$1" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
for w in d["workloads"]:
    s = w["a"] + w["b"]
    cv = statistics.pstdev(s) / statistics.mean(s) * 100
    print("%-12s %-3s A %.5g B %.5g B/A %.4f [%.4f, %.4f] %s cv %.1f%% floors %s" % (
        w["workload"][-11:], w.get("unit", d["unit"]), w["median_a"], w["median_b"],
        w["ratio"], w["ci_low"], w["ci_high"], w["verdict"], cv, w.get("b_in_floors")))
print("floor", d.get("floor"), "invalid", d["invalid"])
PY
}
for i in 1 2; do
	echo "== ab A/A $i, n 10"
	git campaign ab --build 'nvcc -O2 -o kernels kernels.cu' --run ./kernels \
		--gpu-control -n 10 --json >"$OUT/ab$i.json"
	echo "ab rc=$?"
	summary "$OUT/ab$i.json"
done
echo "== ab A/A, n 20"
git campaign ab --build 'nvcc -O2 -o kernels kernels.cu' --run ./kernels \
	--gpu-control -n 20
echo "ab rc=$?"
