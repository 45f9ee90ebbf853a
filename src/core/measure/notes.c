/* The notes trees of refs/notes/campaign: finding a commit's note through
 * git's fan-out folders, writing a note with lines appended as one notes
 * commit, and moving the ref by compare-and-swap. */
#include "core/measure/notes.h"

#include "io/signature.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/measure/measure.h"
#include "io/ownlock.h"
#include "io/repo.h"
#include "util/xalloc.h"

#define HEXSZ GIT_OID_HEXSZ
/* free space under which a failed ref update is put down to a full disk */
#define NOTES_FULL_BYTES (256 << 10)

int notes_is_hex40(const char *s, size_t len)
{
	size_t i;

	if (len != HEXSZ)
		return 0;
	for (i = 0; i < len; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return 0;
	return 1;
}

static int is_hex_name(const char *s)
{
	return strspn(s, "0123456789abcdef") == strlen(s);
}

/* The tip of the notes ref: 0 with *exists set (0 when there is none). */
int notes_tip(git_oid *out, int *exists, git_repository *repo,
	      struct error *err)
{
	int rc = git_reference_name_to_id(out, repo, MEASURE_NOTES_REF);

	*exists = rc == 0;
	if (rc == GIT_ENOTFOUND)
		return 0;
	if (rc < 0)
		return error_git(err, rc, "cannot read '%s'",
				 MEASURE_NOTES_REF);
	return 0;
}

int notes_check_tree(const git_tree *tree, const git_oid *commit,
		     struct error *err)
{
	size_t i, n = git_tree_entrycount(tree), len;
	char hex[GIT_OID_HEXSZ + 1];

	for (i = 0; i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);

		len = strlen(name);
		/* a note is named by the id of what it notes, or by the
		 * rest of it under fan-out folders of two digits */
		if (is_hex_name(name) &&
		    (git_tree_entry_type(e) == GIT_OBJECT_TREE
			     ? len == 2
			     : git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
				       len % 2 == 0 && len > 2 && len <= HEXSZ))
			continue;
		git_oid_tostr(hex, 13, commit);
		error_set(
			err, GCAMP_EFATAL,
			"commit %s is not a notes commit: its tree holds '%s'",
			hex, name);
		error_hint(err,
			   "nothing was written; 'git reflog %s' shows where "
			   "the ref was, 'git update-ref %s ID' puts it back",
			   MEASURE_NOTES_REF, MEASURE_NOTES_REF);
		return GCAMP_EFATAL;
	}
	return 0;
}

int notes_commit_tree(git_tree **out, git_repository *repo, const git_oid *id,
		      struct error *err)
{
	git_commit *c = NULL;
	int rc;

	*out = NULL;
	if ((rc = git_commit_lookup(&c, repo, id)) < 0 ||
	    (rc = git_commit_tree(out, c)) < 0)
		rc = error_git(err, rc, "cannot read notes commit '%s'",
			       git_oid_tostr_s(id));
	else if ((rc = notes_check_tree(*out, id, err)) < 0) {
		git_tree_free(*out);
		*out = NULL;
	}
	git_commit_free(c);
	return rc;
}

/* 1 when tree holds a fan-out folder (two hex digits) */
static int has_fanout(const git_tree *tree)
{
	size_t i, n = git_tree_entrycount(tree);

	for (i = 0; i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);

		if (git_tree_entry_type(e) == GIT_OBJECT_TREE &&
		    strlen(name) == 2 && is_hex_name(name))
			return 1;
	}
	return 0;
}

/*
 * Finds the note of commit hex in a notes tree, following the fan-out
 * subtrees git makes ("ab/cdef..."): 1 with the blob in *blob and its
 * path in *path, or 0 when there is none; *path then holds the fan-out
 * folder where a new note belongs ("" or "ab/" ...): the folders on the
 * way, and a new one where its level has other fan-out folders.
 */
int notes_find(git_oid *blob, struct buf *path, git_repository *repo,
	       git_tree *root, const char *hex, struct error *err)
{
	git_tree *tree = root, *sub = NULL;
	const git_tree_entry *e;
	size_t off = 0;
	int rc = 0;
	char pre[3];

	buf_reset(path);
	for (;;) {
		e = git_tree_entry_byname(tree, hex + off);
		if (e && git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
			git_oid_cpy(blob, git_tree_entry_id(e));
			buf_puts(path, hex + off);
			rc = 1;
			break;
		}
		if (off + 2 >= HEXSZ)
			break;
		memcpy(pre, hex + off, 2);
		pre[2] = '\0';
		e = git_tree_entry_byname(tree, pre);
		if (!e && has_fanout(tree)) {
			/* git fans out every note of a level alike */
			buf_addf(path, "%s/", pre);
			break;
		}
		if (!e || git_tree_entry_type(e) != GIT_OBJECT_TREE)
			break;
		if ((rc = git_tree_lookup(&sub, repo, git_tree_entry_id(e))) <
		    0) {
			rc = error_git(err, rc, "cannot read the notes tree");
			break;
		}
		if (tree != root)
			git_tree_free(tree);
		tree = sub;
		sub = NULL;
		buf_addf(path, "%s/", pre);
		off += 2;
	}
	if (tree != root)
		git_tree_free(tree);
	return rc;
}

/* Writes the new note blob, the notes tree and the notes commit. */
int notes_write_commit(git_oid *out, struct ctx *ctx, git_repository *repo,
		       const struct notes_write *w)
{
	const git_oid *tip = w->tip;
	const char *hex = w->hex;
	int exists = w->exists;
	git_tree *tree = NULL, *newtree = NULL;
	git_commit *parent = NULL;
	git_signature *sig = NULL;
	git_blob *old = NULL;
	struct buf path = BUF_INIT, data = BUF_INIT, msg = BUF_INIT;
	git_tree_update upd;
	git_oid blob_id, tree_id;
	size_t i;
	int rc, found = 0;

	memset(&upd, 0, sizeof(upd));
	if (exists &&
	    ((rc = notes_commit_tree(&tree, repo, tip, &ctx->err)) < 0 ||
	     (rc = notes_find(&blob_id, &path, repo, tree, hex, &ctx->err)) <
		     0))
		goto out;
	found = exists && rc > 0;
	if (found) {
		/*
		 * The old note is read without hashing it again: its bytes go
		 * into the new blob, which is hashed anyway, and zlib's check
		 * still catches a damaged object. Hashing both halved the
		 * speed of an append to a note of megabytes (AB-24); git
		 * itself verifies no object it reads for a note.
		 */
		git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
		rc = git_blob_lookup(&old, repo, &blob_id);
		git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 1);
		if (rc < 0) {
			rc = error_git(&ctx->err, rc,
				       "cannot read the note on '%s'", hex);
			goto out;
		}
		buf_add(&data, git_blob_rawcontent(old),
			(size_t)git_blob_rawsize(old));
		if (data.len && data.ptr[data.len - 1] != '\n')
			buf_putc(&data, '\n');
	} else {
		/* a new note goes into the deepest fan-out folder there is
		 * for it, as git would read it: "ab/cdef..." */
		buf_puts(&path, hex + path.len / 3 * 2);
	}
	for (i = 0; i < w->lines->nr; i++) {
		buf_puts(&data, w->lines->v[i]);
		buf_putc(&data, '\n');
	}
	if ((rc = git_blob_create_from_buffer(&blob_id, repo, data.ptr,
					      data.len)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot write the note");
		goto out;
	}
	upd.action = GIT_TREE_UPDATE_UPSERT;
	git_oid_cpy(&upd.id, &blob_id);
	upd.filemode = GIT_FILEMODE_BLOB;
	upd.path = path.ptr;
	if ((rc = git_tree_create_updated(&tree_id, repo, tree, 1, &upd)) < 0 ||
	    (rc = git_tree_lookup(&newtree, repo, &tree_id)) < 0 ||
	    (exists && (rc = git_commit_lookup(&parent, repo, tip)) < 0)) {
		rc = error_git(&ctx->err, rc, "cannot write the notes tree");
		goto out;
	}
	if ((rc = ctx_signature(&sig, ctx, SIG_TOOL)) < 0)
		goto out;
	buf_addf(&msg, "Notes added by 'git campaign %s'\n", w->why);
	rc = git_commit_create(out, repo, NULL, sig, sig, NULL, msg.ptr,
			       newtree, exists ? 1 : 0,
			       (const git_commit **)&parent);
	if (rc < 0)
		rc = error_git(&ctx->err, rc, "cannot write the notes commit");
out:
	git_signature_free(sig);
	git_commit_free(parent);
	git_blob_free(old);
	git_tree_free(newtree);
	git_tree_free(tree);
	buf_release(&path);
	buf_release(&data);
	buf_release(&msg);
	return rc;
}

int notes_move_ref(struct ctx *ctx, git_repository *repo, int existed,
		   const git_oid *old, const git_oid *new, const char *why)
{
	const char *common = git_repository_commondir(repo);
	git_reference *ref = NULL;
	struct ownlock *guard = NULL;
	char msg[128], *dir, *lock;
	const char *guarded[2] = {NULL, NULL};
	struct statvfs fs;
	int rc;

	snprintf(msg, sizeof(msg), "campaign: %s", why);
	/* the guard lets a run of ours remove the .lock a killed one left */
	dir = xasprintf("%scampaign", common);
	lock = xasprintf("%s%s.lock", common, MEASURE_NOTES_REF);
	guarded[0] = lock;
	if ((rc = ownlock_acquire(&guard, NULL, dir, "notes-ref", guarded,
				  &ctx->err)) < 0)
		goto out;
	if (existed)
		rc = git_reference_create_matching(
			&ref, repo, MEASURE_NOTES_REF, new, 1, old, msg);
	else
		rc = git_reference_create(&ref, repo, MEASURE_NOTES_REF, new, 0,
					  msg);
	git_reference_free(ref);
	ownlock_release(guard);
	/* another writer moved the ref since we read it: try again */
	if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS) {
		rc = 1;
		goto out;
	}
	if (rc >= 0)
		goto out;
	/* a full disk is named as such, a stale lock only when there is one */
	if (!statvfs(common, &fs) &&
	    (unsigned long long)fs.f_bavail * fs.f_frsize < NOTES_FULL_BYTES)
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot update '%s': no space left on device",
			       MEASURE_NOTES_REF);
	else
		rc = error_git(&ctx->err, rc, "cannot update '%s'",
			       MEASURE_NOTES_REF);
	if (!access(lock, F_OK))
		error_hint(&ctx->err,
			   "nothing was written; if no other git is running, "
			   "remove a stale '%s'",
			   lock);
	else
		error_hint(&ctx->err, "nothing was written");
out:
	free(lock);
	free(dir);
	return rc;
}

int notes_start(struct ctx *ctx, git_repository *repo)
{
	git_treebuilder *tb = NULL;
	git_signature *sig = NULL;
	git_reference *ref = NULL;
	git_tree *tree = NULL;
	git_oid tree_id, id;
	int rc;

	if (!git_reference_lookup(&ref, repo, MEASURE_NOTES_REF)) {
		git_reference_free(ref);
		return 0;
	}
	if ((rc = ctx_signature(&sig, ctx, SIG_TOOL)) < 0)
		return rc;
	if ((rc = git_treebuilder_new(&tb, repo, NULL)) < 0 ||
	    (rc = git_treebuilder_write(&tree_id, tb)) < 0 ||
	    (rc = git_tree_lookup(&tree, repo, &tree_id)) < 0 ||
	    (rc = git_commit_create(&id, repo, NULL, sig, sig, NULL,
				    "Notes of git campaign\n", tree, 0, NULL)) <
		    0)
		goto fail;
	/* under the notes ref's guard, which removes a killed init's lock;
	 * 1: another writer was first, as good */
	if ((rc = notes_move_ref(ctx, repo, 0, NULL, &id, "init")) > 0)
		rc = 0;
	goto out;
fail:
	rc = error_git(&ctx->err, rc, "cannot create '%s'", MEASURE_NOTES_REF);
out:
	git_reference_free(ref);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	git_signature_free(sig);
	return rc;
}
