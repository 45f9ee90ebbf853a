/* The label for people of a machine, from its fingerprint. */
#include "core/machine/label.h"

#include "core/machine/fingerprint.h"
#include "util/json.h"

void machine_label(struct buf *out, const cJSON *fp, const char *id)
{
	const cJSON *ident, *models, *m;
	const char *s;

	if (!fp) {
		buf_addf(out, "env %s", id);
		return;
	}
	ident = cJSON_GetObjectItemCaseSensitive(fp, "identity");
	buf_puts(out, json_get_str_or(ident, "cpu_model", "unknown CPU"));
	if ((s = json_get_str(ident, "os")))
		buf_addf(out, ", %s", s);
	models = cJSON_GetObjectItemCaseSensitive(ident, "gpu_models");
	if (cJSON_GetArraySize(models) > 0) {
		buf_puts(out, ", GPU");
		cJSON_ArrayForEach(m, models) {
			if (cJSON_IsString(m))
				buf_addf(out, " %s", m->valuestring);
		}
		if ((s = json_get_str(ident, "driver_version")))
			buf_addf(out, ", driver %s", s);
	} else {
		buf_puts(out, ", no GPU");
	}
	if ((s = json_get_str(ident, "jdk_version")))
		buf_addf(out, ", JDK %s %s",
			 json_get_str_or(ident, "jdk_vendor", ""), s);
	buf_addf(out, ", backend %s",
		 json_get_str_or(ident, "backend", "none"));
}

void machine_label_of_env(struct buf *out, struct ctx *ctx, const char *id)
{
	cJSON *fp;

	fingerprint_load_jsons(&fp, ctx, &id, 1);
	machine_label(out, fp, id);
	cJSON_Delete(fp);
}
