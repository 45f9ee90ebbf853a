/* Unit tests for the template engine (src/util/template.c): each case renders
 * a template over JSON data and compares the whole output; the whitespace
 * cases follow the Mustache spec's "standalone" rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/template.h"

/* Renders TEXT over the JSON DATA; returns the output (static) or the error
 * message prefixed with "ERROR ". */
static const char *render(const char *text, const char *data)
{
	static char result[4096];
	struct buf out = BUF_INIT;
	struct error err = ERROR_INIT;
	cJSON *j = cJSON_Parse(data);
	int ret;

	assert_non_null(j);
	buf_puts(&out, "");
	ret = template_render("t.md", text, j, &out, &err);
	if (ret)
		snprintf(result, sizeof(result), "ERROR %s", err.msg);
	else
		snprintf(result, sizeof(result), "%s", out.ptr);
	if (ret)
		assert_int_equal(out.len, 0);
	buf_release(&out);
	cJSON_Delete(j);
	return result;
}

static void variables(void **state)
{
	(void)state;
	assert_string_equal(render("a {{x}} b", "{\"x\":\"1 < 2 & 3\"}"),
			    "a 1 < 2 & 3 b");
	assert_string_equal(
		render("{{n}} {{f}} {{t}} {{z}}|{{missing}}|{{nul}}",
		       "{\"n\":1116,\"f\":8.27,\"t\":true,"
		       "\"z\":false,\"nul\":null}"),
		"1116 8.27 true false||");
	assert_string_equal(
		render("{{ a.b.c }}", "{\"a\":{\"b\":{\"c\":\"deep\"}}}"),
		"deep");
	assert_string_equal(render("{{a.x}}", "{\"a\":{\"b\":1}}"), "");
	assert_string_equal(render("no tags\n", "{}"), "no tags\n");
	assert_string_equal(render("", "{}"), "");
}

static void sections_loop_and_scope(void **state)
{
	(void)state;
	/* an array loops, each element innermost; names not in the element
	 * are found outside it */
	assert_string_equal(
		render("{{#prs}}#{{n}} {{title}} ({{repo}})\n{{/prs}}",
		       "{\"repo\":\"tornadovm\",\"prs\":[{\"n\":1,\"title\":"
		       "\"a\"},{\"n\":2,\"title\":\"b\",\"repo\":\"fork\"}]}"),
		"#1 a (tornadovm)\n#2 b (fork)\n");
	assert_string_equal(
		render("{{#xs}}{{.}},{{/xs}}", "{\"xs\":[1,\"two\",3]}"),
		"1,two,3,");
	/* an object: once, inside it */
	assert_string_equal(render("{{#env}}{{gpu}} · {{backend}}{{/env}}",
				   "{\"env\":{\"gpu\":\"H200\",\"backend\":"
				   "\"CUDA\"}}"),
			    "H200 · CUDA");
	/* falsy values never render; truthy scalars once */
	assert_string_equal(
		render("{{#a}}A{{/a}}{{#b}}B{{/b}}{{#c}}C{{/c}}{{#d}}D{{/d}}"
		       "{{#e}}E{{/e}}{{#f}}F{{/f}}{{#g}}G{{/g}}{{#h}}[{{.}}]{{/"
		       "h}}",
		       "{\"a\":false,\"b\":null,\"c\":\"\",\"d\":0,\"e\":[],"
		       "\"g\":true,\"h\":\"x\"}"),
		"G[x]");
	assert_string_equal(
		render("{{^a}}A{{/a}}{{^b}}B{{/b}}{{^e}}E{{/e}}{{^f}}F{{/f}}"
		       "{{^g}}G{{/g}}{{^xs}}X{{/xs}}",
		       "{\"a\":false,\"b\":null,\"e\":[],\"g\":true,"
		       "\"xs\":[1]}"),
		"ABEF");
	/* nested loops see every enclosing element */
	assert_string_equal(
		render("{{#envs}}{{#rows}}{{name}}:{{class}}={{failed}} "
		       "{{/rows}}{{/envs}}",
		       "{\"envs\":[{\"name\":\"h200\",\"rows\":[{\"class\":"
		       "\"A\",\"failed\":2},{\"class\":\"B\",\"failed\":0}]},"
		       "{\"name\":\"a100\",\"rows\":[{\"class\":\"A\","
		       "\"failed\":1}]}]}"),
		"h200:A=2 h200:B=0 a100:A=1 ");
}

static void standalone_lines_vanish(void **state)
{
	(void)state;
	assert_string_equal(
		render("| a |\n{{#rows}}\n| {{v}} |\n{{/rows}}\nend\n",
		       "{\"rows\":[{\"v\":1},{\"v\":2}]}"),
		"| a |\n| 1 |\n| 2 |\nend\n");
	/* indented, CRLF, and at the end without a newline */
	assert_string_equal(
		render("x\r\n  {{^none}}  \r\ny\r\n  {{/none}}", "{}"),
		"x\r\ny\r\n");
	assert_string_equal(
		render("a\n{{! a comment\nover lines }}\nb\n", "{}"), "a\nb\n");
	/* a tag with text on its line keeps the line */
	assert_string_equal(render("- {{#ok}}yes{{/ok}}\n", "{\"ok\":true}"),
			    "- yes\n");
	/* a variable alone on a line is not standalone */
	assert_string_equal(render("{{v}}\n", "{\"v\":\"\"}"), "\n");
}

static void malformed_templates_name_the_line(void **state)
{
	char deep[32 * 12 + 64] = "";

	(void)state;
	assert_string_equal(render("a\nb {{x\n", "{}"),
			    "ERROR template 't.md' line 2: '{{' is not "
			    "closed by '}}'");
	assert_string_equal(render("a\n\n{{#rows}}\nx\n", "{}"),
			    "ERROR template 't.md' line 3: section 'rows' is "
			    "not closed");
	assert_string_equal(render("{{#a}}\n{{#b}}\n{{/a}}\n{{/b}}\n", "{}"),
			    "ERROR template 't.md' line 3: '{{/a}}' closes "
			    "section 'b' of line 2");
	assert_string_equal(render("x\n{{/a}}", "{}"),
			    "ERROR template 't.md' line 2: '{{/a}}' closes no "
			    "section");
	assert_string_equal(render("{{a b}}", "{}"),
			    "ERROR template 't.md' line 1: bad name 'a b'");
	assert_string_equal(render("{{}}", "{}"),
			    "ERROR template 't.md' line 1: bad name ''");
	assert_string_equal(render("{{{x}}}", "{}"),
			    "ERROR template 't.md' line 1: bad name '{x'");
	assert_string_equal(render("{{a..b}}", "{}"),
			    "ERROR template 't.md' line 1: bad name 'a..b'");
	for (int i = 0; i < 33; i++)
		strcat(deep, "{{#a}}");
	assert_string_equal(render(deep, "{}"),
			    "ERROR template 't.md' line 1: sections nest "
			    "deeper than 32");
	/* loops nested over lists multiply: 16^8 lines is refused */
	deep[0] = '\0';
	for (int i = 0; i < 8; i++)
		strcat(deep, "{{#l}}");
	strcat(deep, "0123456789\n");
	for (int i = 0; i < 8; i++)
		strcat(deep, "{{/l}}");
	assert_string_equal(render(deep, "{\"l\":[1,2,3,4,5,6,7,8,9,10,11,"
					 "12,13,14,15,16]}"),
			    "ERROR template 't.md' renders more than 16 MiB");
}

static void
nested_sections_that_print_nothing_stop_at_the_step_cap(void **state)
{
	char deep[512] = "";

	(void)state;
	/* 5^10 passes through the innermost section, none printing */
	for (int i = 0; i < 10; i++)
		strcat(deep, "{{#l}}");
	for (int i = 0; i < 10; i++)
		strcat(deep, "{{/l}}");
	assert_string_equal(render(deep, "{\"l\":[1,2,3,4,5]}"),
			    "ERROR template 't.md' takes more than 4 million "
			    "steps to render (sections nested over lists)");
	/* the same shape, shallow, renders */
	strcpy(deep, "{{#l}}{{#l}}{{#l}}.{{/l}}{{/l}}{{/l}}");
	assert_int_equal(strlen(render(deep, "{\"l\":[1,2,3,4,5]}")), 125);
}

static void overrides_come_from_the_worktree(void **state)
{
	char dir[] = "/tmp/gcamp-tmpl-XXXXXX", path[256];
	struct buf out = BUF_INIT;
	struct error err = ERROR_INIT;
	char *from = NULL;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* no override, no built-in */
	assert_int_equal(template_load(dir, "nosuch.md", &out, &from, &err),
			 GCAMP_ENOTFOUND);
	assert_string_equal(err.msg, "no template named 'nosuch.md'");
	assert_null(from);
	error_clear(&err);
	assert_int_equal(template_load(dir, "../x.md", &out, &from, &err),
			 GCAMP_EUSAGE);
	error_clear(&err);

	snprintf(path, sizeof(path), "%s/.campaign", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/.campaign/templates", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/.campaign/templates/nosuch.md", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("ours {{x}}\n", f);
	fclose(f);
	assert_int_equal(template_load(dir, "nosuch.md", &out, &from, &err), 0);
	assert_string_equal(out.ptr, "ours {{x}}\n");
	assert_string_equal(from, path);
	free(from);
	unlink(path);
	buf_reset(&out);

	/* every built-in template parses */
	for (const struct template_builtin *b = template_builtins; b->name;
	     b++) {
		cJSON *empty = cJSON_CreateObject();
		assert_int_equal(
			template_load(NULL, b->name, &out, &from, &err), 0);
		assert_null(from);
		assert_string_equal(out.ptr, b->text);
		buf_reset(&out);
		if (template_render(b->name, b->text, empty, &out, &err))
			fail_msg("%s", err.msg);
		buf_reset(&out);
		cJSON_Delete(empty);
	}
	buf_release(&out);
	snprintf(path, sizeof(path), "%s/.campaign/templates", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/.campaign", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(variables),
		cmocka_unit_test(sections_loop_and_scope),
		cmocka_unit_test(standalone_lines_vanish),
		cmocka_unit_test(malformed_templates_name_the_line),
		cmocka_unit_test(
			nested_sections_that_print_nothing_stop_at_the_step_cap),
		cmocka_unit_test(overrides_come_from_the_worktree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
