/* git campaign doctor: check the installation, changing nothing. */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cmd.h"
#include "core/views/doctor.h"
#include "util/options.h"

static const char *const doctor_usage[] = {
	"git campaign doctor [--json]",
	NULL,
};

int cmd_doctor(int argc, const char **argv, struct ctx *ctx)
{
	struct doctor_report r;
	char self[PATH_MAX];
	ssize_t len;
	int json = 0, n, broken = 0;
	size_t i;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print the checks as JSON"),
		OPT_END(),
	};

	n = parse_options(argc, argv, opts, doctor_usage);
	if (n < 0)
		return parse_options_status(n);
	if (n)
		return usage_error(doctor_usage, opts, "too many arguments");
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[len > 0 ? len : 0] = '\0';
	doctor_run(&r, ctx, len > 0 ? self : "git-campaign");
	if (json) {
		cJSON *a = cJSON_CreateArray();
		char *text;

		for (i = 0; i < r.nr; i++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "check", r.items[i].name);
			cJSON_AddStringToObject(
				o, "state",
				doctor_state_name(r.items[i].state));
			cJSON_AddStringToObject(o, "detail", r.items[i].detail);
			cJSON_AddItemToArray(a, o);
		}
		text = cJSON_Print(a);
		puts(text);
		cJSON_free(text);
		cJSON_Delete(a);
	}
	for (i = 0; i < r.nr; i++) {
		broken |= r.items[i].state == DOCTOR_BAD;
		if (!json)
			printf("%-13s%-8s %s\n", r.items[i].name,
			       doctor_state_name(r.items[i].state),
			       r.items[i].detail);
	}
	doctor_report_release(&r);
	return broken;
}
