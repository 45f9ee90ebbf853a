# bash completion for `git campaign`. git's own completion calls
# _git_campaign for `git campaign <TAB>` (and loads this file by its name,
# git-campaign, from bash-completion's folders). Every candidate comes from
# the program itself, so that completion follows the code: the commands
# and subcommands from -h, each one's options from its -h, the import
# formats from --list-formats, branch, stash, metric and setting names
# from the repository and the campaign.

__git_campaign_commands ()
{
	__git campaign -h | sed -n '/^commands:/,/^$/s/^   \([a-z][a-z-]*\) .*/\1/p'
}

# the subcommands of $1, from the synopsis lines of its -h
__git_campaign_subcommands ()
{
	__git campaign "$1" -h |
		sed -n "s/^\(usage:\|   or:\) git campaign $1 \([a-z][a-z-]*\).*/\2/p" |
		sort -u
}

# the options of $1 [$2], from its -h, and the ones every command takes
__git_campaign_options ()
{
	__git campaign "$@" -h |
		sed -n 's/^ \{1,\}\(-[a-zA-Z0-9], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p'
	printf '%s\n' --quiet --no-color --color=
}

__git_campaign_stashes ()
{
	__git campaign stash list --json |
		sed -n 's/^[[:space:]]*"name":[[:space:]]*"\(.*\)",$/\1/p'
}

# the metrics recorded on HEAD
__git_campaign_metrics ()
{
	__git campaign measure show | awk 'NF { print $1 }' | sort -u
}

__git_campaign_settings ()
{
	__git campaign config | awk '{ print $1 }'
}

_git_campaign ()
{
	local i at=0 cmd sub
	for ((i = 1; i < cword; i++)); do
		if [ "${words[i]}" = campaign ]; then
			at=$i
			break
		fi
	done
	[ $at -gt 0 ] || return
	if [ $cword -eq $((at + 1)) ]; then
		case "$cur" in
		-*) __gitcomp "--version --help -h" ;;
		*) __gitcomp "$(__git_campaign_commands)" ;;
		esac
		return
	fi
	cmd=${words[at + 1]}
	case "$prev" in
	--format)
		if [ "$cmd ${words[at + 2]}" = "measure import" ]; then
			__gitcomp "$(__git campaign --list-formats)"
		else
			__gitcomp "text json csv"
		fi
		return
		;;
	--on | --onto | --base)
		__gitcomp_nl "$(__git_heads)"
		return
		;;
	esac
	local subs
	subs=$(__git_campaign_subcommands "$cmd")
	if [ -n "$subs" ] && [ $cword -eq $((at + 2)) ]; then
		case "$cur" in
		-*) __gitcomp "$(__git_campaign_options "$cmd")" ;;
		*) __gitcomp "$subs" ;;
		esac
		return
	fi
	[ -n "$subs" ] && sub=${words[at + 2]}
	case "$cur" in
	--format=*)
		if [ "$cmd${sub:+ $sub}" = "measure import" ]; then
			__gitcomp "$(__git campaign --list-formats)" "" "${cur#--format=}"
		else
			__gitcomp "text json csv" "" "${cur#--format=}"
		fi
		return
		;;
	-*)
		__gitcomp "$(__git_campaign_options "$cmd" $sub)"
		return
		;;
	esac
	case "$cmd${sub:+ $sub}" in
	"stack restack" | "stack move" | "stack delete" | "stack adopt" | \
		"stack submit" | "stack up" | "stack top" | "stack rename" | \
		"stack fold" | "stack split" | "belongs" | "pr"*)
		__gitcomp_nl "$(__git_heads)"
		;;
	"stash apply" | "stash pop" | "stash drop" | "stash show")
		__gitcomp_nl "$(__git_campaign_stashes)"
		;;
	"measure log" | "measure compare")
		__gitcomp_nl "$(__git_campaign_metrics)"
		;;
	config)
		[ $cword -eq $((at + 2)) ] && __gitcomp_nl "$(__git_campaign_settings)"
		;;
	esac
}
