/* fork.c - fork_single_threaded: see support.h. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/support/support.h"

/* Threads of this process that may be inside malloc: all but the caller and GLib's idle
 * "pool-spawner", which only ever waits for requests to start a pool thread. */
static int busy_threads(void)
{
	DIR *dir = opendir("/proc/self/task");
	int n = 0;
	if (dir == NULL)
		return -1;
	for (struct dirent *e; (e = readdir(dir)) != NULL;) {
		if (e->d_name[0] == '.')
			continue;
		g_autofree char *path = g_strdup_printf("/proc/self/task/%s/comm", e->d_name);
		g_autofree char *comm = NULL;
		if (g_file_get_contents(path, &comm, NULL, NULL) &&
		    g_str_equal(g_strstrip(comm), "pool-spawner"))
			continue;
		n++;
	}
	closedir(dir);
	return n - 1;
}

pid_t fork_single_threaded(void)
{
	/* GLib parks the threads of freed pools for reuse; a child would inherit the parking list
	 * without the threads and wait for them forever. */
	g_thread_pool_set_max_unused_threads(0);
	g_thread_pool_stop_unused_threads();
	for (int waited_ms = 0; busy_threads() != 0; waited_ms++) {
		if (waited_ms == 5000)
			fail_msg("fork_single_threaded: %d other threads still running after 5 s",
				 busy_threads());
		g_usleep(1000);
	}
	return fork();
}
