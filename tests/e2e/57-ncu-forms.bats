#!/usr/bin/env bats
# Nsight Compute's forms of one launch give the same records: the raw page
# and the details page with --print-metric-name name are named as the
# details page's labels, and the scaled text form's launch sizes are the
# binary sizes the base-unit forms print. The files are real ncu 2025.3.1
# output of one H200 launch (tests/fixtures/ncu/SOURCE.md); the expected
# names and values are read from ncu's own CSV by Python, not by us.

load helper

FIX="$SRC_DIR/tests/fixtures/ncu"
PY=$(command -v /usr/bin/python3 || command -v python3)

setup() {
	setup_world
	make_repo r
	cd r
	git campaign init demo >/dev/null
}

# FILE's names of metrics with a number (Metric Name, or the raw page's
# metric columns), one per line, as ncu printed them
ncu_names() {
	"$PY" - "$1" <<'PY'
import csv, sys
def num(v):
    try:
        float(v.replace(",", ""))
        return True
    except ValueError:
        return False
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
head = rows[0]
if "Metric Name" in head:
    i, j = head.index("Metric Name"), head.index("Metric Value")
    names = {r[i] for r in rows[1:] if r[i] and num(r[j])}
else:
    names = {c for k, c in enumerate(head) if "__" in c and num(rows[2][k])}
print("\n".join(sorted(names)))
PY
}

# the metric names recorded on HEAD
recorded() {
	git campaign measure show --json | "$PY" -c 'import json, sys
print("\n".join(sorted({r["metric"] for r in json.load(sys.stdin)["records"]})))'
}

@test "the raw page names a metric as the details page does, so compare works across the forms" {
	git campaign measure import "$FIX/h200-vadd-default-label.csv" >/dev/null
	git commit -q --allow-empty -m raw
	git campaign measure import "$FIX/h200-vadd-default-raw.csv" >/dev/null
	recorded >raw.names
	# every label of the details page is a raw record's name, and none of
	# their ids is left
	ncu_names "$FIX/h200-vadd-default-name.csv" >ids
	ncu_names "$FIX/h200-vadd-default-label.csv" >labels
	[ "$(wc -l <labels)" -gt 40 ]
	run comm -23 labels raw.names
	[ -z "$output" ] || fail "labels the raw page's records lack: $output"
	run comm -12 ids raw.names
	[ -z "$output" ] || fail "ids kept as names: $output"
	run --separate-stderr git campaign measure compare HEAD~ HEAD Duration
	assert_success
	assert_line --regexp '^Duration +[0-9]+ ns +[0-9]+ ns '
}

@test "details with --print-metric-name name gives the labels' records" {
	git campaign measure import "$FIX/h200-vadd-default-name.csv" >/dev/null
	recorded >names
	# the numeric rows of the label file, by label
	ncu_names "$FIX/h200-vadd-default-label.csv" >labels
	run comm -13 labels names
	[ -z "$output" ] || fail "names not among ncu's labels: $output"
	grep -qxF Duration names
	grep -qxF "Shared Memory Configuration Size" names
}

@test "a scaled launch size is the binary size that ncu's base-unit form prints" {
	grep -q "32.77" "$FIX/h200-vadd-default-text.txt"
	git campaign measure import "$FIX/h200-vadd-default-text.txt" >/dev/null
	for m in "Shared Memory Configuration Size" "Driver Shared Memory Per Block"; do
		want=$("$PY" - "$FIX/h200-vadd-default-label.csv" "$m" <<'PY'
import csv, sys
rows = csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))
print(next(int(r["Metric Value"].replace(",", "")) for r in rows
           if r["Metric Name"] == sys.argv[2]))
PY
)
		got=$(git campaign measure show --json | "$PY" -c 'import json, sys
print(next(int(r["value"]) for r in json.load(sys.stdin)["records"] if r["metric"] == sys.argv[1]))' "$m")
		[ "$got" = "$want" ] || fail "$m: $got, ncu's base units say $want"
	done
}
