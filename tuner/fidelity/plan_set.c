/*
 * plan_set.c - the real plans of a fidelity report or a fit (see plan_set.h).
 */
#include "tuner/fidelity/plan_set.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(plan-set-error-quark, plan_set_error)
/* clang-format on */

static const char *const known_keys[] = { "csv",	  "workload",	  "role",    "order",
					  "reference",	  "stall_cv_pct", "host_hz", "host_lead_ns",
					  "parent_flips", "preempt",	  NULL };

const char *plan_role_name(PlanRole role)
{
	return role == PLAN_ROLE_TRAIN ? "train" : "test";
}

static void plan_spec_free(gpointer data)
{
	PlanSpec *p = data;

	g_free(p->name);
	g_free(p->csv);
	g_free(p->workload);
	g_free(p->preempt);
	real_plan_free(p->real);
	g_free(p);
}

PlanSet *plan_set_new(void)
{
	PlanSet *set = g_new0(PlanSet, 1);

	set->plans = g_ptr_array_new_with_free_func(plan_spec_free);
	return set;
}

void plan_set_free(PlanSet *set)
{
	if (!set)
		return;
	g_ptr_array_free(set->plans, TRUE);
	g_free(set->path);
	g_free(set);
}

guint plan_set_count(const PlanSet *set, PlanRole role)
{
	guint n = 0;

	for (guint i = 0; i < set->plans->len; i++)
		n += plan_set_plan(set, i)->role == role;
	return n;
}

/* ---- hackbench's command line ------------------------------------------------------------------ */

static gboolean command_error(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean command_error(GError **error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(error, PLAN_SET_ERROR, PLAN_SET_ERROR_INPUT, msg);
	return FALSE;
}

/* The options that take a number, short and long, and where the number goes. */
static guint *number_option(HackbenchCommand *c, char opt)
{
	switch (opt) {
	case 'g':
		return &c->groups;
	case 'l':
		return &c->loops;
	case 'f':
		return &c->fds;
	case 's':
		return &c->datasize;
	default:
		return NULL;
	}
}

static char long_to_short(const char *name)
{
	static const struct {
		const char *name;
		char opt;
	} longs[] = { { "groups", 'g' }, { "loops", 'l' },   { "fds", 'f' },	{ "datasize", 's' },
		      { "pipe", 'p' },	 { "threads", 'T' }, { "process", 'P' } };

	for (size_t i = 0; i < G_N_ELEMENTS(longs); i++)
		if (strcmp(name, longs[i].name) == 0)
			return longs[i].opt;
	return 0;
}

static gboolean set_number(guint *slot, char opt, const char *value, GError **error)
{
	guint64 v;

	if (!value)
		return command_error(error, "-%c needs a number", opt);
	if (!g_ascii_string_to_unsigned(value, 10, opt == 's' ? 0 : 1, 1000000000, &v, NULL))
		return command_error(error, "-%c: '%s' is not a whole number%s", opt, value,
				     opt == 's' ? "" : " above 0");
	*slot = (guint)v;
	return TRUE;
}

/* One option opt with its value (NULL if none came); *used says whether it took the value. */
static gboolean apply_option(HackbenchCommand *c, char opt, const char *value, gboolean *used,
			     GError **error)
{
	guint *slot = number_option(c, opt);

	*used = FALSE;
	if (slot) {
		*used = TRUE;
		return set_number(slot, opt, value, error);
	}
	switch (opt) {
	case 'p':
		c->pipe = TRUE;
		return TRUE;
	case 'T':
		c->threads = TRUE;
		return TRUE;
	case 'P':
		c->threads = FALSE;
		return TRUE;
	default:
		return command_error(error,
				     "-%c is not an option of hackbench the simulator models", opt);
	}
}

gboolean hackbench_command_parse(const char *command, HackbenchCommand *out, GError **error)
{
	g_auto(GStrv) argv = NULL;
	int argc = 0;
	HackbenchCommand c = { 10, 100, 20, 100, FALSE, FALSE };
	g_autoptr(GError) local = NULL;

	if (!g_shell_parse_argv(command, &argc, &argv, &local))
		return command_error(error, "'%s': %s", command, local->message);
	g_autofree char *base = g_path_get_basename(argv[0]);

	if (strcmp(base, "hackbench") != 0)
		return command_error(error, "'%s' is not hackbench", argv[0]);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		gboolean used;

		if (g_str_has_prefix(a, "--")) {
			g_auto(GStrv) kv = g_strsplit(a + 2, "=", 2);
			/* "--" alone splits into nothing. */
			char opt = kv[0] ? long_to_short(kv[0]) : 0;

			if (!opt)
				return command_error(
					error,
					"%s is not an option of hackbench the simulator models", a);
			const char *value = kv[1] ? kv[1] : (i + 1 < argc ? argv[i + 1] : NULL);

			if (!apply_option(&c, opt, value, &used, error))
				return FALSE;
			if (used && !kv[1])
				i++;
			if (!used && kv[1])
				return command_error(error, "%s takes no value", a);
			continue;
		}
		if (a[0] != '-' || !a[1])
			return command_error(error, "'%s' is not an option", a);
		for (const char *p = a + 1; *p; p++) {
			const char *value = p[1] ? p + 1 : (i + 1 < argc ? argv[i + 1] : NULL);

			if (!apply_option(&c, *p, value, &used, error))
				return FALSE;
			if (used) {
				if (!p[1])
					i++;
				break;
			}
		}
	}
	*out = c;
	return TRUE;
}

/* ---- the key file ---------------------------------------------------------------------------- */

/* The setting names of a settings file: each line's first word, comments and blanks left out. */
static char **read_order(const char *path, GError **error)
{
	g_autofree char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, error))
		return NULL;
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GPtrArray *names = g_ptr_array_new();

	for (guint i = 0; lines[i]; i++) {
		g_auto(GStrv) words = g_strsplit_set(g_strstrip(lines[i]), " \t", 2);

		if (words[0] && *words[0] && words[0][0] != '#')
			g_ptr_array_add(names, g_strdup(words[0]));
	}
	g_ptr_array_add(names, NULL);
	return (char **)g_ptr_array_free(names, FALSE);
}

static gboolean add_plan(PlanSet *set, const char *name, const char *csv, const char *workload,
			 PlanRole role, const char *reference, const char *const *order,
			 double stall_cv_pct, GError **error)
{
	PlanSpec *p = g_new0(PlanSpec, 1);

	p->name = g_strdup(name);
	p->csv = g_strdup(csv);
	p->workload = g_strdup(workload);
	p->role = role;
	p->stall_cv_pct = stall_cv_pct;
	p->parent_flips = -1;
	g_ptr_array_add(set->plans, p);
	if (!hackbench_command_parse(workload, &p->hb, error))
		return FALSE;
	p->real = real_plan_read(csv, reference, order, error);
	return p->real != NULL;
}

gboolean plan_set_add(PlanSet *set, const char *name, const char *csv, const char *workload,
		      PlanRole role, const char *reference, GError **error)
{
	return add_plan(set, name, csv, workload, role, reference, NULL, NAN, error);
}

/* A path of the key file: relative ones are relative to the key file's directory. */
static char *resolve(const char *dir, const char *path)
{
	return g_path_is_absolute(path) ? g_strdup(path) : g_build_filename(dir, path, NULL);
}

static gboolean read_group(PlanSet *set, GKeyFile *kf, const char *group, const char *dir,
			   GError **error)
{
	g_auto(GStrv) keys = g_key_file_get_keys(kf, group, NULL, NULL);
	g_autofree char *csv = g_key_file_get_string(kf, group, "csv", NULL);
	g_autofree char *workload = g_key_file_get_string(kf, group, "workload", NULL);
	g_autofree char *role = g_key_file_get_string(kf, group, "role", NULL);
	g_autofree char *order_file = g_key_file_get_string(kf, group, "order", NULL);
	g_autofree char *reference = g_key_file_get_string(kf, group, "reference", NULL);
	g_autofree char *stall_cv = g_key_file_get_string(kf, group, "stall_cv_pct", NULL);
	g_auto(GStrv) order = NULL;
	guint64 cv_pct = 0;
	PlanRole r = PLAN_ROLE_TEST;
	GError *local = NULL;

	for (guint i = 0; keys && keys[i]; i++)
		if (!g_strv_contains(known_keys, keys[i]))
			return command_error(error,
					     "[%s] %s: unknown key (csv, workload, role, order, "
					     "reference, stall_cv_pct, host_hz, host_lead_ns, "
					     "parent_flips, preempt)",
					     group, keys[i]);
	if (stall_cv && !g_ascii_string_to_unsigned(stall_cv, 10, 1, 1000, &cv_pct, NULL))
		return command_error(error,
				     "[%s] stall_cv_pct: '%s' is not a whole number of per cent in "
				     "1..1000",
				     group, stall_cv);
	g_autofree char *host_hz = g_key_file_get_string(kf, group, "host_hz", NULL);
	g_autofree char *host_lead = g_key_file_get_string(kf, group, "host_lead_ns", NULL);
	guint64 hz = 0, lead = 0;

	/* The HZ a kernel can be built with (the simulation's own check is a layer out of reach). */
	if (host_hz && (!g_ascii_string_to_unsigned(host_hz, 10, 1, 1000, &hz, NULL) ||
			!(hz == 100 || hz == 250 || hz == 300 || hz == 1000)))
		return command_error(error, "[%s] host_hz: '%s' is not one of 100, 250, 300, 1000",
				     group, host_hz);
	if (host_lead && !host_hz)
		return command_error(
			error, "[%s] host_lead_ns: places the host's ticks; give host_hz", group);
	if (host_lead && (!g_ascii_string_to_unsigned(host_lead, 10, 0, G_MAXUINT64, &lead, NULL) ||
			  lead >= 1000000000ULL / hz))
		return command_error(
			error,
			"[%s] host_lead_ns: '%s' is not a whole number of ns below the "
			"host's tick",
			group, host_lead);
	g_autofree char *parent_flips = g_key_file_get_string(kf, group, "parent_flips", NULL);
	guint64 flips = 0;

	if (parent_flips && !g_ascii_string_to_unsigned(parent_flips, 10, 0, 1000, &flips, NULL))
		return command_error(error,
				     "[%s] parent_flips: '%s' is not a whole number in 0..1000",
				     group, parent_flips);
	g_autofree char *preempt = g_key_file_get_string(kf, group, "preempt", NULL);

	/* The models of machine.h (the simulation's parser is a layer out of reach). */
	if (preempt &&
	    !g_strv_contains((const char *const[]){ "full", "voluntary", "none", NULL }, preempt))
		return command_error(error,
				     "[%s] preempt: '%s' is not one of full, voluntary, none",
				     group, preempt);
	if (!csv || !*csv)
		return command_error(error, "[%s] csv: missing", group);
	if (!workload || !*workload)
		return command_error(error, "[%s] workload: missing", group);
	if (role && strcmp(role, "train") == 0)
		r = PLAN_ROLE_TRAIN;
	else if (role && strcmp(role, "test") != 0)
		return command_error(error, "[%s] role: '%s' is not train or test", group, role);
	if (order_file) {
		g_autofree char *path = resolve(dir, order_file);

		if (!(order = read_order(path, &local))) {
			command_error(error, "[%s] order: %s", group, local->message);
			g_error_free(local);
			return FALSE;
		}
	}
	g_autofree char *csv_path = resolve(dir, csv);

	gboolean added =
		add_plan(set, group, csv_path, workload, r, reference, (const char *const *)order,
			 stall_cv ? (double)cv_pct : NAN, &local);
	PlanSpec *spec = g_ptr_array_index(set->plans, set->plans->len - 1);

	spec->host_hz = (unsigned int)hz;
	spec->host_lead_ns = lead;
	spec->parent_flips = parent_flips ? (int)flips : -1;
	spec->preempt = g_steal_pointer(&preempt);
	if (!added) {
		/* The CSV's errors name their file already; the workload's need the key. */
		if (local->domain == PLAN_SET_ERROR)
			command_error(error, "[%s] workload: %s", group, local->message);
		else
			g_propagate_error(error, g_steal_pointer(&local));
		g_clear_error(&local);
		return FALSE;
	}
	return TRUE;
}

PlanSet *plan_set_read(const char *path, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(PlanSet) set = plan_set_new();
	g_autoptr(GError) local = NULL;
	g_autofree char *dir = g_path_get_dirname(path);

	set->path = g_strdup(path);
	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &local)) {
		g_set_error(error, PLAN_SET_ERROR,
			    local->domain == G_FILE_ERROR ? PLAN_SET_ERROR_IO
							  : PLAN_SET_ERROR_INPUT,
			    "%s: %s", path, local->message);
		return NULL;
	}
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);

	if (!groups[0]) {
		g_set_error(error, PLAN_SET_ERROR, PLAN_SET_ERROR_INPUT, "%s: no [plan] group",
			    path);
		return NULL;
	}
	for (guint i = 0; groups[i]; i++) {
		if (read_group(set, kf, groups[i], dir, &local))
			continue;
		/* A CSV's errors name their file; the key file's need its name. */
		if (local->domain == PLAN_SET_ERROR)
			g_set_error(error, PLAN_SET_ERROR, local->code, "%s: %s", path,
				    local->message);
		else
			g_propagate_error(error, g_steal_pointer(&local));
		return NULL;
	}
	return g_steal_pointer(&set);
}
