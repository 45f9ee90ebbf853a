#!/bin/sh
# Run on a GPU machine from a bundle (see tests/gpu/README.md): compares
# `git campaign env --json` with nvidia-smi field by field, measures the
# floor twice, and keeps what it saw under $OUT. Exit 1 when a field differs.
B=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/gcamp-out}
mkdir -p "$OUT"
PATH="$B:$PATH"
export PATH
fail=0
py=$(command -v python3)
echo "== tools: git=$(command -v git) python3=$py ncu=$(command -v ncu)"
uname -r
nvidia-smi --query-gpu=name,uuid,driver_version,pci.bus_id,memory.total,memory.reserved,compute_cap --format=csv >"$OUT/smi.csv"
cat "$OUT/smi.csv"
cat /proc/driver/nvidia/params >"$OUT/nvidia-params.txt" 2>&1
grep -i profiling "$OUT/nvidia-params.txt"
W=$(mktemp -d)
cd "$W" || exit 2
if command -v git >/dev/null; then
	git init -q r && cd r && git -c user.name=t -c user.email=t@t \
		commit -q --allow-empty -m root
	run() { git campaign "$@"; }
else
	echo "no git: env runs outside a repository (nothing stored)"
	run() { git-campaign "$@"; }
fi
echo "== env --json"
run env --json --refresh >"$OUT/env.json"; echo "rc=$?"
"$py" - "$OUT/env.json" "$OUT/smi.csv" <<'PY' || fail=1
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.reader(open(sys.argv[2]), skipinitialspace=True))
smi = dict(zip([h.split(' [')[0] for h in rows[0]], rows[1]))
g = d["info"]["gpus"][0]
mib = lambda s: int(s.split()[0])
checks = [
    ("name", g["name"], smi["name"]),
    ("uuid", g["uuid"], smi["uuid"]),
    ("driver_version", d["identity"]["driver_version"], smi["driver_version"]),
    ("pci.bus_id", g["pci_bus_id"], smi["pci.bus_id"]),
    # the Driver API's total is nvidia-smi's total less its reserve,
    # which nvidia-smi prints in whole MiB
    ("memory.total - memory.reserved [MiB]", g["memory_bytes"] // 1048576,
     mib(smi["memory.total"]) - mib(smi["memory.reserved"])),
    ("compute_cap", g["compute_capability"], smi["compute_cap"]),
]
bad = 0
for k, mine, theirs in checks:
    ok = str(mine) == str(theirs) or (isinstance(mine, float) and mine == theirs)
    bad += not ok
    print("%-40s %-6s env=%s nvidia-smi=%s" % (k, "ok" if ok else "DIFF", mine, theirs))
print("fingerprint:", "MATCH" if not bad else "MISMATCH")
sys.exit(1 if bad else 0)
PY
echo "== env --floor (twice)"
run env --floor >"$OUT/floor-text.txt" 2>&1; echo "rc=$?"
cat "$OUT/floor-text.txt"
for i in 1 2 3; do
	run env --floor --json >"$OUT/floor$i.json"; echo "rc=$?"
done
# against the independent probe (tests/fixtures/cuda/h200-driver-api-probe.txt)
"$py" - "$OUT"/floor1.json "$OUT"/floor2.json "$OUT"/floor3.json <<'PY'
import json, sys
probe = {"launch_sync": 8.273, "p10": 7.716, "p90": 9.382, "enqueue": 3.420,
         "htod_24": 5.188, "htod_2048": 6.164, "htod_65536": 16.099,
         "dtod_gbps": 4185.0}
for f in sys.argv[1:]:
    d = json.load(open(f))["floor"]
    mine = {"launch_sync": d["launch_sync_us"]["median"],
            "p10": d["launch_sync_us"]["p10"], "p90": d["launch_sync_us"]["p90"],
            "enqueue": d["launch_enqueue_us"],
            "htod_24": d["htod_us"]["24"], "htod_2048": d["htod_us"]["2048"],
            "htod_65536": d["htod_us"]["65536"], "dtod_gbps": d["dtod_gbps"]}
    print(f.split("/")[-1], "module_load_us=%.0f" % d["module_load_us"])
    for k in probe:
        dev = 100 * (mine[k] / probe[k] - 1)
        print("  %-12s %9.2f probe %9.2f  %+6.1f%% %s" % (k, mine[k], probe[k], dev,
              "ok" if abs(dev) <= 15 else "OUT"))
PY
echo "== errors"
CUDA_VISIBLE_DEVICES= run env --floor >/dev/null; echo "rc=$?"
run env --floor --device 1 >/dev/null; echo "rc=$?"
if command -v git >/dev/null; then
	git notes --ref=refs/notes/campaign show HEAD | head -2
	git notes --ref=refs/notes/campaign show HEAD | wc -l
fi
echo "== env --check-profiling"
run env --check-profiling; echo "rc=$?"
run env --check-profiling --json >"$OUT/profiling.json"
if [ -n "$NCU" ]; then
echo "== ncu on one empty launch of the floor (outside a repository)"
ncu --version 2>&1 | tail -1
(cd / && timeout 180 ncu --clock-control none --kernel-name regex:gcamp_empty \
	--launch-count 1 --section SpeedOfLight git-campaign env --floor) \
	>"$OUT/ncu-floor.txt" 2>&1; echo "rc=$?"
grep -E "==PROF==|==ERROR==|ERR_NVGPU|Duration|launch \+ sync" "$OUT/ncu-floor.txt" | head -12
fi
exit $fail
