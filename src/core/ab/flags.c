/* Required and forbidden flags in an A/B's commands, matched as the JVM
 * matches -D properties: by name, the last one winning, booleans in any
 * case. */
#include "core/ab/flags.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xalloc.h"

/* The words of cmd, split at blanks and quotes */
static void split_words(struct strvec *out, const char *cmd)
{
	const char *p = cmd, *start;

	for (;;) {
		while (*p && strchr(" \t\n'\"", *p))
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && !strchr(" \t\n'\"", *p))
			p++;
		strvec_push_owned(out, xstrndup(start, (size_t)(p - start)));
	}
}

static int is_bool(const char *v)
{
	return !strcasecmp(v, "true") || !strcasecmp(v, "false");
}

/* 1 when property values a and b mean the same: equal, or one boolean in
 * any case */
static int same_value(const char *a, const char *b)
{
	if (is_bool(a) && is_bool(b))
		return !strcasecmp(a, b);
	return !strcmp(a, b);
}

int ab_flag_state(char **out_last, const char *cmd, const char *flag)
{
	struct strvec words = STRVEC_INIT;
	const char *eq = strchr(flag, '='), *last = NULL;
	size_t i, klen;
	int rc = 0;

	if (out_last)
		*out_last = NULL;
	split_words(&words, cmd);
	if (strncmp(flag, "-D", 2) || !eq || eq == flag + 2) {
		for (i = 0; i < words.nr && !rc; i++)
			rc = !strcmp(words.v[i], flag);
		goto out;
	}
	/* "-Dname=": the name with its '=' */
	klen = (size_t)(eq - flag) + 1;
	for (i = 0; i < words.nr; i++)
		if (!strncmp(words.v[i], flag, klen) ||
		    (!strncmp(words.v[i], flag, klen - 1) &&
		     !words.v[i][klen - 1]))
			last = words.v[i];
	if (!last)
		goto out;
	rc = same_value(last[klen - 1] ? last + klen : "", eq + 1) ? 1 : -1;
	if (rc < 0 && out_last)
		*out_last = xstrdup(last);
out:
	strvec_clear(&words);
	return rc;
}

int ab_flags_check(struct error *err, const char *cmd,
		   const struct strvec *required,
		   const struct strvec *forbidden, int profiler_on)
{
	char *last = NULL;
	size_t k;
	int rc = 0;

	for (k = 0; required && k < required->nr && !rc; k++) {
		if (ab_flag_state(&last, cmd, required->v[k]) > 0)
			continue;
		if (last)
			rc = error_set(err, GCAMP_EREFUSED,
				       "'%s' lacks the required flag '%s': "
				       "its last '%s' wins",
				       cmd, required->v[k], last);
		else
			rc = error_set(err, GCAMP_EREFUSED,
				       "'%s' lacks the required flag '%s'", cmd,
				       required->v[k]);
		error_hint(err, "numbers without it are not the numbers this "
				"campaign compares");
		free(last);
		last = NULL;
	}
	for (k = 0; forbidden && k < forbidden->nr && !rc && !profiler_on;
	     k++) {
		if (ab_flag_state(NULL, cmd, forbidden->v[k]) <= 0)
			continue;
		rc = error_set(err, GCAMP_EREFUSED,
			       "'%s' holds the forbidden flag '%s'", cmd,
			       forbidden->v[k]);
		error_hint(err, "it perturbs the workload; label such a run "
				"--config profiler=on");
	}
	return rc;
}
