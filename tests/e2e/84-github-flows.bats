#!/usr/bin/env bats
# The GitHub flows a campaign lives through, against the fake GitHub and a
# bare remote: each stacked PR shows only its own work, amend-and-resubmit,
# merged parents, a submit stopped midway, and no token in a child's
# environment.

load helper
load fakehub

setup() {
	setup_world
	start_fakehub
	git config --global init.defaultBranch develop
	git init -q --bare remote.git
	git init -q r
	cd r
	echo base >f0
	git add f0
	git commit -q -m base
	git remote add origin "$WORLD/remote.git"
	git push -q origin develop
	git campaign init demo --forge o/r >/dev/null
}

teardown() {
	stop_fakehub
}

# stack N: branches s1..sN stacked in a line, one commit each ("sI change")
stack() {
	local i
	for i in $(seq "$1"); do
		git campaign stack new "s$i" >/dev/null
		echo "$i" >"f$i"
		git add "f$i"
		git commit -q -m "s$i change"
	done
}

# pr_field N JQ: a field of PR #N as the fake stores it
pr_field() {
	fh_http GET "/__fake/state?repo=o/r" | jq -r ".pulls[] | select(.number == $1) | $2"
}

@test "a stacked PR's body and umbrella line show only its own commits, runs and findings" {
	stack 3
	git checkout -q s1
	git campaign ab --base develop --build true -n 5 \
		--run 'if [ "$GIT_CAMPAIGN_ARM" = A ]; then sleep 0.03; else sleep 0.01; fi' \
		>/dev/null 2>&1
	git campaign finding add --kind wrong-answer "s1 fixes a wrong sum" \
		--commit s1 >/dev/null
	git checkout -q s3
	run --separate-stderr git campaign stack submit --all
	assert_clean
	s1=$(git rev-parse --short=12 s1)
	# s1's PR: its own commit, its A/B table (B is s1), its finding
	pr_field 1 .body >b1
	grep -qF -- "- $s1 s1 change" b1
	grep -q '^| workload .* B: s1 ('"$s1"')' b1
	grep -qF 'wrong-answer: s1 fixes a wrong sum' b1
	# s2's and s3's: their own commit alone, no table, no finding of s1
	for n in 2 3; do
		pr_field $n .body >b$n
		grep -qF -- "- $(git rev-parse --short=12 s$n) s$n change" b$n
		! grep -qF "$s1" b$n || fail "#$n names s1's commit: $(grep -F "$s1" b$n)"
		! grep -q '^| workload' b$n || fail "#$n shows s1's A/B table"
		! grep -qF 'wrong-answer' b$n || fail "#$n shows s1's finding"
	done
	grep -qF -- "- $(git rev-parse --short=12 s2) s2 change" b3 &&
		fail "#3 lists its parent's commit"
	# the umbrella's rows: each PR's own title, s1's claim only on s1
	fh seed '{"repo":"o/r","issues":[{"title":"Umbrella"}]}' >/dev/null
	git campaign config umbrella 4 >/dev/null
	run --separate-stderr git campaign umbrella sync --dry-run
	assert_clean
	assert_line --regexp '^- \[ \] #1 s1 change \(`s1`\) — open: faster, B/A .* \(A/B #1\)$'
	assert_line '- [ ] #2 s2 change (`s2`) — open'
	assert_line '- [ ] #3 s3 change (`s3`) — open'
}

@test "an amended and restacked stack is resubmitted with a lease" {
	stack 2
	git campaign stack submit --all >/dev/null
	old=$(git rev-parse s1)
	git checkout -q s1
	echo more >>f1
	git commit -qa --amend --no-edit
	git campaign stack restack --all >/dev/null
	run --separate-stderr git campaign stack submit --all
	assert_clean
	assert_line 'pushed s1 (restacked: forced with a lease)'
	assert_line 'pushed s2 (restacked: forced with a lease)'
	[ "$(git -C ../remote.git rev-parse s1)" = "$(git rev-parse s1)" ]
	[ "$(git -C ../remote.git rev-parse s2)" = "$(git rev-parse s2)" ]
	[ "$(git rev-parse s1)" != "$old" ]
}

@test "review fixes on a child and its parent, then a restack, are resubmitted" {
	stack 2
	git campaign stack submit --all >/dev/null
	echo x >>f2
	git commit -qam 's2 review fix'
	git checkout -q s1
	echo y >>f1
	git commit -qam 's1 review fix'
	git campaign stack restack --all >/dev/null
	run --separate-stderr git campaign stack submit --all
	assert_clean
	assert_line 'pushed s1'
	assert_line 'pushed s2 (restacked: forced with a lease)'
	[ "$(git -C ../remote.git log -1 --format=%s s2)" = 's2 review fix' ]
	[ "$(git -C ../remote.git rev-parse s2)" = "$(git rev-parse s2)" ]
}

@test "a remote tip the branch never had is refused with the command that shows it" {
	stack 1
	git campaign stack submit --all >/dev/null
	git clone -q ../remote.git ../other
	git -C ../other checkout -q s1
	echo other >>../other/f1
	git -C ../other commit -qam 'someone else'
	git -C ../other push -q origin s1
	git fetch -q origin
	echo mine >>f1
	git commit -qa --amend --no-edit
	before=$(git rev-parse s1)
	run --separate-stderr git campaign stack submit --all
	[ "$status" -eq 1 ]
	[[ $stderr == *"'s1' on 'origin' ("*") has commits that are not in the local branch"* ]]
	[[ $stderr == *"hint: 'git log s1..origin/s1' shows them"* ]]
	[ "$(git -C ../remote.git log -1 --format=%s s1)" = 'someone else' ]
	[ "$(git rev-parse s1)" = "$before" ]
}

@test "an A/B's build, runs and controls see none of the GitHub token variables" {
	stack 1
	export GH_TOKEN=ghp_SECRET1 GITHUB_TOKEN=ghp_SECRET2 \
		GH_ENTERPRISE_TOKEN=ghp_SECRET3 GITHUB_ENTERPRISE_TOKEN=ghp_SECRET4
	run --separate-stderr git campaign ab --base develop -n 3 \
		--build 'env >>"$HOME/build-env"' \
		--run 'env >>"$HOME/run-env"' \
		--control 'env >>"$HOME/control-env"'
	[ "$status" -eq 0 ] || fail "ab: $stderr"
	for f in build-env run-env control-env; do
		# the children ran and got the environment they are given
		grep -q '^GIT_CAMPAIGN_ARM=B$' "$HOME/$f" || fail "$f: no arm B"
		grep -q "^HOME=$HOME\$" "$HOME/$f"
		! grep -E '^(GH_TOKEN|GITHUB_TOKEN|GH_ENTERPRISE_TOKEN|GITHUB_ENTERPRISE_TOKEN)=|SECRET' \
			"$HOME/$f" || fail "$f holds a token"
	done
	[ "$(grep -c '^GIT_CAMPAIGN_ARM=' "$HOME/run-env")" -ge 6 ]
}

@test "a JFR recording of an A/B workload holds no GitHub token" {
	command -v java >/dev/null && command -v jfr >/dev/null ||
		skip "java and jfr (openjdk-17-jdk-headless) are not installed"
	stack 1
	printf 'class Hello { public static void main(String[] a) { System.out.println("hi"); } }\n' >"$HOME/Hello.java"
	export GH_TOKEN=ghp_SECRETtoken123
	run --separate-stderr git campaign ab --base develop -n 1 --warmup 0 \
		--build true \
		--run 'java -XX:StartFlightRecording:filename=$HOME/t-$GIT_CAMPAIGN_ARM.jfr $HOME/Hello.java'
	[ -s "$HOME/t-B.jfr" ] || fail "no recording: $stderr"
	jfr print --events jdk.InitialEnvironmentVariable "$HOME/t-B.jfr" >events
	# the recording has the environment, HOME among it, but not the token
	grep -q 'key = "HOME"' events
	! grep -q 'GH_TOKEN\|ghp_SECRET' events || fail "$(grep -A1 GH_TOKEN events)"
}

# squash_merge N BRANCH: GitHub squash-merges PR #N of BRANCH into develop
squash_merge() {
	[ -d ../gh ] || git clone -q ../remote.git ../gh
	(cd ../gh && git fetch -q origin && git checkout -q develop &&
		git reset -q --hard origin/develop &&
		git merge -q --squash "origin/$2" &&
		git commit -qm "$2 (#$1)" && git push -q origin develop)
	fh merge '{"repo":"o/r","number":'"$1"'}' >/dev/null
}

@test "after a squash merge of the bottom PR, the submit sync suggests goes through" {
	git campaign stack new s1 >/dev/null
	echo 1 >f1 && git add f1 && git commit -qm 's1 one'
	echo 11 >f1 && git commit -qam 's1 two'
	git campaign stack new s2 >/dev/null
	echo 2 >f2 && git add f2 && git commit -qm 's2 change'
	git campaign stack submit --all >/dev/null
	squash_merge 1 s1
	git fetch -q origin
	git branch -q -f develop origin/develop
	s1_remote=$(git -C ../remote.git rev-parse s1)
	run --separate-stderr git campaign stack sync
	assert_clean
	assert_line 'retargeted #2 s2 onto develop (#1 s1 merged)'
	assert_line "push them with 'git campaign stack submit --all'"
	synced=$output
	fh log >before
	run --separate-stderr git campaign stack submit --all
	assert_clean
	[[ $synced == *"s1: #1 merged, out of the stack (the branch stays"* ]]
	[ "$(git config branch.s2.campaignParent)" = develop ]
	! git config branch.s1.campaignParent || fail "s1 is still stacked"
	git rev-parse -q --verify refs/heads/s1 >/dev/null
	assert_line 'pushed s2 (restacked: forced with a lease)'
	refute_line --partial 'pushed s1'
	[ "$(git -C ../remote.git rev-parse s1)" = "$s1_remote" ]
	[ "$(git -C ../remote.git rev-parse s2)" = "$(git rev-parse s2)" ]
	# s2 holds its own commit alone, on the squash
	[ "$(git log --format=%s develop..s2)" = 's2 change' ]
	[ "$(pr_field 2 .base.ref)" = develop ]
	# the resubmit after the merge: at most 3 requests
	fh log | tail -n +$(($(wc -l <before) + 1)) >after
	[ "$(wc -l <after)" -le 3 ] || fail "$(cat after)"
	run --separate-stderr git campaign stack restack --all
	assert_clean
}

@test "sync fetches the base before it restacks onto it, so a squash merge is no conflict" {
	git campaign stack new s1 >/dev/null
	echo one >f0 && git commit -qam 's1 change'
	git campaign stack new s2 >/dev/null
	echo two >f0 && git commit -qam 's2 change'
	git campaign stack submit --all >/dev/null
	squash_merge 1 s1
	# the local develop is not pulled
	run --separate-stderr git campaign stack sync
	assert_clean
	assert_line --regexp '^fast-forwarded develop to origin/develop \([0-9a-f]{7}\)$'
	assert_line 'retargeted #2 s2 onto develop (#1 s1 merged)'
	assert_line 'moved s2 onto develop'
	refute_line --partial 'conflict'
	[ "$(git rev-parse develop)" = "$(git -C ../remote.git rev-parse develop)" ]
	[ "$(git config branch.s2.campaignParent)" = develop ]
	[ "$(git log --format=%s develop..s2)" = 's2 change' ]
	[ "$(git show s2:f0)" = two ]
	[ "$(pr_field 2 .base.ref)" = develop ]
}

@test "sync refuses a checked-out base that is behind the remote before it writes to GitHub" {
	git campaign stack new s1 >/dev/null
	echo one >f0 && git commit -qam 's1 change'
	git campaign stack new s2 >/dev/null
	echo two >f0 && git commit -qam 's2 change'
	git campaign stack submit --all >/dev/null
	squash_merge 1 s1
	git checkout -q develop
	before=$(git rev-parse develop s1 s2)
	run --separate-stderr git campaign stack sync
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ ${stderr_lines[0]} == "error: 'develop' is behind 'origin/develop': pull it first" ]] || fail "$stderr"
	[[ $stderr == *"git pull --ff-only origin develop"* ]]
	[ "$(fh_count PATCH)" -eq 0 ] || fail "$(fh log)"
	[ "$(pr_field 2 .base.ref)" = s1 ]
	[ "$(git rev-parse develop s1 s2)" = "$before" ]
	[ "$(git config branch.s2.campaignParent)" = s1 ]
	# as the hint says
	git pull -q --ff-only origin develop
	run --separate-stderr git campaign stack sync
	assert_clean
	assert_line 'moved s2 onto develop'
}

@test "a submit stopped midway leaves no body naming a PR that was never opened" {
	stack 4
	fh fault '{"method":"POST","path":"/pulls$","skip":2,"status":422,"body":{"message":"Validation Failed","errors":[{"resource":"PullRequest","code":"custom","message":"No commits between s2 and s3"}]}}' >/dev/null
	run --separate-stderr git campaign stack submit --all
	[ "$status" -eq 128 ] || fail "exit $status: $stderr"
	[[ ${stderr_lines[0]} == "fatal: cannot open a PR for 's3': HTTP 422: Validation Failed"* ]] || fail "$stderr"
	assert_line 'stopped: open #1 s1, #2 s2; not opened s3, s4'
	assert_line "once the cause is fixed, 'git campaign stack submit --all' opens the rest"
	# someone else's issue takes the next number
	fh seed '{"repo":"o/r","issues":[{"title":"an issue by someone else"}]}' >/dev/null
	for n in 1 2; do
		pr_field $n .body >b$n
		! grep -E '#(3|4)\b' b$n || fail "#$n names a PR that does not exist"
		grep -qxF -- '- `s3`' b$n
		grep -qxF -- '- `s4`' b$n
	done
	grep -qxF -- '- #2 `s2`' b1
	# as the output says: the rest is opened and every body names it
	run --separate-stderr git campaign stack submit --all
	assert_clean
	assert_line --partial 'opened #4 for s3 onto s2'
	assert_line --partial 'opened #5 for s4 onto s3'
	pr_field 1 .body | grep -qxF -- '- #4 `s3`'
	pr_field 2 .body | grep -qxF -- '- #5 `s4`'
	pr_field 5 .body | grep -qxF 'Stacked on #4 (`s3`).'
}

@test "a POST given up after three server errors names the last one" {
	stack 1
	fh fault '{"method":"POST","path":"/pulls$","status":502,"count":3,"body":{"message":"Server Error"}}' >/dev/null
	run --separate-stderr git campaign stack submit --all
	[ "$status" -eq 128 ] || fail "exit $status: $stderr"
	[ "${stderr_lines[0]}" = "fatal: cannot open a PR for 's1': no answer or a server error, 3 times (last: HTTP 502: Server Error)" ] || fail "$stderr"
	[ "$(pr_field 1 .number)" = "" ]
}

@test "stack submit and stack sync say when they wait for GitHub's rate limit" {
	stack 2
	fh fault '{"method":"POST","path":"/pulls$","status":429,"body":{"message":"Too Many Requests"}}' >/dev/null
	run --separate-stderr git campaign stack submit --all
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	[[ ${stderr_lines[0]} == "waiting 1 s for GitHub's secondary rate limit, until "*" UTC (no retry-after: the secondary wait)" ]] || fail "$stderr"
	[ "${#stderr_lines[@]}" -eq 1 ]
	assert_line --partial 'opened #2 for s2 onto s1'
	fh fault '{"method":"GET","path":"/pulls$","status":403,"headers":{"retry-after":"1"},"body":{"message":"You have exceeded a secondary rate limit"}}' >/dev/null
	run --separate-stderr git campaign stack sync
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	[[ $stderr == "waiting 1 s for GitHub's secondary rate limit, until "*" UTC (retry-after)" ]] || fail "$stderr"
	assert_line '#1 s1: open'
}

# trace_host: the API base and token source an umbrella sync would use
# (a proxy that refuses keeps it off the network)
trace_host() {
	env -u GIT_CAMPAIGN_API_URL https_proxy=http://127.0.0.1:9 \
		HTTPS_PROXY=http://127.0.0.1:9 GIT_CAMPAIGN_TRACE=1 \
		GIT_CAMPAIGN_HTTP_TIMEOUT=2 "$@" git campaign umbrella sync 2>&1 |
		grep -E 'token: from|github: o/r at' || true
}

@test "the campaign's forgeHost decides the host, GH_HOST only where none is recorded" {
	git campaign config umbrella 1 >/dev/null
	[ "$(git config campaign.forgeHost)" = github.com ]
	run trace_host GH_HOST=github.example.com GH_ENTERPRISE_TOKEN=e
	assert_line --partial 'github: o/r at https://api.github.com'
	assert_line --partial 'token: from GH_TOKEN'
	refute_output --partial 'github.example.com'
	git config --unset campaign.forgeHost
	run trace_host GH_HOST=github.example.com GH_ENTERPRISE_TOKEN=e
	assert_line --partial 'github: o/r at https://github.example.com/api/v3'
	assert_line --partial 'token: from GH_ENTERPRISE_TOKEN'
}

@test "an Enterprise host without its token names the variables that apply there" {
	git campaign config umbrella 1 >/dev/null
	git campaign config forgeHost github.example.com >/dev/null
	PATH="$BIN_DIR:/usr/bin:/bin" run --separate-stderr env -u GIT_CAMPAIGN_API_URL \
		-u GH_ENTERPRISE_TOKEN -u GITHUB_ENTERPRISE_TOKEN GH_TOKEN=t \
		GIT_ASKPASS=/bin/false SSH_ASKPASS=/bin/false git campaign umbrella sync
	[ "$status" -eq 128 ] || fail "exit $status: $stderr"
	[[ ${stderr_lines[0]} == "fatal: no GitHub token for 'github.example.com': tried GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN"* ]] || fail "$stderr"
	[ "${stderr_lines[1]}" = "hint: set GH_ENTERPRISE_TOKEN (GH_TOKEN is for github.com), or run 'gh auth login --hostname github.example.com'" ] || fail "$stderr"
}

@test "an SSH alias in the remote URL is resolved as ssh resolves it" {
	command -v ssh >/dev/null || skip "ssh (openssh-client) is not installed"
	mkdir -p "$HOME/.ssh"
	printf 'Host github-work\n  HostName github.com\n  IdentityFile ~/.ssh/work\n' >"$HOME/.ssh/config"
	export GIT_SSH_COMMAND="ssh -F $HOME/.ssh/config"
	git remote set-url origin git@github-work:o/r.git
	run --separate-stderr git campaign init demo --force
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --regexp '^  forge     o/r on github\.com'
	[ "$(git config campaign.forgeHost)" = github.com ]
	# an alias ssh does not know stays as it is, and its hint says what to do
	git remote set-url origin git@other-alias:o/r.git
	git campaign init demo --force >/dev/null
	[ "$(git config campaign.forgeHost)" = other-alias ]
	git campaign config umbrella 1 >/dev/null
	PATH="$BIN_DIR:/usr/bin:/bin" run --separate-stderr env -u GIT_CAMPAIGN_API_URL \
		GIT_ASKPASS=/bin/false SSH_ASKPASS=/bin/false git campaign umbrella sync
	[ "$status" -eq 128 ] || fail "exit $status: $stderr"
	[[ ${stderr_lines[1]} == *"if 'other-alias' is an SSH alias of github.com, run 'git campaign config forgeHost github.com'" ]] || fail "$stderr"
}

@test "a hung GitHub costs at most campaign.github.timeout, named in the hint" {
	fh seed '{"repo":"o/r","issues":[{"title":"Umbrella"}]}' >/dev/null
	git campaign config umbrella 1 >/dev/null
	git campaign config github.timeout 2 >/dev/null
	fh fault '{"method":"GET","path":"/issues/1$","kind":"slow","seconds":40,"count":3}' >/dev/null
	# the limit of 20 s only keeps a build that waits 3 x 30 s from hanging
	run --separate-stderr timeout 20 git campaign umbrella sync
	[ "$status" -eq 128 ] || fail "exit $status: $stderr"
	[[ ${stderr_lines[0]} == "fatal: cannot read issue #1: cannot reach '127.0.0.1:"*"': Operation timed out"* ]] || fail "$stderr"
	[ "${stderr_lines[1]}" = "hint: campaign.github.timeout sets the limit in seconds (now 2 s for a request and its tries)" ] || fail "$stderr"
	# one try of 1 s, then one more in what is left
	[ "$(fh_count GET '/issues/1$')" -le 2 ]
}

@test "the automatic umbrella update makes one short try and queues the rest" {
	fh seed '{"repo":"o/r","issues":[{"title":"Umbrella"}]}' >/dev/null
	git campaign config umbrella 1 >/dev/null
	git campaign config umbrella.auto true >/dev/null
	fh fault '{"method":"GET","path":"/issues/1$","kind":"slow","seconds":40,"count":3}' >/dev/null
	run --separate-stderr timeout 20 git campaign finding add --kind slow "launch costs 40 us"
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	[[ ${stderr_lines[0]} == "warning: umbrella #1 not updated: "*"timed out"* ]] || fail "$stderr"
	assert_equal "$(fh_count GET '/issues/1$')" 1
	# recorded all the same
	git campaign finding list | grep -q 'launch costs 40 us'
}

@test "a renamed repository's 301 and 307 are followed, and its new name offered for campaign.forge" {
	fh seed '{"repo":"o/r","issues":[{"title":"Umbrella"}]}' >/dev/null
	git campaign config umbrella 1 >/dev/null
	fh rename '{"repo":"o/r","to":"neworg/r2"}' >/dev/null
	# a GET (301), then the PATCH (307 on the old name, repeated verbatim)
	run --separate-stderr git campaign umbrella sync
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line 'umbrella #1 updated (the markers were missing: the section was added at the end)'
	[ "$stderr" = "hint: GitHub moved 'o/r' to 'neworg/r2': 'git campaign config forge neworg/r2' records it" ] || fail "$stderr"
	fh log >log
	grep -qx 'GET /repos/o/r/issues/1 301' log || fail "$(cat log)"
	grep -qx 'GET /repos/neworg/r2/issues/1 200' log
	grep -qx 'PATCH /repos/neworg/r2/issues/1 200' log
	fh_http GET "/__fake/state?repo=neworg/r2" | jq -r '.issues[0].body' | grep -qF '<!-- git-campaign:begin -->'
	# as offered: no redirect any more
	git campaign config forge neworg/r2 >/dev/null
	fh log >before
	run --separate-stderr git campaign umbrella sync
	assert_clean
	! fh log | tail -n +$(($(wc -l <before) + 1)) | grep -q ' 30[17]$'
	# a 307 on a write is repeated verbatim at its Location: a POST
	# (a comment, a PR) and a PATCH
	loc="http://127.0.0.1:$FAKEHUB_PORT/repos/neworg/r2"
	fh fault '{"method":"POST","path":"/comments$","status":307,"headers":{"Location":"'"$loc"'/issues/1/comments"},"body":{"message":"Temporary Redirect","url":"'"$loc"'/issues/1/comments","documentation_url":"https://docs.github.com/rest"}}' >/dev/null
	run --separate-stderr git campaign umbrella post -m 'first result' r1
	assert_clean
	assert_line "posted 'r1' on umbrella #1"
	fh fault '{"method":"PATCH","path":"/comments/[0-9]+$","status":307,"headers":{"Location":"'"$loc"'/issues/comments/1001"},"body":{"message":"Temporary Redirect","url":"'"$loc"'/issues/comments/1001","documentation_url":"https://docs.github.com/rest"}}' >/dev/null
	run --separate-stderr git campaign umbrella post -m 'better result' r1
	assert_clean
	assert_line "updated 'r1' on umbrella #1"
	[ "$(fh comments neworg/r2 | jq length)" -eq 1 ]
	fh comments neworg/r2 | jq -r '.[0]' | grep -q 'better result'
	stack 1
	fh fault '{"method":"POST","path":"/pulls$","status":307,"headers":{"Location":"'"$loc"'/pulls"},"body":{"message":"Temporary Redirect","url":"'"$loc"'/pulls","documentation_url":"https://docs.github.com/rest"}}' >/dev/null
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line --partial 'opened #2 for s1 onto develop'
	fh log | grep -qx 'POST /repos/neworg/r2/pulls 307'
	fh log | grep -qx 'POST /repos/neworg/r2/pulls 201'
	[ "$(pr_count_in neworg/r2)" -eq 1 ]
}

pr_count_in() {
	fh_http GET "/__fake/state?repo=$1" | jq '.pulls | length'
}

@test "PRs open without the placeholders of pr body, unless --allow-placeholders" {
	stack 2
	git campaign pr body s1 | grep -qF '<!-- git-campaign:todo -->'
	run --separate-stderr git campaign stack submit s1
	assert_clean
	pr_field 1 .body >b1
	! grep -qF 'To do:' b1 || fail "placeholders sent: $(grep -c 'To do:' b1)"
	! grep -qF 'git-campaign:todo' b1
	# what the records say is there
	grep -qF "$(git rev-parse --short=12 s1) s1 change" b1
	git campaign stack submit --allow-placeholders s2 >/dev/null
	pr_field 2 .body | grep -qF 'To do:'
}

@test "a result recorded after the PR opened reaches its body; edited sections and text outside them are kept" {
	stack 1
	git campaign stack submit >/dev/null
	pr_field 1 .body >sent
	# the person writes in section 2 and adds a note at the top
	grep -q '^## 2\. ' sent
	awk 'BEGIN { print "A note by a person." } { print } /^## 2\. / { print "The person explains the cause here." }' sent >edited
	fh edit "$(jq -n --rawfile b edited '{"repo":"o/r","number":1,"set":{"body":$b}}')" >/dev/null
	git campaign ab --base develop --build true -n 5 \
		--run 'if [ "$GIT_CAMPAIGN_ARM" = A ]; then sleep 0.02; else sleep 0.01; fi' \
		>/dev/null 2>&1
	git campaign pr body | grep -q '^| workload'
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line 'updated #1 s1 (body)'
	pr_field 1 .body >now
	grep -q '^| workload .* B: s1 ' now || fail "no A/B table: $(cat now)"
	[ "$(head -n 1 now)" = 'A note by a person.' ]
	grep -qxF 'The person explains the cause here.' now
	# unchanged records: nothing more to send
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line '#1 s1 is up to date'
}

@test "a reworded first commit retitles its PR; a title edited on GitHub is kept" {
	stack 1
	git campaign stack submit >/dev/null
	[ "$(pr_field 1 .title)" = 's1 change' ]
	git commit -q --amend -m 's1 better title'
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line 'updated #1 s1 (body, title)'
	[ "$(pr_field 1 .title)" = 's1 better title' ]
	fh edit '{"repo":"o/r","number":1,"set":{"title":"A title by a person"}}' >/dev/null
	git commit -q --amend -m 's1 third title'
	git campaign stack submit >/dev/null
	[ "$(pr_field 1 .title)" = 'A title by a person' ]
}

@test "--body-file sends the body a person wrote, and later submits keep it" {
	stack 1
	printf '## What\n\nA body written by hand.\n' >"$HOME/body.md"
	run --separate-stderr git campaign stack submit --body-file "$HOME/body.md" s1
	assert_clean
	pr_field 1 .body >b1
	[ "$(head -n 3 b1)" = "$(cat "$HOME/body.md")" ]
	grep -qxF 'Stacked on `develop`.' b1
	! grep -q 'git-campaign:gen' b1
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line '#1 s1 is up to date'
	printf '## What\n\nA better body.\n' >"$HOME/body.md"
	run --separate-stderr git campaign stack submit --body-file "$HOME/body.md"
	assert_clean
	assert_line 'updated #1 s1 (body)'
	pr_field 1 .body | grep -qxF 'A better body.'
	run --separate-stderr git campaign stack submit --all --body-file "$HOME/body.md"
	[ "$status" -eq 129 ]
}

@test "after a merge the next submit PATCHes only the merged PR's child; the others still list it" {
	stack 4
	git campaign stack submit --all >/dev/null
	pr_field 4 .body | sed -n '/git-campaign:stack/,/git-campaign:stack/p' >before
	squash_merge 1 s1
	git campaign stack sync >/dev/null
	fh log >log0
	run --separate-stderr git campaign stack submit --all
	assert_clean
	assert_line 'updated #2 s2 (body)'
	assert_line '#3 s3 is up to date'
	assert_line '#4 s4 is up to date'
	fh log | tail -n +$(($(wc -l <log0) + 1)) >after
	[ "$(wc -l <after)" -le 3 ] || fail "$(cat after)"
	[ "$(grep -c '^PATCH' after)" -eq 1 ]
	pr_field 4 .body | sed -n '/git-campaign:stack/,/git-campaign:stack/p' | diff before -
	pr_field 2 .body | grep -qxF 'Stacked on `develop`.'
	pr_field 2 .body | grep -qxF -- '- #1 `s1`'
	# a second merge hands both down
	squash_merge 2 s2
	git campaign stack sync >/dev/null
	run --separate-stderr git campaign stack submit --all
	assert_clean
	assert_line 'updated #3 s3 (body)'
	assert_line '#4 s4 is up to date'
	pr_field 3 .body | grep -qxF -- '- #1 `s1`'
	pr_field 3 .body | grep -qxF -- '- #2 `s2`'
}

@test "the trace of a GitHub command has no blank lines and no token" {
	fh seed '{"repo":"o/r","issues":[{"title":"Umbrella"}]}' >/dev/null
	git campaign config umbrella 1 >/dev/null
	GIT_CAMPAIGN_TRACE=1 git campaign umbrella sync 2>trace >/dev/null
	grep -q 'campaign: token: from GH_TOKEN$' trace
	grep -q 'campaign: http: > GET ' trace
	! grep -qx '' trace || fail "blank lines: $(grep -c -x '' trace)"
	! grep -q 'test-token' trace
}
