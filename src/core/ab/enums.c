/* The names of the A/B enums, from the tables of enums.h. */
#include "core/ab/enums.h"

#include <stddef.h>
#include <string.h>

#define NAME_(m, name, ...) name,
#define WORDS_(m, name, words) words,

const char *const ab_mode_names[] = {AB_MODE_INFO(NAME_) NULL};
const char *const ab_order_names[] = {AB_ORDER_INFO(NAME_) NULL};
static const char *const order_words[] = {AB_ORDER_INFO(WORDS_) NULL};
static const char *const verdict_names[] = {AB_VERDICT_INFO(NAME_) NULL};
static const char *const vouch_names[] = {AB_VOUCH_INFO(NAME_) NULL};

#define COUNT(a) (sizeof(a) / sizeof(*(a)) - 1)

/* names[i], or names[0] for a value outside the table */
static const char *name_of(const char *const *names, size_t n, int i)
{
	return i >= 0 && (size_t)i < n ? names[i] : names[0];
}

/* the index of s among names, or def */
static int find(const char *const *names, const char *s, int def)
{
	int i;

	for (i = 0; s && names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return def;
}

const char *ab_mode_name(enum ab_mode m)
{
	return name_of(ab_mode_names, COUNT(ab_mode_names), (int)m);
}

const char *ab_order_name(enum ab_order o)
{
	return name_of(ab_order_names, COUNT(ab_order_names), (int)o);
}

const char *ab_order_words(enum ab_order o)
{
	return name_of(order_words, COUNT(order_words), (int)o);
}

const char *ab_verdict_name(enum ab_verdict v)
{
	return name_of(verdict_names, COUNT(verdict_names), (int)v);
}

const char *ab_vouch_name(enum ab_vouch v)
{
	return name_of(vouch_names, COUNT(vouch_names), (int)v);
}

enum ab_mode ab_mode_from_name(const char *s, enum ab_mode def)
{
	return (enum ab_mode)find(ab_mode_names, s, (int)def);
}

enum ab_order ab_order_from_name(const char *s, enum ab_order def)
{
	return (enum ab_order)find(ab_order_names, s, (int)def);
}

enum ab_verdict ab_verdict_from_name(const char *s, enum ab_verdict def)
{
	return (enum ab_verdict)find(verdict_names, s, (int)def);
}

enum ab_vouch ab_vouch_from_name(const char *s, enum ab_vouch def)
{
	return (enum ab_vouch)find(vouch_names, s, (int)def);
}
