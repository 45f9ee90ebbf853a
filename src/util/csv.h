/* CSV as RFC 4180 quotes it, for the --format csv exports: one header row,
 * then one row per record, fields a spreadsheet reads back unchanged. */
#ifndef GCAMP_CSV_H
#define GCAMP_CSV_H

#include "util/buf.h"

/* Appends the field s (NULL: an empty field) to the row in out: a comma
 * first unless out is empty or ends a row; quoted, with its quotes
 * doubled, when it holds a comma, a quote, a CR or LF, or begins or ends
 * with a space (which some readers strip). */
void csv_field(struct buf *out, const char *s);
/* csv_field of v in the fewest digits (15 to 17) that read back as v;
 * an empty field for NaN. */
void csv_number(struct buf *out, double v);
/* csv_field of v in decimal. */
void csv_count(struct buf *out, long long v);
/* Ends the row in out ("\n": every reader takes it, hyperfine writes it). */
void csv_end(struct buf *out);
/* One row of the n fields of v, ended: the header row. */
void csv_row(struct buf *out, const char *const *v, size_t n);

#endif
