/* A stacked branch whose work has landed in its parent (the base):
 * merged, rebase-merged or squash-merged, told offline from the commit
 * graph, the trees and patch ids. */
#ifndef GCAMP_STACK_LANDED_H
#define GCAMP_STACK_LANDED_H

#include <git2.h>

/*
 * 1 when the branch at tip, whose own commits are upstream..tip and which
 * was last based on recorded (campaignParentTip, NULL when none), has
 * landed in its parent, whose tip is parent_now; else 0 (errors count as
 * 0). Landed is: merged (tip is below parent_now, and the branch had
 * commits of its own: recorded is below tip and is not tip);
 * squash-merged or rebase-merged (its own change is not empty, and either
 * merging it into parent_now changes nothing, or its whole change, by
 * patch id, is one of parent_now's first-parent commits since their merge
 * base, of which the newest 1000 are compared).
 */
int stack_landed(git_repository *repo, const char *recorded,
		 const git_oid *upstream, const git_oid *tip,
		 const git_oid *parent_now);

#endif
