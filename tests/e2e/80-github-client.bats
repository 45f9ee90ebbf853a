#!/usr/bin/env bats
# The GitHub client against the fake: headers, token sources (never shown),
# GitHub Enterprise's prefix, every fault kind, and libcurl loaded only at
# run time.

load helper
load fakehub

setup() {
	setup_world
}

teardown() {
	stop_fakehub
}

# a campaign whose umbrella #1 says "x"
umbrella_world() {
	start_fakehub "$@"
	campaign_repo
	fh seed '{"repo":"o/r","issues":[{"title":"Umbrella","body":"x"}]}' >/dev/null
}

@test "the binary does not link libcurl: it loads it when GitHub is needed" {
	run readelf -d "$BIN_DIR/git-campaign"
	assert_success
	assert_output --partial '(NEEDED)'
	refute_output --partial 'libcurl'
	run ldd "$BIN_DIR/git-campaign"
	refute_output --partial 'libcurl'
}

@test "a missing libcurl is one clear error" {
	umbrella_world
	GIT_CAMPAIGN_LIBCURL=/nonexistent/libcurl.so.4 run --separate-stderr git campaign umbrella sync
	assert_fatal "cannot load '/nonexistent/libcurl.so.4'" hint
}

@test "every request carries GitHub's headers; the token never shows in traces" {
	umbrella_world
	export GH_TOKEN=test-token
	GIT_CAMPAIGN_TRACE="$WORLD/trace" run --separate-stderr git campaign umbrella sync
	assert_clean
	fh headers 0 >h0
	grep -qF '"accept": "application/vnd.github+json"' h0
	grep -qF '"x-github-api-version": "2022-11-28"' h0
	grep -qF "\"user-agent\": \"git-campaign/$(cat "$SRC_DIR/VERSION")\"" h0
	grep -qF '"authorization": "<redacted>"' h0
	# the PATCH: a JSON body and no conditional header
	fh headers 1 >h1
	grep -qF '"content-type": "application/json"' h1
	! grep -qi 'if-none-match' h1
	grep -q 'Authorization: <redacted>' "$WORLD/trace"
	! grep -q 'test-token' "$WORLD/trace"
	! grep -rq 'test-token' .git/campaign/
}

@test "a refused token is one line with GitHub's message, and no token" {
	umbrella_world
	GH_TOKEN=wrong-secret run --separate-stderr git campaign umbrella sync
	assert_fatal 'cannot read issue #1: HTTP 401: Bad credentials' hint
	[[ $stderr != *wrong-secret* ]]
	[ "$(fh log | wc -l)" -eq 1 ]
}

@test "token sources in order: GH_TOKEN, GITHUB_TOKEN, gh, git credential" {
	umbrella_world
	# GITHUB_TOKEN when GH_TOKEN is unset
	unset GH_TOKEN
	GITHUB_TOKEN=test-token run --separate-stderr git campaign umbrella sync
	assert_clean
	# GH_TOKEN first
	GH_TOKEN=test-token GITHUB_TOKEN=bad run --separate-stderr git campaign umbrella sync
	assert_clean
	# gh auth token, from a gh on PATH, asked for the host
	mkdir bin
	printf '#!/bin/sh\necho "$*" >"%s/gh-args"\necho test-token\n' "$WORLD" >bin/gh
	chmod +x bin/gh
	PATH="$PWD/bin:$PATH" run --separate-stderr git campaign umbrella sync
	assert_clean
	[ "$(cat "$WORLD/gh-args")" = 'auth token --hostname github.com' ]
	rm bin/gh
	# git credential fill, from the store helper
	git config --global credential.helper store
	echo 'https://me:test-token@github.com' >"$HOME/.git-credentials"
	run --separate-stderr git campaign umbrella sync
	assert_clean
	[ "$(fh_count GET)" -eq 4 ]
}

@test "a token a gh wrapper prints between blanks is used without them" {
	umbrella_world
	unset GH_TOKEN
	mkdir bin
	printf '#!/bin/sh\nprintf "  test-token \\t\\n"\n' >bin/gh
	chmod +x bin/gh
	PATH="$PWD/bin:$PATH" run --separate-stderr git campaign umbrella sync
	assert_clean
	[ "$(fh_count GET)" -eq 1 ]
}

@test "without any token: one error naming what was tried, and no hang" {
	umbrella_world
	unset GH_TOKEN
	start=$(date +%s)
	run --separate-stderr git campaign umbrella sync
	assert_fatal "no GitHub token for 'github.com': tried GH_TOKEN, GITHUB_TOKEN, gh (not on PATH) and git credential fill" hint
	[ $(($(date +%s) - start)) -lt 15 ]
	[ "$(fh log | wc -l)" -eq 0 ]
}

@test "a GitHub Enterprise host uses its own token variables and the /api/v3 prefix" {
	umbrella_world --prefix /api/v3
	git config campaign.forgeHost ghe.example.com
	GH_TOKEN=bad GH_ENTERPRISE_TOKEN=test-token run --separate-stderr git campaign umbrella sync
	assert_clean
	fh log >log
	grep -q '^GET /api/v3/repos/o/r/issues/1 200$' log
	grep -q '^PATCH /api/v3/repos/o/r/issues/1 200$' log
	unset GH_TOKEN
	run --separate-stderr git campaign umbrella sync
	assert_fatal 'tried GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN'
}

# wait_said SECONDS KIND FROM T0 T1: $stderr is the one line of a wait of
# SECONDS for GitHub's KIND rate limit, ending between T0 + SECONDS and
# T1 + SECONDS (epoch seconds around the command), its source FROM
wait_said() {
	local re="^waiting $1 s for GitHub's $2 rate limit, until ([0-9:]{8}) UTC \\($3\\)\$" t ok=
	[[ $stderr =~ $re ]] || fail "not a $2 wait of $1 s from $3: $stderr"
	for t in $(seq $(($4 + $1)) $(($5 + $1 + 1))); do
		[ "$(date -u -d "@$t" +%H:%M:%S)" = "${BASH_REMATCH[1]}" ] && ok=1
	done
	[ -n "$ok" ] || fail "the end of the wait is not now + $1 s: $stderr"
}

@test "403 with retry-after: waits that long, says so, then succeeds" {
	umbrella_world
	fh fault '{"status":403,"method":"GET","headers":{"retry-after":"1"},"body":{"message":"slow down","documentation_url":"x"}}' >/dev/null
	start=$(date +%s%N)
	t0=$(date +%s)
	run --separate-stderr git campaign umbrella sync
	assert_success
	wait_said 1 secondary retry-after "$t0" "$(date +%s)"
	[ $((($(date +%s%N) - start) / 1000000)) -ge 1000 ]
	[ "$(fh_count GET)" -eq 2 ]
}

@test "429 without retry-after waits the secondary floor; 403 with remaining 0 waits for the reset" {
	umbrella_world
	fh fault '{"status":429,"method":"GET","body":{"message":"too many","documentation_url":"x"}}' >/dev/null
	t0=$(date +%s)
	run --separate-stderr git campaign umbrella sync
	assert_success
	wait_said 1 secondary "no retry-after: the secondary wait" "$t0" "$(date +%s)"
	reset=$(($(date +%s) + 1))
	fh fault "{\"status\":403,\"method\":\"GET\",\"headers\":{\"x-ratelimit-remaining\":\"0\",\"x-ratelimit-reset\":\"$reset\"},\"body\":{\"message\":\"API rate limit exceeded\",\"documentation_url\":\"x\"}}" >/dev/null
	run --separate-stderr git campaign umbrella sync
	assert_success
	# the reset GitHub names, to the second
	[[ $stderr == "waiting "[12]" s for GitHub's primary rate limit, until $(date -u -d "@$reset" +%H:%M:%S) UTC (x-ratelimit-reset)" ]] || fail "$stderr"
	[ "$(fh_count GET)" -eq 4 ]
}

@test "a secondary rate limit message without retry-after is waited for" {
	umbrella_world
	fh fault '{"status":403,"method":"PATCH","body":{"message":"You have exceeded a secondary rate limit","documentation_url":"x"}}' >/dev/null
	t0=$(date +%s)
	run --separate-stderr git campaign umbrella sync
	assert_success
	wait_said 1 secondary "no retry-after: the secondary wait" "$t0" "$(date +%s)"
	[ "$(fh_count PATCH)" -eq 2 ]
}

@test "a wait past the cap fails at once with a message" {
	umbrella_world
	fh fault '{"status":403,"method":"GET","headers":{"retry-after":"3600"},"body":{"message":"x","documentation_url":"x"}}' >/dev/null
	GIT_CAMPAIGN_RATE_WAIT_MAX=5 run --separate-stderr git campaign umbrella sync
	assert_fatal 'cannot read issue #1: GitHub'"'"'s rate limit asks for a wait of 3600 s, past the limit of 5 s' hint
	[ "$(fh log | wc -l)" -eq 1 ]
}

@test "a plain 403 is a permission error: no retry" {
	umbrella_world
	fh fault '{"status":403,"method":"PATCH","body":{"message":"Resource not accessible by integration","documentation_url":"x"}}' >/dev/null
	run --separate-stderr git campaign umbrella sync
	assert_fatal 'cannot update issue #1: HTTP 403: Resource not accessible by integration' hint
	[ "$(fh_count PATCH)" -eq 1 ]
}

@test "5xx answers are tried 3 times in all" {
	umbrella_world
	fh fault '{"status":502,"method":"GET","count":2,"body":{"message":"Server Error","documentation_url":"x"}}' >/dev/null
	run --separate-stderr git campaign umbrella sync
	assert_clean
	[ "$(fh_count GET)" -eq 3 ]
	fh fault '{"status":503,"method":"GET","count":3,"body":{"message":"Unavailable","documentation_url":"x"}}' >/dev/null
	run --separate-stderr git campaign umbrella sync
	assert_fatal 'cannot read issue #1: HTTP 503: Unavailable'
	[ "$(fh_count GET)" -eq 6 ]
}

@test "a slow answer times out and is tried again" {
	umbrella_world
	fh fault '{"kind":"slow","seconds":3,"method":"GET"}' >/dev/null
	GIT_CAMPAIGN_HTTP_TIMEOUT=1 run --separate-stderr git campaign umbrella sync
	assert_clean
	[ "$(fh_count GET)" -eq 2 ]
}

@test "a GitHub that cannot be reached is one line naming the host" {
	umbrella_world
	port=$FAKEHUB_PORT
	stop_fakehub
	run --separate-stderr git campaign umbrella sync
	assert_fatal "cannot read issue #1: cannot reach '127.0.0.1:$port'"
}

@test "conditional headers on a write are what GitHub refuses (the fake agrees)" {
	umbrella_world
	# the fake's own gate, checked so that the client test above means
	# something: a PATCH with If-None-Match is a 400
	exec 5<>"/dev/tcp/127.0.0.1/$FAKEHUB_PORT"
	printf 'PATCH /repos/o/r/issues/1 HTTP/1.1\r\nHost: x\r\nUser-Agent: t\r\nAuthorization: Bearer test-token\r\nIf-None-Match: "x"\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}' >&5
	head -n 1 <&5 | grep -q '^HTTP/1.1 400'
	exec 5<&-
	exec 5<>"/dev/tcp/127.0.0.1/$FAKEHUB_PORT"
	printf 'GET /repos/o/r/issues/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-token\r\nConnection: close\r\n\r\n' >&5
	head -n 1 <&5 | grep -q '^HTTP/1.1 403'
	exec 5<&-
}
