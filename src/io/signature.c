/* Commit identities as git makes them, environment first. */
#include "io/signature.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/repo.h"
#include "util/clock.h"

/* "+0100", "+01:00", "-0530", "Z" -> minutes east of UTC */
static int parse_zone(int *out, const char *s)
{
	int sign, hh, mm;

	while (*s == ' ')
		s++;
	if (!strcmp(s, "Z") || !*s) {
		*out = 0;
		return 0;
	}
	if (*s != '+' && *s != '-')
		return -1;
	sign = *s++ == '-' ? -1 : 1;
	if (!isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[1]))
		return -1;
	hh = (s[0] - '0') * 10 + (s[1] - '0');
	s += 2;
	if (*s == ':')
		s++;
	if (!isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[1]) ||
	    s[2])
		return -1;
	mm = (s[0] - '0') * 10 + (s[1] - '0');
	if (hh > 14 || mm > 59)
		return -1;
	*out = sign * (hh * 60 + mm);
	return 0;
}

int signature_parse_date(git_time_t *out_time, int *out_offset, const char *s)
{
	int y, mo, d, h, mi, sec, off = 0, n = 0;
	long long epoch;
	char *end;

	if (*s == '@' || isdigit((unsigned char)*s)) {
		const char *p = *s == '@' ? s + 1 : s;

		epoch = strtoll(p, &end, 10);
		if (end != p && (!*end || *end == ' ') &&
		    (*s == '@' || *end == ' ')) {
			if (parse_zone(&off, end) < 0)
				return -1;
			*out_time = (git_time_t)epoch;
			*out_offset = off;
			return 0;
		}
	}
	if (sscanf(s, "%4d-%2d-%2d%*1[T ]%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi,
		   &sec, &n) != 6 ||
	    !n)
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    sec > 60 || parse_zone(&off, s + n) < 0)
		return -1;
	epoch = clock_days_from_civil(y, mo, d) * 86400LL + h * 3600 + mi * 60 +
		sec;
	*out_time = (git_time_t)(epoch - off * 60LL);
	*out_offset = off;
	return 0;
}

int signature_now(git_signature **out, struct gitcfg *cfg, int who,
		  struct error *err)
{
	const char *w = who == SIG_AUTHOR ? "AUTHOR" : "COMMITTER";
	int tool = who == SIG_TOOL;
	char key[32];
	const char *name, *email, *date;
	git_time_t t;
	int off, rc;

	snprintf(key, sizeof(key), "GIT_%s_NAME", w);
	name = getenv(key);
	snprintf(key, sizeof(key), "GIT_%s_EMAIL", w);
	email = getenv(key);
	snprintf(key, sizeof(key), "GIT_%s_DATE", w);
	date = getenv(key);
	if ((!name || !*name) && cfg)
		gitcfg_get(&name, cfg, "user.name");
	if ((!email || !*email) && cfg)
		gitcfg_get(&email, cfg, "user.email");
	if (tool && (!name || !*name))
		name = "git-campaign";
	if (tool && (!email || !*email))
		email = "git-campaign@localhost";
	if (!name || !*name || !email || !*email) {
		error_set(err, GCAMP_EFATAL,
			  "cannot make a commit: no identity (user.name and "
			  "user.email are unset)");
		error_hint(err,
			   "git config --global user.name 'Your Name'; "
			   "git config --global user.email you@example.com");
		return GCAMP_EFATAL;
	}
	repo_lib_init();
	if (date && *date) {
		if (signature_parse_date(&t, &off, date) < 0)
			return error_set(err, GCAMP_EFATAL,
					 "cannot read GIT_%s_DATE '%s'", w,
					 date);
		rc = git_signature_new(out, name, email, t, off);
	} else {
		rc = git_signature_now(out, name, email);
	}
	if (rc < 0)
		return error_set(err, GCAMP_EFATAL,
				 "cannot make a commit identity from '%s <%s>'",
				 name, email);
	return 0;
}
