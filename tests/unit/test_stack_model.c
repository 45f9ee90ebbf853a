/* Unit tests for src/core/stack/model.c: the recorded stack parsed from
 * config entries, and the restack rule, over an in-memory refs backend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "core/stack/model.h"

#define A1 "1111111111111111111111111111111111111111"
#define A2 "2222222222222222222222222222222222222222"
#define MIXED "abcdef0123456789abcdef0123456789abcdef01"
#define UPPER "ABCDEF0123456789ABCDEF0123456789ABCDEF01"

#define A3 "3333333333333333333333333333333333333333"
#define A4 "4444444444444444444444444444444444444444"

/* refs/heads/a at A2, refs/remotes/origin/remote-only at A1, the stacked
 * branches b, my.dotted, c, d at A3 and f at A4 */
static int fake_resolve(char out[REFS_HEX_SIZE], void *store,
			const char *refname)
{
	(void)store;
	if (!strcmp(refname, "refs/heads/b") ||
	    !strcmp(refname, "refs/heads/my.dotted") ||
	    !strcmp(refname, "refs/heads/c") ||
	    !strcmp(refname, "refs/heads/d")) {
		snprintf(out, REFS_HEX_SIZE, "%s", A3);
		return 0;
	}
	if (!strcmp(refname, "refs/heads/f")) {
		snprintf(out, REFS_HEX_SIZE, "%s", A4);
		return 0;
	}
	if (!strcmp(refname, "refs/heads/a")) {
		snprintf(out, REFS_HEX_SIZE, "%s", A2);
		return 0;
	}
	if (!strcmp(refname, "refs/remotes/origin/remote-only")) {
		snprintf(out, REFS_HEX_SIZE, "%s", A1);
		return 0;
	}
	return GCAMP_ENOTFOUND;
}

/* the history: A1 <- A2 <- A3, and A4 on A1 */
static int fake_is_ancestor(void *store, const char *anc, const char *desc)
{
	(void)store;
	if (!strcmp(desc, A3))
		return !strcmp(anc, A1) || !strcmp(anc, A2);
	if (!strcmp(desc, A4) || !strcmp(desc, A2))
		return !strcmp(anc, A1);
	return 0;
}

static const struct refs_backend fake_backend = {"fake", fake_resolve, NULL,
						 NULL, fake_is_ancestor};
static const struct refs_backend blind_backend = {"blind", fake_resolve, NULL,
						  NULL, NULL};

static void restack_rule_compares_decoded_ids(void **state)
{
	const struct refs r = {&blind_backend, NULL};

	(void)state;
	/* a backend that cannot walk commits: the recorded tip decides */
	assert_int_equal(stack_model_needs_restack(&r, MIXED, MIXED, A3), 0);
	assert_int_equal(stack_model_needs_restack(&r, UPPER, MIXED, A3), 0);
	assert_int_equal(stack_model_needs_restack(&r, A1, A2, A3), 1);
	assert_int_equal(stack_model_needs_restack(&r, NULL, A2, A3), 1);
	assert_int_equal(stack_model_needs_restack(&r, "1111111", A1, A3), 1);
	assert_int_equal(stack_model_needs_restack(&r, A1 "0", A1, A3), 1);
	assert_int_equal(
		stack_model_needs_restack(
			&r, "g111111111111111111111111111111111111111", A1, A3),
		1);
	assert_int_equal(stack_model_same_commit(UPPER, MIXED), 1);
	assert_int_equal(stack_model_same_commit(NULL, MIXED), 0);
}

static void
a_branch_holding_its_parents_tip_needs_no_restack_whatever_was_recorded(
	void **state)
{
	const struct refs r = {&fake_backend, NULL};

	(void)state;
	/* brought up to date by hand: the recorded tip is old, or odd */
	assert_int_equal(stack_model_needs_restack(&r, A1, A2, A3), 0);
	assert_int_equal(stack_model_needs_restack(&r, NULL, A2, A3), 0);
	assert_int_equal(stack_model_needs_restack(&r, A1 "0", A2, A3), 0);
	/* the recorded tip is the parent's, but the branch left it */
	assert_int_equal(stack_model_needs_restack(&r, A2, A2, A4), 1);
	/* the parent moved on past the branch */
	assert_int_equal(stack_model_needs_restack(&r, A1, A3, A4), 1);
}

static void entries_parse_into_relations_the_last_value_winning(void **state)
{
	struct stack_model m = STACK_MODEL_INIT;
	struct refs r = {&fake_backend, NULL};
	const struct stack_rel *x;

	(void)state;
	stack_model_add("branch.tip.only.campaignparenttip", A1, &m);
	stack_model_add("branch.b.campaignparent", "old", &m);
	stack_model_add("branch.b.campaignparenttip", A1, &m);
	stack_model_add("branch.b.campaignparent", "a", &m);
	stack_model_add("branch.b.campaignparenttip", A2, &m);
	stack_model_add("branch.my.dotted.campaignparent", "a", &m);
	stack_model_add("branch.c.campaignparent", "remote-only", &m);
	stack_model_add("branch.c.campaignparenttip", A2, &m);
	stack_model_add("branch.d.campaignparent", "nowhere", &m);
	stack_model_add("branch.e.remote", "origin", &m);
	stack_model_add("branch.f.campaignparent", "a", &m);
	stack_model_add("branch.f.campaignparenttip", A2, &m);
	stack_model_add("campaign.base", "develop", &m);
	stack_model_resolve(&m, &r, "origin");
	assert_int_equal(m.n, 5);
	assert_null(stack_model_find(&m, "tip.only"));
	assert_null(stack_model_find(&m, "e"));
	x = stack_model_find(&m, "b");
	assert_string_equal(x->parent, "a");
	assert_string_equal(x->parent_tip, A2);
	assert_string_equal(x->parent_now, A2);
	assert_int_equal(x->needs_restack, 0);
	x = stack_model_find(&m, "my.dotted"); /* no tip, holds a's */
	assert_null(x->parent_tip);
	assert_string_equal(x->tip_now, A3);
	assert_int_equal(x->needs_restack, 0);
	x = stack_model_find(&m, "c"); /* the remote's branch, held */
	assert_string_equal(x->parent_now, A1);
	assert_int_equal(x->needs_restack, 0);
	x = stack_model_find(&m, "d"); /* a parent that is gone */
	assert_string_equal(x->parent_now, "");
	assert_int_equal(x->needs_restack, 0);
	x = stack_model_find(&m, "f"); /* recorded on a's tip, left it */
	assert_int_equal(x->needs_restack, 1);
	/* the configuration's order */
	assert_string_equal(m.rel[0].branch, "b");
	assert_string_equal(m.rel[3].branch, "d");
	stack_model_release(&m);
	stack_model_release(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(restack_rule_compares_decoded_ids),
		cmocka_unit_test(
			a_branch_holding_its_parents_tip_needs_no_restack_whatever_was_recorded),
		cmocka_unit_test(
			entries_parse_into_relations_the_last_value_winning),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
