/* Running a program of this build variant and capturing what it did: see support.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include <sys/wait.h>

#include "tests/support/support.h"

struct run run_program(const char *program, const char *const *args,
		       GSpawnChildSetupFunc child_setup)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	struct run r = { -1, 0, NULL, NULL };
	g_autoptr(GError) error = NULL;
	int wait_status;

	g_ptr_array_add(argv, (gpointer)program);
	for (size_t i = 0; args[i]; i++)
		g_ptr_array_add(argv, (gpointer)args[i]);
	g_ptr_array_add(argv, NULL);
	if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, child_setup, NULL,
			  &r.out, &r.err, &wait_status, &error))
		fail_msg("cannot run %s: %s", program, error->message);
	if (WIFEXITED(wait_status))
		r.status = WEXITSTATUS(wait_status);
	if (WIFSIGNALED(wait_status))
		r.signal = WTERMSIG(wait_status);
	return r;
}

void run_clear(struct run *r)
{
	g_free(r->out);
	g_free(r->err);
}

void expect_clean_exit(const struct run *r, const char *what)
{
	if (r->status != 0 || r->err[0] != '\0')
		fail_msg("%s: exit status %d, stderr '%s'", what, r->status, r->err);
}

void expect_refusal(const struct run *r, const char *what, const char *needle)
{
	const char *nl = strchr(r->err, '\n');

	if (r->status != 2 || r->out[0] != '\0' || !nl || nl == r->err || nl[1] != '\0' ||
	    !strstr(r->err, needle))
		fail_msg(
			"%s: want exit status 2, empty stdout and one line on stderr naming '%s'; got %d, stdout '%.100s', "
			"stderr '%s'",
			what, needle, r->status, r->out, r->err);
}
