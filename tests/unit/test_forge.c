/* Unit tests for src/core/base/forge_url.c: OWNER/REPO from remote URLs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/base/forge_url.h"

static void expect(const char *url, const char *host, const char *owner,
		   const char *repo)
{
	struct forge_url u;

	if (forge_url_parse(&u, url) < 0)
		fail_msg("could not parse '%s'", url);
	assert_string_equal(u.host, host);
	assert_string_equal(u.owner, owner);
	assert_string_equal(u.repo, repo);
	forge_url_release(&u);
}

static void refuse(const char *url)
{
	struct forge_url u;

	if (forge_url_parse(&u, url) == 0) {
		forge_url_release(&u);
		fail_msg("'%s' should not parse", url);
	}
}

static void ssh_forms(void **state)
{
	(void)state;
	expect("git@github.com:beehive-lab/TornadoVM.git", "github.com",
	       "beehive-lab", "TornadoVM");
	expect("git@github.com:beehive-lab/TornadoVM", "github.com",
	       "beehive-lab", "TornadoVM");
	expect("ssh://git@github.com/beehive-lab/TornadoVM.git", "github.com",
	       "beehive-lab", "TornadoVM");
	expect("ssh://git@GHE.Example.com:2222/team/app.git", "ghe.example.com",
	       "team", "app");
	expect("github.com:o/r.git", "github.com", "o", "r");
	/* the user part ends at the last '@', in both forms */
	expect("a@b@github.com:o/r", "github.com", "o", "r");
	expect("ssh://a@b@github.com/o/r", "github.com", "o", "r");
	expect("git@[::1]:o/r.git", "[::1]", "o", "r");
}

static void https_forms(void **state)
{
	(void)state;
	expect("https://github.com/beehive-lab/TornadoVM.git", "github.com",
	       "beehive-lab", "TornadoVM");
	expect("https://github.com/beehive-lab/TornadoVM/", "github.com",
	       "beehive-lab", "TornadoVM");
	expect("https://user:tok@github.com/o/r", "github.com", "o", "r");
	expect("http://ghe.local:8080/o/r.git", "ghe.local", "o", "r");
	expect("git://github.com/o/r.js.git", "github.com", "o", "r.js");
	expect("https://[::1]:8443/o/r.git", "[::1]", "o", "r");
	expect("https://github.com/o/r?x=1", "github.com", "o", "r");
	expect("https://github.com/o/r.git#frag", "github.com", "o", "r");
}

static void not_a_forge_repository(void **state)
{
	(void)state;
	refuse("/srv/git/project.git");
	refuse("../other");
	refuse("file:///srv/git/o/r.git");
	refuse("file:///o/r.git");
	refuse("ftp://host/o/r.git");
	refuse("https://github.com/onlyowner");
	refuse("https://github.com/a/b/c");
	refuse("git@github.com:");
	refuse("https:///o/r");
	refuse("C:/path/o/r");
	refuse("https://git hub.com/o/r");
	refuse("https://[::1/o/r");
	refuse("/abs/path:o/r");
}

static void names(void **state)
{
	(void)state;
	assert_int_equal(forge_name_valid("o/r"), 0);
	assert_int_equal(forge_name_valid("beehive-lab/TornadoVM"), 0);
	assert_int_equal(forge_name_valid("o"), -1);
	assert_int_equal(forge_name_valid("/r"), -1);
	assert_int_equal(forge_name_valid("o/"), -1);
	assert_int_equal(forge_name_valid("o/r/x"), -1);
	assert_int_equal(forge_name_valid("o r/x"), -1);
	assert_int_equal(forge_name_valid("../x"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ssh_forms),
		cmocka_unit_test(https_forms),
		cmocka_unit_test(not_a_forge_repository),
		cmocka_unit_test(names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
