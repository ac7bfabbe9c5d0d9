/*
 * vm_boot.c - one boot of the real-kernel VM (see vm_boot.h).
 */
#include "tuner/vm/vm_boot.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tuner/vm/vm_steal.h"

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(vm-boot-error-quark, vm_boot_error)
/* clang-format on */

#define KVM_PROBE_S 30
#define TAIL_LINES  12

char *vm_boot_cache_dir(const VmBootConfig *config)
{
	const char *env = g_getenv("LINSCHED_VM_CACHE");

	if (config->cache_dir)
		return g_strdup(config->cache_dir);
	if (env && *env)
		return g_strdup(env);
	return g_build_filename(g_get_user_cache_dir(), "linsched-tuner", "vm", NULL);
}

static const char *qemu_program(const VmBootConfig *config)
{
	const char *env = g_getenv("LINSCHED_VM_QEMU");

	if (config->qemu)
		return config->qemu;
	return env && *env ? env : "qemu-system-x86_64";
}

static gboolean setup_error(GError **error, const char *fmt, const char *what)
{
	g_set_error(error, VM_BOOT_ERROR, VM_BOOT_ERROR_SETUP, fmt, what);
	return FALSE;
}

/* The kernel and initramfs that make vm prepared. */
static gboolean find_kernel(const char *cache, char **vmlinuz, char **initramfs, GError **error)
{
	g_autofree char *ini = g_build_filename(cache, "kernel.ini", NULL);
	g_autoptr(GKeyFile) kf = g_key_file_new();

	if (!g_key_file_load_from_file(kf, ini, G_KEY_FILE_NONE, NULL))
		return setup_error(error, "no prepared kernel in %s: run 'make vm'", cache);
	*vmlinuz = g_key_file_get_string(kf, "kernel", "vmlinuz", NULL);
	if (*vmlinuz == NULL)
		*vmlinuz = g_build_filename(cache, "vmlinuz", NULL);
	*initramfs = g_build_filename(cache, "initramfs.cpio.gz", NULL);
	if (!g_file_test(*vmlinuz, G_FILE_TEST_IS_REGULAR))
		return setup_error(error, "the kernel %s is missing: run 'make vm'", *vmlinuz);
	if (!g_file_test(*initramfs, G_FILE_TEST_IS_REGULAR))
		return setup_error(error, "the initramfs %s is missing: run 'make vm'", *initramfs);
	return TRUE;
}

char *vm_boot_kernel(const VmBootConfig *config, GError **error)
{
	g_autofree char *cache = vm_boot_cache_dir(config);
	g_autofree char *ini = g_build_filename(cache, "kernel.ini", NULL);
	g_autoptr(GKeyFile) kf = g_key_file_new();

	if (!g_key_file_load_from_file(kf, ini, G_KEY_FILE_NONE, NULL)) {
		setup_error(error, "no prepared kernel in %s: run 'make vm'", cache);
		return NULL;
	}
	g_autofree char *package = g_key_file_get_string(kf, "kernel", "package", NULL);
	g_autofree char *version = g_key_file_get_string(kf, "kernel", "version", NULL);
	return g_strdup_printf("%s %s", package ? package : "?", version ? version : "?");
}

/* The initramfs, zeros up to a multiple of 4 bytes (the kernel looks for the next archive's
 * header on that boundary), then the plan's archive. */
static gboolean write_initrd(const char *initramfs, const VmPlan *plan, const char *path,
			     GError **error)
{
	g_autofree char *base = NULL;
	gsize len;

	if (!g_file_get_contents(initramfs, &base, &len, error))
		return FALSE;
	g_autoptr(GBytes) cpio = vm_plan_cpio(plan);
	GByteArray *all = g_byte_array_sized_new((guint)(len + 4 + g_bytes_get_size(cpio)));
	static const guint8 zeros[4] = { 0 };

	g_byte_array_append(all, (const guint8 *)base, (guint)len);
	g_byte_array_append(all, zeros, (guint)((4 - len % 4) % 4));
	g_byte_array_append(all, g_bytes_get_data(cpio, NULL), (guint)g_bytes_get_size(cpio));
	gboolean ok = g_file_set_contents(path, (const char *)all->data, all->len, error);
	g_byte_array_free(all, TRUE);
	return ok;
}

/* What one qemu process did. */
struct boot {
	GPid pid;
	int out_fd, err_fd;
	FILE *console; /* console.log, or NULL */
	GString *partial;
	GQueue tail; /* the last console lines, char * */
	gboolean panicked, timed_out;
	int status;
	/* The vCPUs' host times at the current run's "LST start"; the first protocol line after it
	 * marks the run's end (the guest prints nothing while its command runs). */
	gint64 steal_seq; /* -1: no run under way */
	VmCpuTime at_start;
};

/* A run starts or ends: note what the host took from the vCPUs in between. */
static void measure_steal(struct boot *b, VmGuest *guest, const char *line)
{
	guint seq;
	VmCpuTime now;
	guint64 ppm, stall;

	if (!g_str_has_prefix(line, "LST "))
		return;
	if (b->steal_seq >= 0) {
		if (vm_cpu_time_sample(b->pid, &now) &&
		    vm_cpu_time_steal(&b->at_start, &now, &ppm, &stall))
			vm_guest_note_steal(guest, (guint)b->steal_seq, (gint64)ppm, (gint64)stall);
		b->steal_seq = -1;
	}
	if (sscanf(line, "LST start seq=%u", &seq) == 1 && vm_cpu_time_sample(b->pid, &b->at_start))
		b->steal_seq = seq;
}

static void take_line(struct boot *b, VmGuest *guest, const char *line)
{
	if (b->console)
		fprintf(b->console, "%s\n", line);
	if (strstr(line, "Kernel panic"))
		b->panicked = TRUE;
	g_queue_push_tail(&b->tail, g_strdup(line));
	if (g_queue_get_length(&b->tail) > TAIL_LINES)
		g_free(g_queue_pop_head(&b->tail));
	measure_steal(b, guest, line);
	vm_guest_feed(guest, line);
}

/* Split what was read into lines; \r of the serial console dropped. */
static void take_bytes(struct boot *b, VmGuest *guest, const char *buf, gssize n)
{
	for (gssize i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			take_line(b, guest, b->partial->str);
			g_string_truncate(b->partial, 0);
		} else if (buf[i] != '\r') {
			g_string_append_c(b->partial, buf[i]);
		}
	}
}

/* Read the console until qemu closes it or is silent for silence_s; then reap qemu. */
static void pump(struct boot *b, VmGuest *guest, guint silence_s)
{
	struct pollfd fds[2] = { { b->out_fd, POLLIN, 0 }, { b->err_fd, POLLIN, 0 } };
	gint64 last = g_get_monotonic_time();
	char buf[4096];

	while (fds[0].fd >= 0) {
		gint64 left_ms = (gint64)silence_s * 1000 - (g_get_monotonic_time() - last) / 1000;

		if (left_ms <= 0) {
			b->timed_out = TRUE;
			kill(b->pid, SIGKILL);
			break;
		}
		int r = poll(fds, 2, (int)MIN(left_ms, 1000));
		if (r < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2 && r > 0; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			gssize n = read(fds[i].fd, buf, sizeof buf);
			if (n <= 0) {
				fds[i].fd = -1;
				continue;
			}
			if (i == 0) {
				take_bytes(b, guest, buf, n);
				last = g_get_monotonic_time();
			} else if (b->console) {
				fwrite(buf, 1, (size_t)n, b->console); /* qemu's own messages */
			}
		}
	}
	if (b->partial->len)
		take_line(b, guest, b->partial->str);
	waitpid(b->pid, &b->status, 0);
	g_spawn_close_pid(b->pid);
}

static char *tail_text(struct boot *b)
{
	GString *s = g_string_new(NULL);

	for (GList *l = b->tail.head; l; l = l->next)
		g_string_append_printf(s, "%s%s", s->len ? " | " : "", (char *)l->data);
	return g_string_free(s, FALSE);
}

/* Why a boot that did not reach "LST end" ended, as one line. */
static void boot_failure(struct boot *b, const VmBootConfig *config, const VmGuest *guest,
			 const VmPlan *plan, const char *log, GError **error)
{
	g_autofree char *where = NULL;
	g_autofree char *tail = tail_text(b);
	/* The log when there is one, else the last lines themselves. */
	g_autofree char *see = log ? g_strdup_printf("console: %s", log)
				   : g_strdup_printf("last console lines: %s", tail);

	if (guest->started >= 0 && (guint)guest->started < plan->runs->len) {
		const VmRun *run = &g_array_index(plan->runs, VmRun, guest->started);
		where = g_strdup_printf(" during run %u (setting %s, round %u)", run->seq,
					vm_plan_setting(plan, run->setting)->id, run->round);
	} else {
		where = g_strdup(guest->begun ? " between runs" : " before the guest started");
	}
	if (b->timed_out)
		g_set_error(error, VM_BOOT_ERROR, VM_BOOT_ERROR_TIMEOUT,
			    "the VM printed nothing for %u s%s and was killed; %u of %u runs "
			    "finished; %s",
			    config->silence_s ? config->silence_s : 300, where, guest->runs->len,
			    plan->runs->len, see);
	else if (b->panicked)
		g_set_error(error, VM_BOOT_ERROR, VM_BOOT_ERROR_PANIC,
			    "the guest kernel panicked%s; %u of %u runs finished; %s", where,
			    guest->runs->len, plan->runs->len, see);
	else
		g_set_error(error, VM_BOOT_ERROR, VM_BOOT_ERROR_EXITED,
			    "qemu ended%s before the plan's end (exit status %d); %u of %u runs "
			    "finished; last console lines: %s",
			    where, WIFEXITED(b->status) ? WEXITSTATUS(b->status) : -1,
			    guest->runs->len, plan->runs->len, tail);
}

/* Boot with accel ("kvm" or "tcg") and run plan. */
static gboolean boot_once(const VmBootConfig *config, const char *accel, const VmPlan *plan,
			  guint silence_s, VmGuest **guest_out, GError **error)
{
	g_autofree char *cache = vm_boot_cache_dir(config);
	g_autofree char *vmlinuz = NULL, *initramfs = NULL;
	const char *qemu = qemu_program(config);
	g_autofree char *qemu_path = g_find_program_in_path(qemu);

	*guest_out = NULL;
	if (qemu_path == NULL)
		return setup_error(error,
				   "%s is not installed: sudo apt-get install "
				   "qemu-system-x86 (or make deps)",
				   qemu);
	if (!find_kernel(cache, &vmlinuz, &initramfs, error))
		return FALSE;

	g_autofree char *tmp = g_dir_make_tmp("linsched-vm-XXXXXX", error);
	if (tmp == NULL)
		return FALSE;
	g_autofree char *initrd = g_build_filename(tmp, "initrd", NULL);
	if (!write_initrd(initramfs, plan, initrd, error)) {
		g_rmdir(tmp);
		return FALSE;
	}
	g_autofree char *smp = g_strdup_printf("%u", config->cpus ? config->cpus : 2);
	g_autofree char *mem = g_strdup_printf("%u", config->mem_mb ? config->mem_mb : 1024);
	gboolean kvm = strcmp(accel, "kvm") == 0;
	/* Only a serial port: no NIC, VGA or option ROM to set up, so TCG boots faster. */
	const char *tcg_argv[] = { "-accel", "tcg,thread=multi" };
	const char *kvm_argv[] = { "-accel", "kvm", "-cpu", "host" };
	/* -name ...,debug-threads=on names the vCPU threads, whose steal the host measures. */
	const char *common[] = { "-name",	"linsched,debug-threads=on",
				 "-nodefaults", "-display",
				 "none",	"-monitor",
				 "none",	"-serial",
				 "stdio",	"-no-reboot",
				 "-smp",	smp,
				 "-m",		mem,
				 "-kernel",	vmlinuz,
				 "-initrd",	initrd,
				 "-append",	"console=ttyS0 panic=1 quiet loglevel=1" };
	g_autoptr(GPtrArray) args = g_ptr_array_new();
	g_ptr_array_add(args, qemu_path);
	if (kvm)
		for (guint i = 0; i < G_N_ELEMENTS(kvm_argv); i++)
			g_ptr_array_add(args, (char *)kvm_argv[i]);
	else
		for (guint i = 0; i < G_N_ELEMENTS(tcg_argv); i++)
			g_ptr_array_add(args, (char *)tcg_argv[i]);
	for (guint i = 0; i < G_N_ELEMENTS(common); i++)
		g_ptr_array_add(args, (char *)common[i]);
	g_ptr_array_add(args, NULL);
	struct boot b = { .partial = g_string_new(NULL), .steal_seq = -1 };
	g_queue_init(&b.tail);
	g_autofree char *log = NULL;

	if (config->log_dir) {
		g_autofree char *text = vm_plan_text(plan);
		g_autofree char *plan_path = g_build_filename(config->log_dir, "plan.txt", NULL);
		log = g_build_filename(config->log_dir, "console.log", NULL);
		if (g_mkdir_with_parents(config->log_dir, 0755) != 0 ||
		    !g_file_set_contents(plan_path, text, -1, NULL) ||
		    !(b.console = fopen(log, "w"))) {
			g_set_error(error, VM_BOOT_ERROR, VM_BOOT_ERROR_IO,
				    "cannot write the VM's log in %s: %s", config->log_dir,
				    g_strerror(errno));
			g_unlink(initrd);
			g_rmdir(tmp);
			g_string_free(b.partial, TRUE);
			return FALSE;
		}
	}

	gboolean spawned =
		g_spawn_async_with_pipes(NULL, (char **)args->pdata, NULL,
					 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL,
					 NULL, NULL, &b.pid, NULL, &b.out_fd, &b.err_fd, error);
	gboolean ok = FALSE;

	if (spawned) {
		VmGuest *guest = vm_guest_new();
		pump(&b, guest, silence_s);
		close(b.out_fd);
		close(b.err_fd);
		*guest_out = guest;
		ok = guest->ended;
		if (!ok)
			boot_failure(&b, config, guest, plan, log, error);
	} else if (error && *error) {
		(*error)->domain = VM_BOOT_ERROR;
		(*error)->code = VM_BOOT_ERROR_SPAWN;
	}
	if (b.console)
		fclose(b.console);
	g_queue_clear_full(&b.tail, g_free);
	g_string_free(b.partial, TRUE);
	g_unlink(initrd);
	g_rmdir(tmp);
	return ok;
}

/* "kvm" when KVM works on this host, else "tcg"; see the header. */
static const char *choose_accel(const VmBootConfig *config)
{
	const char *forced = g_getenv("LINSCHED_VM_ACCEL");
	g_autofree char *cache = vm_boot_cache_dir(config);
	g_autofree char *verdict_path = g_build_filename(cache, "accel-probe.txt", NULL);
	struct utsname u;

	if (forced && (strcmp(forced, "kvm") == 0 || strcmp(forced, "tcg") == 0))
		return forced;
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		if (!config->quiet)
			fprintf(stderr, "vm: no usable /dev/kvm: emulating with TCG\n");
		return "tcg";
	}
	close(fd);

	g_autofree char *qemu_version = NULL;
	const char *qargv[] = { qemu_program(config), "--version", NULL };
	g_spawn_sync(NULL, (char **)qargv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
		     NULL, NULL, &qemu_version, NULL, NULL, NULL);
	g_autofree char *first = g_strdup(qemu_version ? qemu_version : "");
	char *nl = strchr(first, '\n');
	if (nl)
		*nl = '\0';
	g_autofree char *key =
		g_strdup_printf("%s %s", uname(&u) == 0 ? u.release : "unknown", first);
	g_autofree char *saved = NULL;
	if (g_file_get_contents(verdict_path, &saved, NULL, NULL)) {
		g_auto(GStrv) lines = g_strsplit(saved, "\n", -1);
		for (char **l = lines; *l; l++)
			if (g_str_has_prefix(*l, key) && strlen(*l) > strlen(key) + 1)
				return g_str_has_suffix(*l, " kvm") ? "kvm" : "tcg";
	}

	/* The probe: the same kernel with an empty plan must reach "LST end". */
	VmSetting none = { (char *)"probe", KNOBS_CFS(0, 0, 0) };
	g_autoptr(VmPlan) probe = vm_plan_new(&none, 1, "true", 1, 0, NULL);
	g_array_set_size(probe->runs, 0);
	VmBootConfig quiet = *config;
	quiet.log_dir = NULL;
	VmGuest *guest = NULL;
	gboolean works = boot_once(&quiet, "kvm", probe, KVM_PROBE_S, &guest, NULL);
	vm_guest_free(guest);
	g_autofree char *line =
		g_strdup_printf("%s%s %s\n", saved ? saved : "", key, works ? "kvm" : "tcg");
	g_file_set_contents(verdict_path, line, -1, NULL);
	if (!works && !config->quiet)
		fprintf(stderr, "vm: /dev/kvm opens but a KVM guest does not boot (nested "
				"virtualisation without vmx?): emulating with TCG\n");
	return works ? "kvm" : "tcg";
}

gboolean vm_boot_run(const VmBootConfig *config, const VmPlan *plan, VmGuest **guest,
		     GError **error)
{
	const char *accel = choose_accel(config);

	return boot_once(config, accel, plan, config->silence_s ? config->silence_s : 300, guest,
			 error);
}
