#!/usr/bin/env bats
# pr body's profile line: one per profile import, naming where the time
# went (the method of a JFR recording the JDK makes inside the test, the
# kernel of an Nsight Compute capture), checked against a reading of the
# same recording by `jfr print --json` and a few lines of Python.

load helper

setup() {
	setup_world
	JAVA=$(command -v java || true)
	[ -n "$JAVA" ] || skip "java is missing: sh scripts/deps.sh installs openjdk-17-jdk-headless"
	JFR="$(dirname "$(readlink -f "$JAVA")")/jfr"
	[ -x "$JFR" ] || skip "jfr is missing beside $JAVA"
	PY=$(command -v /usr/bin/python3 || command -v python3)
	git init -q -b develop r
	cd r
	git commit -q --allow-empty -m base
	git campaign init t --base develop >/dev/null
}

@test "pr body gives one profile line per import, naming the hottest method and kernel" {
	cat >Hot.java <<'JAVA'
public class Hot {
    static double slow(int i) { double s = 0; for (int k = 0; k < 2000; k++) s += Math.sqrt(i + k); return s; }
    static double fast(int i) { return Math.sqrt(i); }
    public static void main(String[] a) {
        long end = System.currentTimeMillis() + 1500; double s = 0;
        for (int i = 0; System.currentTimeMillis() < end; i++) s += slow(i) + fast(i);
        System.out.println(s);
    }
}
JAVA
	javac -d . Hot.java
	java -XX:StartFlightRecording=filename=hot.jfr,settings=profile Hot >/dev/null 2>&1
	git campaign measure import hot.jfr >/dev/null
	git campaign measure import "$SRC_DIR/tests/fixtures/ncu/h200-vadd-import-text.txt" >/dev/null
	git switch -q -c fix
	git commit -q --allow-empty -m 'skip the slow path'
	run --separate-stderr git campaign pr body
	assert_success
	body=$output
	# what the JDK's own reader says: samples, and the share of Hot.slow
	want=$("$JFR" print --json --events jdk.ExecutionSample hot.jfr | "$PY" -c '
import json, sys
ev = json.load(sys.stdin)["recording"]["events"]
top = [e["values"]["stackTrace"]["frames"][0]["method"] for e in ev
       if e["values"]["stackTrace"]["frames"]]
k = sum(1 for m in top if m["type"]["name"] == "Hot" and m["name"] == "slow")
print("%.3g %% of %d samples in `Hot.slow(int)` (jdk.ExecutionSample)" % (100.0 * k / len(ev), len(ev)))')
	[ "$(grep -c '^- profile (jfr' <<<"$body")" -eq 1 ] || fail "$body"
	grep -qF "): $want" <<<"$body" || fail "want '$want' in: $(grep '^- profile' <<<"$body")"
	[ "$(grep -c '^- profile (ncu' <<<"$body")" -eq 1 ]
	grep -q '^- profile (ncu, .*): [0-9.]* % of the GPU time in `vadd` (2 launches)$' <<<"$body"
	# the JSON names the top of each import
	run --separate-stderr git campaign pr body --json
	[ "$("$PY" -c 'import json,sys; d=json.load(sys.stdin); print(sorted((p["source"], p["top"]) for p in d["profile"]))' <<<"$output")" = \
		"[('jfr', 'Hot.slow(int)'), ('ncu', 'vadd')]" ]
}
