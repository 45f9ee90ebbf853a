/* The live progress line of `ab` and `hypo test`: one line of standard
 * error, rewritten in place, as hyperfine's and git's own progress are. */
#include "cmd/abprogress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/ab/render.h"
#include "util/buf.h"
#include "util/clock.h"

static int term_width(void)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 20)
		return ws.ws_col;
	if (c && atoi(c) > 20)
		return atoi(c);
	return 80;
}

/* The workload with {iters} replaced by the count */
static void command_text(struct buf *out, const char *w, long iters)
{
	const char *hit;

	while (iters > 0 && (hit = strstr(w, "{iters}"))) {
		buf_add(out, w, (size_t)(hit - w));
		buf_addf(out, "%ld", iters);
		w = hit + 7;
	}
	buf_puts(out, w);
}

/* "ETA 0:07", "ETA 1:02:03" */
static void eta_text(struct buf *out, double s)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		buf_addf(out, "ETA %ld:%02ld:%02ld", t / 3600, t / 60 % 60,
			 t % 60);
	else
		buf_addf(out, "ETA %ld:%02ld", t / 60, t % 60);
}

static void show(struct ab_progress_line *l, const char *head, const char *cmd,
		 const char *tail)
{
	int room = l->width - 1 - (int)strlen(head) - (int)strlen(tail);
	int len = (int)strlen(cmd);

	/* "..." and the command's end: its arguments are what tell the
	 * points apart */
	if (len > room && room > 3)
		fprintf(stderr, "\r\033[K%s...%s%s", head, cmd + len - room + 3,
			tail);
	else if (len > room)
		fprintf(stderr, "\r\033[K%s%s", head, tail);
	else
		fprintf(stderr, "\r\033[K%s%s%s", head, cmd, tail);
	l->shown = 1;
}

void ab_progress_show(void *data, const struct ab_progress *p)
{
	struct ab_progress_line *l = data;
	struct buf head = BUF_INIT, cmd = BUF_INIT, tail = BUF_INIT;
	double now = clock_now_s();

	if (!l->width)
		l->width = term_width();
	if (p->what == AB_PROGRESS_BUILD) {
		buf_addf(&head, "building %c (%s)...", p->arm, p->workload);
		show(l, head.ptr, "", "");
		goto out;
	}
	if (p->what == AB_PROGRESS_BUILT) {
		buf_addf(&head, "%c is built already (tree %.12s)", p->arm,
			 p->workload);
		show(l, head.ptr, "", "");
		goto out;
	}
	if (p->k <= 1 || !l->t0)
		l->t0 = now;
	if (p->arm)
		buf_addf(&head, "%c ", p->arm);
	buf_addf(&head, "%ld/%ld ", p->k, p->total);
	if (p->warmup)
		buf_puts(&head, "warm-up ");
	if (p->iters > 0)
		buf_addf(&head, "iters %ld ", p->iters);
	command_text(&cmd, p->workload, p->iters);
	if (!isnan(p->median)) {
		buf_puts(&tail, "  median ");
		ab_render_value(&tail, p->median, p->unit ? p->unit : "");
	}
	if (p->k > 1 && now > l->t0) {
		buf_puts(&tail, "  ");
		eta_text(&tail, (now - l->t0) / (double)(p->k - 1) *
					(double)(p->total - p->k + 1));
	}
	show(l, head.ptr, cmd.ptr, tail.ptr);
out:
	buf_release(&head);
	buf_release(&cmd);
	buf_release(&tail);
}

void ab_progress_end(struct ab_progress_line *l)
{
	if (l && l->shown)
		fputs("\r\033[K", stderr);
	if (l)
		l->shown = 0;
}
