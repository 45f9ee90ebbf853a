/* Unit tests for src/core/measure/notesmerge.c (git's cat_sort_uniq, the
 * three-way choice, the fan-out rule, a merge in a real repository) and for the
 * reading of git's errors in src/core/measure/sync.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/measure/notesmerge.h"
#include "core/measure/sync.h"

/* notes_cat_sort_uniq of two C strings (NULL: no note) */
static void expect_csu(const char *a, const char *b, const char *want)
{
	struct buf out = BUF_INIT;

	notes_cat_sort_uniq(&out, a, a ? strlen(a) : 0, b, b ? strlen(b) : 0);
	assert_string_equal(out.ptr, want);
	assert_int_equal(out.len, strlen(want));
	buf_release(&out);
}

/* The expected texts follow git's combine_notes_cat_sort_uniq (notes.c):
 * string_list_split at '\n', string_list_remove_empty_items,
 * string_list_sort (strcmp), string_list_remove_duplicates, each line
 * joined with a '\n' after it; each case was checked against git 2.39
 * (git notes merge -s cat_sort_uniq). */
static void cat_sort_uniq(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	expect_csu("b\na\n", "c\na", "a\nb\nc\n");
	/* empty lines, including git notes append's blank separator */
	expect_csu("x\n\n\ny\n", "", "x\ny\n");
	expect_csu("a1\n\nshared\n", "b1\n\nshared\n", "a1\nb1\nshared\n");
	/* no final newline on either side */
	expect_csu("z", "y", "y\nz\n");
	expect_csu(NULL, NULL, "");
	expect_csu("\n\n", NULL, "");
	expect_csu(NULL, "only\n", "only\n");
	/* duplicates within one side */
	expect_csu("x\nx\n", "x", "x\n");
	/* bytewise: upper case first, a prefix before its extensions, bytes
	 * above 0x7f last; '\r' is part of a line */
	expect_csu("a\nB\n\xc3\xa9\n", "ab\na\r\n",
		   "B\na\na\r\nab\n\xc3\xa9\n");
	/* git reads a note as a C string: nothing after a NUL counts */
	notes_cat_sort_uniq(&out, "b\na\0c\n", 6, "d", 1);
	assert_string_equal(out.ptr, "a\nb\nd\n");
	buf_release(&out);
}

static void lines_missing(void **state)
{
	(void)state;
	assert_int_equal(notes_lines_missing("a\nb\nb\n", 6, "b\n", 2), 1);
	assert_int_equal(notes_lines_missing("a\nb\n", 4, "b\na\n", 4), 0);
	assert_int_equal(notes_lines_missing("a", 1, NULL, 0), 1);
	assert_int_equal(notes_lines_missing(NULL, 0, "a", 1), 0);
	assert_int_equal(notes_lines_missing("\n\nc\n", 4, "", 0), 1);
	assert_int_equal(notes_lines_missing("x\ny\nz", 5, "y", 1), 2);
}

static void merge_pick(void **state)
{
	git_oid b, l, r;

	(void)state;
	git_oid_fromstr(&b, "1111111111111111111111111111111111111111");
	git_oid_fromstr(&l, "2222222222222222222222222222222222222222");
	git_oid_fromstr(&r, "3333333333333333333333333333333333333333");
	/* unchanged, or the same change on both sides */
	assert_int_equal(notes_merge_pick(&b, &b, &b), NOTES_PICK_LOCAL);
	assert_int_equal(notes_merge_pick(&b, &l, &l), NOTES_PICK_LOCAL);
	assert_int_equal(notes_merge_pick(NULL, &l, &l), NOTES_PICK_LOCAL);
	/* one side changed, added or removed it */
	assert_int_equal(notes_merge_pick(&b, &l, &b), NOTES_PICK_LOCAL);
	assert_int_equal(notes_merge_pick(&b, &b, &r), NOTES_PICK_REMOTE);
	assert_int_equal(notes_merge_pick(NULL, NULL, &r), NOTES_PICK_REMOTE);
	assert_int_equal(notes_merge_pick(NULL, &l, NULL), NOTES_PICK_LOCAL);
	assert_int_equal(notes_merge_pick(&b, &b, NULL), NOTES_PICK_REMOTE);
	assert_int_equal(notes_merge_pick(&b, NULL, &b), NOTES_PICK_LOCAL);
	/* both changed: combined, also against a removal */
	assert_int_equal(notes_merge_pick(&b, &l, &r), NOTES_PICK_COMBINE);
	assert_int_equal(notes_merge_pick(NULL, &l, &r), NOTES_PICK_COMBINE);
	assert_int_equal(notes_merge_pick(&b, NULL, &r), NOTES_PICK_COMBINE);
	assert_int_equal(notes_merge_pick(&b, &l, NULL), NOTES_PICK_COMBINE);
}

static void fanout_split(void **state)
{
	static const char digits[] = "0123456789abcdef";
	char names[33][41];
	const char *v[33];
	size_t i;

	(void)state;
	for (i = 0; i < 33; i++) {
		memset(names[i], '0', 40);
		names[i][40] = '\0';
		names[i][0] = digits[i % 16];
		names[i][2] = digits[i % 16];
		v[i] = names[i];
	}
	/* every first digit twice: split at the top */
	assert_int_equal(notes_fanout_split(v, 32, 0), 1);
	assert_int_equal(notes_fanout_split(v, 33, 0), 1);
	/* 'f' only once: flat */
	assert_int_equal(notes_fanout_split(v, 31, 0), 0);
	assert_int_equal(notes_fanout_split(v, 1, 0), 0);
	assert_int_equal(notes_fanout_split(v, 0, 0), 0);
	/* one level down the third digit decides */
	assert_int_equal(notes_fanout_split(v, 32, 1), 1);
	for (i = 0; i < 32; i++)
		names[i][2] = '7';
	assert_int_equal(notes_fanout_split(v, 32, 1), 0);
	assert_int_equal(notes_fanout_split(v, 32, 0), 1);
}

static void git_reason(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	sync_git_reason(&out, "fatal: '/x' does not appear to be a git "
			      "repository\nfatal: Could not read from remote "
			      "repository.\n\nPlease make sure you have the "
			      "correct access rights\nand the repository "
			      "exists.\n");
	assert_string_equal(out.ptr,
			    "'/x' does not appear to be a git repository");
	sync_git_reason(&out, "error: first\nerror: second\nhint: no\n");
	assert_string_equal(out.ptr, "second");
	sync_git_reason(&out, "To /r\n ! [rejected] x (fetch first)\n\n");
	assert_string_equal(out.ptr, " ! [rejected] x (fetch first)");
	sync_git_reason(&out, "");
	assert_string_equal(out.ptr, "git said nothing");
	buf_release(&out);
}

/* A repository in a fresh temporary folder, for the merge itself. */
static char dir[] = "/tmp/gcamp-test-sync-XXXXXX";
static git_repository *repo;
static git_signature *sig;

static int setup_repo(void **state)
{
	(void)state;
	git_libgit2_init();
	if (!mkdtemp(dir) || git_repository_init(&repo, dir, 1) < 0 ||
	    git_signature_new(&sig, "T", "t@example.com", 1700000000, 0) < 0)
		return -1;
	return 0;
}

static int remove_repo(void **state)
{
	char cmd[128];

	(void)state;
	git_signature_free(sig);
	git_repository_free(repo);
	git_libgit2_shutdown();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

#define OBJ_X "1000000000000000000000000000000000000001"
#define OBJ_Y "2000000000000000000000000000000000000002"
#define OBJ_Z "3000000000000000000000000000000000000003"

/* A notes commit with the given parent (or none) holding notes given as
 * (object, text) pairs, NULL-terminated. */
static void notes_commit(git_oid *out, const git_oid *parent,
			 const char *const *pairs)
{
	git_treebuilder *tb = NULL;
	git_commit *p = NULL;
	git_tree *tree = NULL;
	git_oid blob, tid;
	const char *obj, *text;

	assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
	while ((obj = *pairs++)) {
		text = *pairs++;
		assert_int_equal(git_blob_create_from_buffer(&blob, repo, text,
							     strlen(text)),
				 0);
		assert_int_equal(git_treebuilder_insert(NULL, tb, obj, &blob,
							GIT_FILEMODE_BLOB),
				 0);
	}
	assert_int_equal(git_treebuilder_write(&tid, tb), 0);
	assert_int_equal(git_tree_lookup(&tree, repo, &tid), 0);
	if (parent)
		assert_int_equal(git_commit_lookup(&p, repo, parent), 0);
	assert_int_equal(git_commit_create(out, repo, NULL, sig, sig, NULL,
					   "notes\n", tree, p ? 1 : 0,
					   (const git_commit **)&p),
			 0);
	git_commit_free(p);
	git_tree_free(tree);
	git_treebuilder_free(tb);
}

/* The note on obj in notes commit c, or NULL when there is none (these
 * trees are small, so flat). The caller frees it. */
static char *note_text(const git_oid *c, const char *obj)
{
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	char *text = NULL;

	assert_int_equal(git_commit_lookup(&commit, repo, c), 0);
	assert_int_equal(git_commit_tree(&tree, commit), 0);
	if (git_tree_entry_bypath(&e, tree, obj) == 0) {
		assert_int_equal(
			git_blob_lookup(&blob, repo, git_tree_entry_id(e)), 0);
		text = strndup(git_blob_rawcontent(blob),
			       (size_t)git_blob_rawsize(blob));
	}
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(commit);
	return text;
}

static void expect_note(const git_oid *c, const char *obj, const char *want)
{
	char *got = note_text(c, obj);

	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void merge_in_repo(void **state)
{
	struct notes_merge_result res;
	struct error err = ERROR_INIT;
	git_oid base, local, remote, ahead;
	git_commit *m = NULL;

	(void)state;
	notes_commit(&base, NULL,
		     (const char *[]){OBJ_X, "1\n", OBJ_Z, "z\n", NULL});
	/* local adds a line to X and a note on Y */
	notes_commit(&local, &base,
		     (const char *[]){OBJ_X, "1\n\n2\n", OBJ_Y, "l\n", OBJ_Z,
				      "z\n", NULL});
	/* remote adds another line to X and removes Z */
	notes_commit(&remote, &base, (const char *[]){OBJ_X, "3\n1\n", NULL});

	assert_int_equal(
		notes_merge(&res, repo, &local, &remote, sig, "merge\n", &err),
		0);
	assert_int_equal(res.merged, 1);
	assert_int_equal(res.changed, 1);
	assert_int_equal(res.fast_forward, 0);
	assert_int_equal(res.notes, 2);
	assert_int_equal(res.lines_added, 1);	/* "3" */
	assert_int_equal(res.lines_to_push, 2); /* "2" and "l" */
	expect_note(&res.commit, OBJ_X, "1\n2\n3\n");
	expect_note(&res.commit, OBJ_Y, "l\n");
	expect_note(&res.commit, OBJ_Z, NULL);
	assert_int_equal(git_commit_lookup(&m, repo, &res.commit), 0);
	assert_int_equal(git_commit_parentcount(m), 2);
	assert_true(git_oid_equal(git_commit_parent_id(m, 0), &local));
	assert_true(git_oid_equal(git_commit_parent_id(m, 1), &remote));
	git_commit_free(m);

	/* remote ahead of local: a fast-forward, nothing written */
	notes_commit(&ahead, &local,
		     (const char *[]){OBJ_X, "1\n2\n9\n", NULL});
	assert_int_equal(
		notes_merge(&res, repo, &local, &ahead, sig, "m\n", &err), 0);
	assert_int_equal(res.fast_forward, 1);
	assert_int_equal(res.merged, 0);
	assert_true(git_oid_equal(&res.commit, &ahead));
	assert_int_equal(res.lines_added, 1); /* "9" */
	assert_int_equal(res.lines_to_push, 0);

	/* local ahead of remote: local stays, its new lines to push */
	assert_int_equal(
		notes_merge(&res, repo, &ahead, &local, sig, "m\n", &err), 0);
	assert_int_equal(res.changed, 0);
	assert_true(git_oid_equal(&res.commit, &ahead));
	assert_int_equal(res.lines_added, 0);
	assert_int_equal(res.lines_to_push, 1);

	/* nothing on one side, then on neither */
	assert_int_equal(notes_merge(&res, repo, NULL, &base, sig, "m\n", &err),
			 0);
	assert_int_equal(res.fast_forward, 1);
	assert_int_equal(res.lines_added, 2);
	assert_int_equal(notes_merge(&res, repo, &base, NULL, sig, "m\n", &err),
			 0);
	assert_int_equal(res.changed, 0);
	assert_int_equal(res.lines_to_push, 2);
	assert_int_equal(notes_merge(&res, repo, NULL, NULL, sig, "m\n", &err),
			 0);
	assert_int_equal(res.changed, 0);
	assert_true(git_oid_is_zero(&res.commit));
	assert_int_equal(err.code, 0);
}

/* Two histories with no common commit: every note is a union. */
static void merge_unrelated(void **state)
{
	struct notes_merge_result res;
	struct error err = ERROR_INIT;
	git_oid local, remote;

	(void)state;
	notes_commit(&local, NULL, (const char *[]){OBJ_X, "a\nsame\n", NULL});
	notes_commit(&remote, NULL,
		     (const char *[]){OBJ_X, "same\nb", OBJ_Y, "y", NULL});
	assert_int_equal(
		notes_merge(&res, repo, &local, &remote, sig, "merge\n", &err),
		0);
	assert_int_equal(res.merged, 1);
	expect_note(&res.commit, OBJ_X, "a\nb\nsame\n");
	/* a note taken whole keeps its blob, final newline or not */
	expect_note(&res.commit, OBJ_Y, "y");
	assert_int_equal(res.lines_added, 2);
	assert_int_equal(res.lines_to_push, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cat_sort_uniq),
		cmocka_unit_test(lines_missing),
		cmocka_unit_test(merge_pick),
		cmocka_unit_test(fanout_split),
		cmocka_unit_test(git_reason),
		cmocka_unit_test(merge_in_repo),
		cmocka_unit_test(merge_unrelated),
	};

	return cmocka_run_group_tests(tests, setup_repo, remove_repo);
}
