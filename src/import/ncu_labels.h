/* How the details page names what the raw page calls by metric id: one
 * id may be shown in two sections, under two labels. */
#ifndef GCAMP_NCU_LABELS_H
#define GCAMP_NCU_LABELS_H

struct ncu_label {
	const char *id;	     /* "gpu__time_duration.sum" */
	const char *section; /* "GPU Speed Of Light Throughput" */
	const char *label;   /* "Duration" */
};

/* The first label of metric ID after AFTER (NULL: the first), or NULL when
 * there is no further one. */
const struct ncu_label *ncu_label_next(const char *id,
				       const struct ncu_label *after);

#endif
