/* libFuzzer target for the template engine (src/util/template.c): a
 * repository's .campaign/templates/ file is input the tool does not write.
 * Every input is rendered over a fixed data object (strings, numbers, lists,
 * nested objects) and must neither crash, leak, nor read past the text;
 * a refused template must leave the output as it was. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/template.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* template_load's built-ins live in a generated file the fuzz build does
 * not have; the engine is what is fuzzed */
const struct template_builtin template_builtins[] = {{0, 0}};

static cJSON *fixture;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fixture = cJSON_Parse(
		"{\"campaign\":{\"name\":\"kfusion\",\"base\":\"develop\"},"
		"\"prs\":[{\"number\":12,\"done\":true,\"title\":\"a|b\","
		"\"claim\":null},{\"number\":13,\"done\":false,\"title\":"
		"\"\",\"claim\":\"faster\"}],\"xs\":[1,\"two\",[3],{\"a\":"
		"{\"a\":{\"a\":4}}}],\"empty\":[],\"zero\":0,\"f\":false,"
		"\"n\":null,\"s\":\"\\u00b5s\"}");
	return fixture ? 0 : 2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct buf out = BUF_INIT;
	struct error err = ERROR_INIT;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	buf_puts(&out, "kept");
	if (template_render("fuzz.md", text, fixture, &out, &err) < 0) {
		if (strcmp(out.ptr, "kept") || !err.msg[0]) {
			fprintf(stderr, "fuzz-template: a refusal changed the "
					"output or said nothing\n");
			abort();
		}
	} else if (strncmp(out.ptr, "kept", 4)) {
		fprintf(stderr, "fuzz-template: the output lost its start\n");
		abort();
	}
	buf_release(&out);
	free(text);
	return 0;
}
