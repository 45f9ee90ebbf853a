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

/* refs/heads/a at A2, refs/remotes/origin/gone-local at A1 */
static int fake_resolve(char out[REFS_HEX_SIZE], void *store,
			const char *refname)
{
	(void)store;
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

static const struct refs_backend fake_backend = {"fake", fake_resolve, NULL,
						 NULL};

static void restack_rule_compares_decoded_ids(void **state)
{
	(void)state;
	assert_int_equal(stack_model_needs_restack(MIXED, MIXED), 0);
	assert_int_equal(stack_model_needs_restack(UPPER, MIXED), 0);
	assert_int_equal(stack_model_needs_restack(A1, A2), 1);
	assert_int_equal(stack_model_needs_restack(NULL, A2), 1);
	assert_int_equal(stack_model_needs_restack("1111111", A1), 1);
	assert_int_equal(stack_model_needs_restack(A1 "0", A1), 1);
	assert_int_equal(
		stack_model_needs_restack(
			"g111111111111111111111111111111111111111", A1),
		1);
	assert_int_equal(stack_model_same_commit(UPPER, MIXED), 1);
	assert_int_equal(stack_model_same_commit(NULL, MIXED), 0);
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
	stack_model_add("campaign.base", "develop", &m);
	stack_model_resolve(&m, &r, "origin");
	assert_int_equal(m.n, 4);
	assert_null(stack_model_find(&m, "tip.only"));
	assert_null(stack_model_find(&m, "e"));
	x = stack_model_find(&m, "b");
	assert_string_equal(x->parent, "a");
	assert_string_equal(x->parent_tip, A2);
	assert_string_equal(x->parent_now, A2);
	assert_int_equal(x->needs_restack, 0);
	x = stack_model_find(&m, "my.dotted");
	assert_null(x->parent_tip);
	assert_int_equal(x->needs_restack, 1);
	x = stack_model_find(&m, "c"); /* the remote's branch, moved */
	assert_string_equal(x->parent_now, A1);
	assert_int_equal(x->needs_restack, 1);
	x = stack_model_find(&m, "d"); /* a parent that is gone */
	assert_string_equal(x->parent_now, "");
	assert_int_equal(x->needs_restack, 0);
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
			entries_parse_into_relations_the_last_value_winning),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
