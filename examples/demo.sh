#!/bin/sh
# A terminal session with git campaign, played in a throwaway repository:
# init, status, config, a stack restacked after its parent is amended,
# measurements with the machine's fingerprint, named stashes, and a
# same-build A/B of a small C program (examples/ab/)
# with a control and an iteration sweep, and the campaign's report (kept
# beside the binary: build/campaign-report.html).
#
# usage: examples/demo.sh PATH/TO/git-campaign
#   KEEP=1 keeps the temporary folder and says where it is.
#
# Each step is printed as `$ COMMAND` and then run; the first step that
# fails ends the demo with its exit status.  POSIX sh: `make demo` runs it
# with sh.
# The steps are in single quotes on purpose: they expand when they run.
# shellcheck disable=SC2016
set -eu

if [ $# -ne 1 ] || [ "$1" = -h ]; then
	echo "usage: examples/demo.sh PATH/TO/git-campaign" >&2
	exit 129
fi
if [ ! -x "$1" ] || [ -d "$1" ]; then
	echo "fatal: '$1' is not an executable git-campaign" >&2
	exit 128
fi
BIN_DIR=$(cd "$(dirname "$1")" && pwd)
EXAMPLES=$(cd "$(dirname "$0")" && pwd)
if [ "$(basename "$1")" != git-campaign ]; then
	echo "fatal: '$1' must be named git-campaign for 'git campaign'" \
		"to find it" >&2
	exit 128
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/git-campaign-demo.XXXXXX")
cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then
		echo "# kept: $TMP" >&2
	else
		rm -rf "$TMP"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A world of its own: nothing from the user's configuration shows, and
# the same commits (so the same ids) on every run.
export HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config"
export GIT_CONFIG_NOSYSTEM=1 TZ=UTC LANG=C LC_ALL=C
export GIT_AUTHOR_NAME='Ada Lovelace' GIT_AUTHOR_EMAIL='ada@example.com'
export GIT_COMMITTER_NAME='Ada Lovelace'
export GIT_COMMITTER_EMAIL='ada@example.com'
export GIT_AUTHOR_DATE='2026-11-29T12:00:00Z'
export GIT_COMMITTER_DATE='2026-11-29T12:00:00Z'
export PATH="$BIN_DIR:$PATH"
unset GIT_DIR GIT_WORK_TREE GIT_CAMPAIGN_DB GIT_CAMPAIGN_TRACE \
	GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT || :
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global advice.detachedHead false
cd "$TMP"

# step 'COMMAND': shows it as typed, then runs it in this shell (so cd and
# $(...) work as they would at a prompt); a failure ends the demo
step() {
	printf '$ %s\n' "$1"
	eval "$1" || {
		rc=$?
		echo "demo: '$1' failed (exit status $rc)" >&2
		exit "$rc"
	}
}

# say TEXT: a comment between the steps
say() {
	printf '\n# %s\n' "$1"
}

say "a repository with a GitHub remote (never fetched) and a develop branch"
step 'git init -q kfusion && cd kfusion'
step 'git remote add origin git@github.com:example/kfusion-campaign.git'
step 'echo "KinectFusion, made fast" > README.md'
step 'git add README.md && git commit -q -m "Add README"'
step 'git switch -q -c develop'
step 'printf "all:\n\tcc -O2 -o kfusion kfusion.c\n" > Makefile'
step 'git add Makefile && git commit -q -m "Add build"'
step 'git switch -q -c fusion/tsdf'
step 'echo "/* TSDF integration */" > tsdf.c'
step 'git add tsdf.c && git commit -q -m "Integrate depth into the TSDF"'

say "start the campaign: the base (develop) and the forge (from origin) are found"
step 'git campaign init kfusion --umbrella 42'
step 'git campaign status'
step 'git campaign config'
step 'git campaign config umbrella 43'
step 'git campaign config umbrella'
say "the demo's forge does not exist: no automatic umbrella updates"
step 'git campaign config umbrella.auto false'

say "a stack: fusion/tsdf on develop, fusion/raycast on fusion/tsdf"
step 'git campaign stack adopt fusion/tsdf --on develop'
step 'git campaign stack new fusion/raycast'
step 'echo "/* ray casting */" > raycast.c'
step 'git add raycast.c && git commit -q -m "Ray-cast the TSDF"'
step 'git campaign stack show'

say "the parent is amended: fusion/raycast needs a restack"
step 'git switch -q fusion/tsdf'
step 'echo "/* truncate at 3 voxels */" >> tsdf.c'
step 'git commit -q -a --amend -m "Integrate depth into the TSDF, truncated at three voxels"'
step 'git campaign status --short'
step 'git campaign stack restack --all'
step 'git campaign stack show --json'
step 'git log --oneline --graph --all'

say "numbers attached to commits, keyed by this machine's fingerprint"
step 'git campaign env'
step 'git campaign measure add raycast_ms 12.4 --unit ms --samples 12.6,12.4,12.3,12.5,12.4'
step 'git campaign measure show'

say "named stashes: saved and restored by name, never stash@{0} by accident"
step 'git switch -q fusion/raycast'
step 'echo "/* work in progress */" >> raycast.c'
step 'git campaign stash save raycast-wip -m "try a coarser step"'
step 'git campaign stash list'
step 'git campaign stash pop raycast-wip'
step 'git checkout -q raycast.c'

say "a same-build A/B: the change removes one pass per frame; the control must not move"
step 'git switch -q develop'
step 'cp "$EXAMPLES/ab/integrate.c" "$EXAMPLES/ab/control.c" . && printf "integrate\ncontrol\n" > .gitignore'
step 'git add integrate.c control.c .gitignore && git commit -q -m "Add the integration kernel"'
step 'sed -i "s/#define WORK 5/#define WORK 4/" integrate.c'
step 'git campaign ab --build "cc -O1 -o integrate integrate.c && cc -O1 -o control control.c" --run "./integrate {iters}" --control ./control --iters 16,64 -n 6 --metric "re:loop: ([0-9.]+) us;unit=us"'

say "the campaign's memory: a hypothesis as a number, a finding, and the resume pointer"
step 'git checkout -q integrate.c'
step 'git campaign hypo add "one pass per frame costs a fifth of the loop" --metric loop_us --predict 20 --unit us'
step 'git campaign hypo next 1'
step 'git campaign finding add --kind slow "the fifth pass recomputes what the fourth wrote"'
step 'git campaign resume'
step 'git campaign template'

say "the campaign as one picture: histories, the A/B's samples and sweep, the stack, hypotheses and findings"
step 'git campaign report -o "$BIN_DIR/campaign-report.html"'
echo "# the report, kept: $BIN_DIR/campaign-report.html"
