/* What git's index file says of itself without a parse of every entry:
 * the tree its cache-tree extension holds for the whole index. */
#ifndef GCAMP_INDEXFILE_H
#define GCAMP_INDEXFILE_H

/*
 * The id of the tree the index at path would be written as, from its
 * cache-tree (TREE) extension, as 40 hexadecimal digits in out, when the
 * extension is there and valid for the whole index (git and libgit2 keep
 * it so after a checkout, a commit or a refresh, and invalidate a folder
 * whose files they change), and the file's own checksum (its last 20
 * bytes, which libgit2's git_index_checksum gives for the index it read)
 * in sum. 0 with both set; GCAMP_ENOTFOUND when it
 * cannot be told that way (no such extension, an invalidated root, a
 * split index, an unknown version, a short or unreadable file): the
 * caller then compares entry by entry. Records no error.
 */
int indexfile_tree(char out[41], unsigned char sum[20], const char *path);

#endif
