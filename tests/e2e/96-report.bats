#!/usr/bin/env bats
# git campaign report: a campaign (measurements on two machines with a
# step, an A/B with a control and an iteration sweep, a stack with PRs on
# the fake GitHub, a hypothesis, findings) written as one HTML page and
# opened in Debian's headless Chromium (tests/browser/check-page.py): no
# request leaves the file, no error, one SVG series per machine, every
# point and sample drawn as the JSON document counts them, a non-blank
# screenshot.

load helper
load records_helper
load fakehub

METRIC='re:time: ([0-9]+);unit=us'

setup() {
	setup_world
	command -v chromium >/dev/null ||
		skip "chromium is missing: sh scripts/deps.sh installs it"
	PY=$(command -v /usr/bin/python3 || command -v python3)
	CHECK="$SRC_DIR/tests/browser/check-page.py"
	unset CUDA_VISIBLE_DEVICES CUDA_STUB_INIT_ERROR CUDA_STUB_DEVICES \
		CUDA_STUB_LOG GIT_CAMPAIGN_SYSROOT
	cpu
	git init -q --bare remote.git
	git init -q r
	cd r
	git commit -q --allow-empty -m base
	git remote add origin "$WORLD/remote.git"
	git push -q origin main
	git campaign init kfusion --base main --forge o/r >/dev/null
}

teardown() {
	stop_fakehub
}

# page FILE: check-page's JSON of FILE into $PAGE
page() {
	PAGE=$("$PY" "$CHECK" "$1" "$BATS_TEST_TMPDIR/shot.png") ||
		fail "check-page failed"
}

# pj EXPR: EXPR over check-page's JSON (as p) and the report's (as d); a
# tuple's items printed apart by spaces
pj() {
	"$PY" -c 'import json, sys
p = json.loads(sys.argv[1]); d = json.load(open(sys.argv[2]))
v = eval(sys.argv[3])
print(" ".join(map(str, v)) if isinstance(v, tuple) else v)' "$PAGE" "$WORLD/data.json" "$1"
}

@test "the checker sees a request that leaves the page, a script error and a blank screenshot" {
	printf '<!DOCTYPE html><html><head></head><body><img src="http://example.com/x.png"><script>console.error("boom")</script></body></html>' >bad.html
	page bad.html
	printf '%s\n' "$PAGE" >"$WORLD/data.json"
	[ "$(pj 'p["resources"], p["errors"]')" = "['http://example.com/x.png'] ['boom']" ] || fail "$PAGE"
	printf '<!DOCTYPE html><html><head></head><body></body></html>' >blank.html
	page blank.html
	[ "$(pj 'p["screenshot_blank"]')" = True ]
}

@test "an empty campaign's report is a valid page that says what to do first" {
	run --separate-stderr git campaign report -o empty.html
	assert_clean
	assert_output empty.html
	git campaign report --json >"$WORLD/data.json"
	page empty.html
	[ "$(pj 'p["resources"], p["errors"], p["counts"]["history"], p["counts"]["scripts"]')" = "[] [] 0 0" ]
	[[ $(pj 'p["text"]') == *'No measurement in this range yet: git campaign measure add METRIC VALUE'* ]]
	[[ $(pj 'p["text"]') == *'No A/B run yet'* ]]
	[ "$(pj 'p["screenshot_blank"]')" = False ]
	# a repository without a commit yet gives a page too
	(cd "$WORLD" && git init -q unborn && cd unborn &&
		git campaign init u --base main >/dev/null &&
		git campaign report -o unborn.html >/dev/null &&
		grep -q 'No measurement in this range yet' unborn.html) ||
		fail "no page for a repository without a commit"
	# --open without a display prints the path
	DISPLAY= WAYLAND_DISPLAY= run --separate-stderr git campaign report --open -o open.html
	assert_clean
	assert_output open.html
	# the default place, printed
	run --separate-stderr git campaign report
	assert_clean
	[ "$output" = "$(git campaign scratch)/report.html" ] || [ "$output" = "$(git campaign scratch)report.html" ]
	[ -s "$output" ]
}

@test "a campaign's report draws every series, sample, sweep, PR, hypothesis and finding, and loads nothing from outside" {
	start_fakehub
	# history: six commits measured on the CPU machine, four on the H200,
	# with a step at the fourth
	local i
	for i in 1 2 3 4 5 6; do
		git commit -q --allow-empty -m "step $i"
		cpu
		git campaign measure add decode_us $((i < 4 ? 1000 + i : 800 + i)) --unit us >/dev/null
		if [ "$i" -gt 2 ]; then
			h200
			git campaign measure add decode_us $((i < 4 ? 300 : 250)) --unit us >/dev/null
		fi
	done
	cpu
	git push -q origin main
	# a stack of two, the second with an A/B: a sweep and a control
	write_prog prog.in 1000 10
	write_prog ctl.in 500 0
	printf 'cp prog.in prog && cp ctl.in ctl && chmod +x prog ctl\n' >build.sh
	printf 'prog\nctl\n.runs\n' >.gitignore
	git campaign stack new s1 >/dev/null
	git add . && git commit -q -m 'the workloads'
	git campaign stack new s2 >/dev/null
	write_prog prog.in 1000 9
	git campaign ab --build 'sh build.sh' --run './prog {iters}' \
		--metric "$METRIC" --control ./ctl --iters 1,100 -n 5 >/dev/null
	git commit -q -am 'one pass less per iteration'
	git campaign stack submit >/dev/null
	git campaign hypo add "a pass costs 1 us per iteration" --metric per_iter_us \
		--predict 1 --unit us >/dev/null
	git campaign hypo confirm 1 --measured 1 --ab 1 >/dev/null
	git campaign finding add --kind slow "the second pass" >/dev/null
	git campaign finding add --kind crash "prog at 0 iterations" >/dev/null

	git campaign report --json >"$WORLD/data.json"
	run --separate-stderr git campaign report -o r.html
	assert_clean
	page r.html
	[ "$(pj 'p["resources"], p["errors"], p["counts"]["scripts"]')" = "[] [] 0" ]
	# decode_us: one series per machine, never joined; every point drawn
	[ "$(pj '[len(m["series"]) for m in d["metrics"] if m["metric"] == "decode_us"]')" = "[2]" ] || fail "$(cat "$WORLD/data.json")"
	[ "$(pj 'sorted(len(s["points"]) for m in d["metrics"] if m["metric"] == "decode_us" for s in m["series"])')" = "[4, 6]" ]
	[ "$(pj 'p["counts"]["series"] == sum(len(m["series"]) for m in d["metrics"])')" = True ]
	[ "$(pj 'p["counts"]["points"] == sum(len(s["points"]) for m in d["metrics"] for s in m["series"])')" = True ]
	# the A/B: marked on its commit in each history, every sample drawn
	[ "$(pj 'len(d["ab_runs"]), d["ab_runs"][0]["a_index"] >= 0')" = "1 True" ]
	[ "$(pj 'p["counts"]["ab_marks"] == len(d["metrics"])')" = True ]
	[ "$(pj 'p["counts"]["strips"] == len(d["ab_runs"][0]["result"]["workloads"])')" = True ]
	[ "$(pj 'p["counts"]["samples"] == sum(len(w["a"]) + len(w["b"]) for w in d["ab_runs"][0]["result"]["workloads"])')" = True ]
	[ "$(pj 'p["counts"]["sweeps"], p["counts"]["fits"], p["counts"]["sweep_points"]')" = "1 2 4" ]
	[[ $(pj 'p["text"]') == *'control: ./ctl'* ]]
	# the controls' state, as the run's JSON gives it
	[ "$(pj '{"steady": "Every control steady", "unvouched": "UNVOUCHED", "moved": "INVALID"}[d["ab_runs"][0]["result"]["controls"]] in p["text"]')" = True ]
	# the stack with its PRs from the fake GitHub
	[ "$(pj 'p["counts"]["stack"], sorted((b["branch"], b["pr"]) for b in d["stack"])')" = "2 [('s1', 1), ('s2', 2)]" ]
	[[ $(pj 'p["text"]') == *'s2 PR #2 (open)'* ]]
	# hypotheses and findings, the crash first
	[ "$(pj 'p["counts"]["hypotheses"], p["counts"]["findings"]')" = "1 2" ]
	[[ $(pj 'p["text"]') == *'crash: prog at 0 iterations'*'slow: the second pass'* ]]
	# the machines named on hover and in the legend
	[[ $(pj 'p["text"]') == *'GPU NVIDIA H200'* ]]
	[ "$(pj 'p["screenshot_blank"]')" = False ]
	# --metric keeps one; a range cuts the history
	git campaign report --json --metric decode_us HEAD~4..HEAD~1 >"$WORLD/data.json"
	[ "$(pj '[m["metric"] for m in d["metrics"]], len(d["commits"]), sum(len(s["points"]) for s in d["metrics"][0]["series"])')" = "['decode_us'] 3 4" ]
}

@test "report: usage and refusals" {
	run --separate-stderr git campaign report --json -o x.html
	assert_failure 129
	run --separate-stderr git campaign report a b
	assert_failure 129
	run --separate-stderr git campaign report nosuch..HEAD
	assert_failure 128
	[[ $stderr == *"bad revision range 'nosuch..HEAD'"* ]]
	run --separate-stderr git campaign report -o "$WORLD/no/such/dir/r.html"
	assert_failure 128
	[[ $stderr == "fatal: cannot write '$WORLD/no/such/dir/r.html'"* ]]
	cd "$WORLD" && git init -q plain && cd plain
	run --separate-stderr git campaign report
	assert_failure 128
}
