# The fake GitHub for the end-to-end tests: start_fakehub starts one per test
# on a free port and points git-campaign at it; stop_fakehub (teardown) kills
# it and fails the test when it recorded a violation of GitHub's spec.
FAKEHUB_DIR="$SRC_DIR/tests/fakehub"

# start_fakehub [--prefix /api/v3]
start_fakehub() {
	local prefix=${2:-} i
	FAKEHUB_VIOLATIONS="$BATS_TEST_TMPDIR/violations.jsonl"
	: >"$FAKEHUB_VIOLATIONS"
	python3 "$FAKEHUB_DIR/fakehub.py" --port-file "$BATS_TEST_TMPDIR/port" \
		--token test-token --violations "$FAKEHUB_VIOLATIONS" \
		${prefix:+--prefix "$prefix"} 3>&- &
	FAKEHUB_PID=$!
	for i in $(seq 300); do
		[ -s "$BATS_TEST_TMPDIR/port" ] && break
		sleep 0.1
	done
	[ -s "$BATS_TEST_TMPDIR/port" ] || fail "fakehub did not start"
	FAKEHUB_PORT=$(cat "$BATS_TEST_TMPDIR/port")
	export GIT_CAMPAIGN_API_URL="http://127.0.0.1:$FAKEHUB_PORT$prefix"
	export GH_TOKEN=test-token
	unset GITHUB_TOKEN GH_ENTERPRISE_TOKEN GITHUB_ENTERPRISE_TOKEN GH_HOST
	export GIT_CAMPAIGN_WRITE_GAP_MS=0 GIT_CAMPAIGN_BACKOFF_MS=10
	export GIT_CAMPAIGN_SECONDARY_WAIT=1 GIT_TERMINAL_PROMPT=0
}

stop_fakehub() {
	[ -n "${FAKEHUB_PID:-}" ] || return 0
	kill "$FAKEHUB_PID" 2>/dev/null || true
	wait "$FAKEHUB_PID" 2>/dev/null || true
	FAKEHUB_PID=
	if [ -s "$FAKEHUB_VIOLATIONS" ]; then
		cat "$FAKEHUB_VIOLATIONS" >&2
		fail "fakehub recorded violations of GitHub's spec"
	fi
}

# fh_http METHOD PATH [BODY]: one request to the fake (bash's /dev/tcp: a
# python client would cost seconds on a loaded machine); prints the body
fh_http() {
	local body=${3:-}
	exec 5<>"/dev/tcp/127.0.0.1/$FAKEHUB_PORT"
	printf '%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
		"$1" "$2" "${#body}" "$body" >&5
	sed '1,/^\r$/d' <&5
	exec 5<&-
}

# fh seed|fault|merge|edit|rename JSON: a test control
# fh log: "METHOD PATH STATUS" lines; fh body REPO N: issue N's body as
# stored; fh comments REPO: the comments' bodies as a JSON list
fh() {
	case $1 in
	seed | fault | merge | edit | reset | rename | review | status | check)
		fh_http POST "/__fake/$1" "${2:-}" ;;
	log) fh_http GET /__fake/log.txt ;;
	body) fh_http GET "/__fake/body?repo=$2&number=$3" ;;
	comments) fh_http GET "/__fake/comments?repo=$2" ;;
	headers) fh_http GET "/__fake/headers?n=$2" ;;
	*) fail "fh: unknown control $1" ;;
	esac
}

# fh_count METHOD [PATH-REGEX]: how many such requests the fake received
fh_count() {
	fh log | awk -v m="$1" -v p="${2:-.}" '$1 == m && $2 ~ p' | wc -l
}

# campaign_repo: a repository whose origin is github.com/o/r, a campaign
# with umbrella issue #1 (seeded by the caller)
campaign_repo() {
	make_repo r develop
	cd r
	git remote add origin https://github.com/o/r.git
	git campaign init kfusion --umbrella 1 >/dev/null
}
