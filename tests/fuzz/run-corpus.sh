#!/bin/sh
# Runs each libFuzzer target that `make fuzz` built on its seed corpus
# (tests/fuzz/corpus/NAME) for FUZZ_TIME seconds and speaks TAP, one line
# per target. make test sets FUZZ_DIR, FUZZ_TARGETS, FUZZ_SKIPPED, SRC_DIR.
# New inputs go to a temporary directory; crashes to FUZZ_DIR/artifacts.
set -u
dir=${FUZZ_DIR:?run through make test}
src=${SRC_DIR:-.}
time=${FUZZ_TIME:-4}
unit=${FUZZ_UNIT_TIMEOUT:-10}
# shellcheck disable=SC2086
set -- ${FUZZ_TARGETS:-}
if [ $# -eq 0 ]; then
	echo "1..1"
	echo "not ok 1 - no fuzz targets: no importer in import_formats[]"
	exit 1
fi
echo "1..$#"
for f in ${FUZZ_SKIPPED:-}; do
	echo "# fuzz-$f not built: no \"$f\" row in import_formats[]"
done
work=$(mktemp -d "${TMPDIR:-/tmp}/gcamp-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$dir/artifacts"
n=0
fails=0
for f; do
	n=$((n + 1))
	bin=$dir/fuzz-$f
	corpus=$src/tests/fuzz/corpus/$f
	log=$work/$f.log
	if [ ! -x "$bin" ]; then
		echo "not ok $n - fuzz-$f: $bin was not built (make fuzz)"
		fails=$((fails + 1))
		continue
	fi
	if [ -z "$(ls -A "$corpus" 2>/dev/null)" ]; then
		echo "not ok $n - fuzz-$f: no seed corpus in $corpus"
		fails=$((fails + 1))
		continue
	fi
	set --
	if [ -f "$src/tests/fuzz/$f.dict" ]; then
		set -- "-dict=$src/tests/fuzz/$f.dict"
	fi
	mkdir "$work/$f"
	if "$bin" -max_total_time="$time" -timeout="$unit" -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$dir/artifacts/$f-" \
		"$@" "$work/$f" "$corpus" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "ok $n - fuzz-$f ran clean for ${time}s (${runs:-?} inputs)"
	else
		echo "not ok $n - fuzz-$f failed; input kept in $dir/artifacts"
		tail -n 40 "$log" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
done
[ "$fails" -eq 0 ]
