#!/usr/bin/env bats
# Per-launch traces (nsys cuda_gpu_trace, ncu with many launches) import as
# one summary record per kernel and metric, checked against what a few lines
# of Debian's python3 compute from the same file (statistics.median, and
# statistics.quantiles(method="inclusive") for p10 and p90); the input is
# kept under the scratch folder by its SHA-256, and the note's size follows
# the kernels, not the launches.

load helper

setup() {
	setup_world
	PY=$(command -v /usr/bin/python3 || command -v python3)
	git init -q -b develop r
	cd r
	git commit -q --allow-empty -m first
	git commit -q --allow-empty -m second
	git campaign init >/dev/null
}

# trace N SEED: an nsys stats --format csv cuda_gpu_trace report, as nsys
# 2024.x prints it, of N launches spread over four kernels (one of them
# at two grid sizes) and a memory copy every fourth row
trace() {
	"$PY" - "$1" "$2" <<-'EOF'
		import random, sys
		n, seed = int(sys.argv[1]), int(sys.argv[2])
		rnd = random.Random(seed)
		print("Processing [r.sqlite] with [/opt/nvidia/nsight-systems/2024.6.2/host-linux-x64/reports/cuda_gpu_trace.py]...")
		print("Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),"
		      "Bytes (MB),Throughput (MB/s),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name")
		kernels = [("vadd", 256), ("vmul", 256), ('"reduce<float, 4>"', 64), ("vadd", 512)]
		for i in range(n):
		    start = 1000000 + 5000 * i
		    if i % 4 == 3:
		        print(f"{start},{rnd.randint(400, 900)},{i + 100},,,,,,,,,,4.194,6337.593,Pinned,Device,"
		              f"NVIDIA H200 (0),1,,7,[CUDA memcpy Host-to-Device]")
		        continue
		    name, grid = kernels[rnd.randrange(4)]
		    print(f"{start},{rnd.randint(2000, 2100) if rnd.random() < 0.9 else rnd.randint(3000, 9000)},"
		          f"{i + 100},{grid},1,1,128,1,1,32,0.000,0.000,,,,,NVIDIA H200 (0),1,,7,{name}")
	EOF
}

# summaries NOTE_FILE: each summary record of the note as one line,
# "metric name grid n median p10 p90 min max sum", sorted
summaries() {
	"$PY" -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    s, c = r["summary"], r["config"]
    print(r["metric"], c["name"], c.get("grid", "-"), r["n"], repr(float(r["value"])),
          *(repr(float(s[k])) for k in ("p10", "p90", "min", "max", "sum")))' "$1" | sort
}

# expected TRACE: the same lines computed from the trace by python alone
expected() {
	"$PY" -c '
import csv, statistics, sys
rows = list(csv.reader(open(sys.argv[1])))[1:]
head, rows = rows[0], rows[1:]
col = {h: i for i, h in enumerate(head)}
groups = {}
for r in rows:
    name = r[col["Name"]]
    grid = "(%s,%s,%s)" % (r[col["GrdX"]], r[col["GrdY"]], r[col["GrdZ"]]) if r[col["GrdX"]] else "-"
    groups.setdefault(("duration", name, grid), []).append(float(r[col["Duration (ns)"]]))
    if r[col["Bytes (MB)"]]:
        groups.setdefault(("size", name, grid), []).append(float(r[col["Bytes (MB)"]] + "e6"))
for (metric, name, grid), v in groups.items():
    q = statistics.quantiles(v, n=10, method="inclusive")
    print(metric, name, grid, len(v), repr(float(statistics.median(v))), repr(q[0]), repr(q[8]),
          repr(min(v)), repr(max(v)), repr(float(sum(sorted(v)))))' "$1" | sort
}

@test "a trace of 2000 launches of four kernels and a copy gives one summary per kernel and metric, as python computes them" {
	trace 2000 7 >trace.csv
	run --separate-stderr git campaign measure import trace.csv
	assert_clean
	# four kernel shapes and the copy's duration, and the copy's size
	[[ ${lines[0]} == 'recorded 6 measurements from nsys on '* ]] || fail "$output"
	git notes --ref campaign show HEAD >note
	[ "$(wc -l <note)" = 6 ]
	expected trace.csv >want
	summaries note >got
	diff want got
	# every record is a summary, no launch named
	! grep -q '"launch"' note
	[ "$(grep -c '"stat":"median"' note)" = 6 ]
}

@test "the trace is kept under the scratch folder by the SHA-256 that sha256sum gives, and each summary names it" {
	trace 400 3 >trace.csv
	git campaign measure import trace.csv >/dev/null
	sum=$(sha256sum trace.csv | cut -d' ' -f1)
	git notes --ref campaign show HEAD >note
	[ "$("$PY" -c '
import json, sys
print(sorted(set((r["raw"]["path"], r["raw"]["sha256"]) for r in map(json.loads, open(sys.argv[1])))))' note)" = \
		"[('campaign/scratch/raw/$sum.csv', '$sum')]" ]
	kept="$(git rev-parse --git-common-dir)/campaign/scratch/raw/$sum.csv"
	cmp trace.csv "$kept"
	[ "$(sha256sum <"$kept" | cut -d' ' -f1)" = "$sum" ]
	# outside the work tree: nothing new to commit but our own files
	[ "$(git status --porcelain | tr '\n' ' ')" = '?? note ?? trace.csv ' ]
	# from stdin, with no name to take an extension from
	trace 400 4 >t2
	git campaign measure import - <t2 >/dev/null
	sum2=$(sha256sum t2 | cut -d' ' -f1)
	cmp t2 "$(git rev-parse --git-common-dir)/campaign/scratch/raw/$sum2.txt"
}

@test "the note of a trace grows with its kernels, not its launches" {
	trace 200 1 >small.csv
	trace 20000 1 >big.csv
	git campaign measure import small.csv --commit HEAD~ >/dev/null
	git campaign measure import big.csv >/dev/null
	small=$(git notes --ref campaign show HEAD~ | wc -c)
	big=$(git notes --ref campaign show HEAD | wc -c)
	[ "$(git notes --ref campaign show HEAD~ | wc -l)" = 6 ]
	[ "$(git notes --ref campaign show HEAD | wc -l)" = 6 ]
	# 100 times the launches; the same lines, a few digits longer
	[ "$big" -lt $((small + 600)) ] || fail "small $small bytes, big $big bytes"
	[ "$(stat -c %s big.csv)" -gt $((100 * big)) ]
}

# ncu N: an ncu --csv --page details capture of N launches, made from the
# real H200 capture's rows (tests/fixtures/ncu/h200-vadd-import-details.csv)
# by repeating its first launch under three kernel names, with seeded
# durations in us
ncu_capture() {
	"$PY" - "$SRC_DIR/tests/fixtures/ncu/h200-vadd-import-details.csv" "$1" <<-'EOF'
		import csv, io, random, sys
		rows = list(csv.reader(open(sys.argv[1])))
		head, first = rows[0], [r for r in rows[1:] if r[0] == "0"]
		rnd = random.Random(5)
		out = csv.writer(sys.stdout, quoting=csv.QUOTE_ALL, lineterminator="\n")
		out.writerow(head)
		for i in range(int(sys.argv[2])):
		    kernel = ("vadd", "vmul", "vsum")[i % 3]
		    for r in first:
		        r = list(r)
		        r[0], r[4] = str(i), kernel
		        if r[12] == "Duration":
		            r[15] = ""
		            r[14] = "%.2f" % rnd.uniform(50, 70)
		        out.writerow(r[:15] + [""] * (len(r) - 15))
	EOF
}

@test "ncu's thousands of launches become one summary per kernel and metric, as python computes them" {
	ncu_capture 3000 >cap.csv
	run --separate-stderr git campaign measure import cap.csv
	assert_clean
	git notes --ref campaign show HEAD >note
	# the capture's first launch has 37 numeric metrics
	[ "$(wc -l <note)" = $((3 * 37)) ]
	"$PY" -c '
import csv, json, statistics, sys
rows = list(csv.reader(open(sys.argv[1])))[1:]
d = {}
for r in rows:
    if r[12] == "Duration":
        d.setdefault(r[4], []).append(float(r[14] + "e3"))
got = {}
for r in map(json.loads, open(sys.argv[2])):
    if r["metric"] == "Duration":
        s = r["summary"]
        got[r["config"]["kernel"]] = (r["n"], r["value"], s["p10"], s["p90"], s["min"], s["max"])
want = {}
for k, v in d.items():
    q = statistics.quantiles(v, n=10, method="inclusive")
    want[k] = (len(v), statistics.median(v), q[0], q[8], min(v), max(v))
assert got == want, (got, want)
assert len(got) == 3 and all(g[0] == 1000 for g in got.values())' cap.csv note
}

@test "a trace cut mid-row is refused, and nothing is written or kept" {
	trace 100 2 >trace.csv
	head -c -30 trace.csv >cut.csv
	run --separate-stderr git campaign measure import cut.csv
	assert_fatal 'cut.csv:'
	run git notes --ref campaign list
	assert_output ''
	[ ! -e "$(git rev-parse --git-common-dir)/campaign/scratch/raw" ] ||
		[ -z "$(ls -A "$(git rev-parse --git-common-dir)/campaign/scratch/raw")" ]
}

@test "samples of small formats stay per sample: hyperfine's runs keep their times" {
	cp "$SRC_DIR/tests/fixtures/hyperfine/sleep-two-commands.json" hf.json
	git campaign measure import hf.json >/dev/null
	git notes --ref campaign show HEAD >note
	grep -q '"samples":\[' note
	! grep -q '"summary"' note
	! grep -q '"raw"' note
	[ ! -e "$(git rev-parse --git-common-dir)/campaign/scratch/raw" ]
}
