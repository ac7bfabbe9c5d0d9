/*
 * vm_probe.c - the machine probe in the VM (see vm_probe.h).
 */
#include "tuner/vm/vm_probe.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(vm-probe-error-quark, vm_probe_error)
/* clang-format on */

static const char *const value_groups[] = { "machine", "costs", "capacity", "noise" };

VmPlan *vm_probe_plan(const VmProbeOptions *o, GError **error)
{
	g_autofree char *command = g_strdup_printf("%s --out - --trials %u%s", VM_PROBE_PROGRAM,
						   o->trials, o->quick ? " --quick" : "");
	VmSetting probe = { "probe", knobs_profile_default(sched_profile_find("6.1"), o->cpus) };

	return vm_plan_new(&probe, 1, command, o->warmups + o->probes, 0, error);
}

gboolean vm_probe_in_initramfs(const char *cache_dir, GError **error)
{
	g_autofree char *path = g_build_filename(cache_dir, "initramfs.txt", NULL);
	g_autofree char *text = NULL;
	g_autofree char *needle = g_strdup_printf("extra=/usr/local/bin/%s ", VM_PROBE_PROGRAM);

	if (g_file_get_contents(path, &text, NULL, NULL) && strstr(text, needle))
		return TRUE;
	g_set_error(error, VM_PROBE_ERROR, VM_PROBE_ERROR_SETUP,
		    "the initramfs in %s has no %s: run 'make vm'", cache_dir, VM_PROBE_PROGRAM);
	return FALSE;
}

static void value_free(gpointer data)
{
	VmProbeValue *v = data;

	g_free(v->group);
	g_free(v->key);
	g_array_free(v->values, TRUE);
	g_free(v);
}

void vm_probe_result_free(VmProbeResult *r)
{
	if (!r)
		return;
	g_free(r->kernel);
	g_free(r->preempt);
	g_free(r->costs_tail);
	g_ptr_array_free(r->values, TRUE);
	g_ptr_array_free(r->spread, TRUE);
	g_free(r);
}

static VmProbeValue *find(GPtrArray *values, const char *group, const char *key)
{
	for (guint i = 0; i < values->len; i++) {
		VmProbeValue *v = values->pdata[i];

		if (strcmp(v->group, group) == 0 && strcmp(v->key, key) == 0)
			return v;
	}
	return NULL;
}

const VmProbeValue *vm_probe_value(const VmProbeResult *r, const char *group, const char *key)
{
	return find(r->values, group, key);
}

/* Adds one probe's value of group/key to values. */
static void add(GPtrArray *values, const char *group, const char *key, double x)
{
	VmProbeValue *v = find(values, group, key);

	if (!v) {
		v = g_new0(VmProbeValue, 1);
		v->group = g_strdup(group);
		v->key = g_strdup(key);
		v->values = g_array_new(FALSE, FALSE, sizeof(double));
		g_ptr_array_add(values, v);
	}
	g_array_append_val(v->values, x);
}

/* A whole number (negative only in [spread]), as the probe writes them. */
static gboolean whole_number(const char *text, double *out)
{
	gint64 v;

	if (!g_ascii_string_to_signed(text, 10, G_MININT64, G_MAXINT64, &v, NULL))
		return FALSE;
	*out = (double)v;
	return TRUE;
}

/* Where a word of [machine] is kept (the kernel, its preemption model), NULL for a number. */
static char **machine_word(VmProbeResult *r, const char *key)
{
	return strcmp(key, "kernel") == 0    ? &r->kernel
	       : strcmp(key, "preempt") == 0 ? &r->preempt
					     : NULL;
}

/* Takes one probe's file; FALSE when it is not a machine.ini. */
static gboolean take(VmProbeResult *r, const char *text)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();

	if (!text || !g_key_file_load_from_data(kf, text, -1, G_KEY_FILE_NONE, NULL) ||
	    !g_key_file_has_group(kf, "costs"))
		return FALSE;
	for (guint g = 0; g < G_N_ELEMENTS(value_groups) + 1; g++) {
		const char *group = g < G_N_ELEMENTS(value_groups) ? value_groups[g] : "spread";
		g_auto(GStrv) keys = g_key_file_get_keys(kf, group, NULL, NULL);

		for (guint k = 0; keys && keys[k]; k++) {
			g_autofree char *value = g_key_file_get_value(kf, group, keys[k], NULL);
			/* A probe without a preemption model (an older one) says nothing of it. */
			char **word = g == 0 ? machine_word(r, keys[k]) : NULL;
			double x;

			if (word) {
				if (!*word)
					*word = g_strdup(value);
				continue;
			}
			if (!whole_number(value, &x))
				return FALSE;
			add(g < G_N_ELEMENTS(value_groups) ? r->values : r->spread, group, keys[k],
			    x);
		}
	}
	return TRUE;
}

gboolean vm_probe_rings(const VmProbeResult *r, int *sizes, double *rise, double *low, int max,
			int *n, double *hot)
{
	const VmProbeValue *h = find(r->spread, "spread", "ring_hop_ns_2");
	int k = 0;

	for (int size = 2; h && k < max && size <= 1 << 20; size *= 2) {
		g_autofree char *key = g_strdup_printf("ring_rise_ns_%d", size);
		const VmProbeValue *v = find(r->spread, "spread", key);

		if (!v)
			break;
		sizes[k] = size;
		rise[k] = v->median;
		low[k++] = v->min;
	}
	if (k < 3)
		return FALSE;
	*n = k;
	*hot = h->median;
	return TRUE;
}

void vm_probe_set_costs(VmProbeResult *r, const char *const *drop, guint n, const char *tail)
{
	for (guint k = 0; k < n; k++) {
		VmProbeValue *v = find(r->values, "costs", drop[k]);

		if (v)
			g_ptr_array_remove(r->values, v);
	}
	g_free(r->costs_tail);
	r->costs_tail = g_strdup(tail);
}

static void summarise(VmProbeValue *v)
{
	double *x = (double *)v->values->data;
	size_t n = v->values->len;

	gsl_sort(x, 1, n);
	v->median = round(gsl_stats_median_from_sorted_data(x, 1, n));
	v->min = x[0];
	v->max = x[n - 1];
}

VmProbeResult *vm_probe_combine(const char *const *outputs, guint n, GError **error)
{
	g_autoptr(VmProbeResult) r = g_new0(VmProbeResult, 1);

	r->values = g_ptr_array_new_with_free_func(value_free);
	r->spread = g_ptr_array_new_with_free_func(value_free);
	for (guint i = 0; i < n; i++) {
		/* A probe that does not parse must not leave half its values behind. */
		g_autoptr(VmProbeResult) one = g_new0(VmProbeResult, 1);

		one->values = g_ptr_array_new_with_free_func(value_free);
		one->spread = g_ptr_array_new_with_free_func(value_free);
		if (!take(one, outputs[i])) {
			r->left_out++;
			continue;
		}
		for (guint k = 0; k < one->values->len; k++) {
			VmProbeValue *v = one->values->pdata[k];

			add(r->values, v->group, v->key, g_array_index(v->values, double, 0));
		}
		for (guint k = 0; k < one->spread->len; k++) {
			VmProbeValue *v = one->spread->pdata[k];

			add(r->spread, v->group, v->key, g_array_index(v->values, double, 0));
		}
		if (!r->kernel)
			r->kernel = g_steal_pointer(&one->kernel);
		if (!r->preempt)
			r->preempt = g_steal_pointer(&one->preempt);
		r->probes++;
	}
	if (r->probes == 0) {
		g_set_error(error, VM_PROBE_ERROR, VM_PROBE_ERROR_INPUT,
			    "none of the %u probes wrote a machine.ini", n);
		return NULL;
	}
	for (guint k = 0; k < r->values->len; k++)
		summarise(r->values->pdata[k]);
	for (guint k = 0; k < r->spread->len; k++)
		summarise(r->spread->pdata[k]);
	return g_steal_pointer(&r);
}

char *vm_probe_ini(const VmProbeResult *r, const char *header)
{
	GString *out = g_string_new(NULL);
	g_auto(GStrv) lines = g_strsplit(header ? header : "", "\n", -1);

	for (guint i = 0; lines[i]; i++)
		if (*lines[i] || lines[i + 1])
			g_string_append_printf(out, "#%s%s\n", *lines[i] ? " " : "", lines[i]);
	for (guint g = 0; g < G_N_ELEMENTS(value_groups); g++) {
		gboolean any = FALSE;

		for (guint k = 0; k < r->values->len && !any; k++)
			any = strcmp(((const VmProbeValue *)r->values->pdata[k])->group,
				     value_groups[g]) == 0;
		/* [noise] only from a probe that measured it (--noise-ms 0 leaves it out). */
		if (!any && g == G_N_ELEMENTS(value_groups) - 1)
			continue;
		g_string_append_printf(out, "\n[%s]\n", value_groups[g]);
		if (g == 0 && r->kernel)
			g_string_append_printf(out, "kernel=%s\n", r->kernel);
		if (g == 0 && r->preempt)
			g_string_append_printf(out, "preempt=%s\n", r->preempt);
		for (guint k = 0; k < r->values->len; k++) {
			const VmProbeValue *v = r->values->pdata[k];

			if (strcmp(v->group, value_groups[g]) != 0)
				continue;
			/* What most probes did not find (a cache's step that noise hid or
			 * made) is not this machine's. */
			if (2 * v->values->len < r->probes)
				g_string_append_printf(out,
						       "# %s: in %u of the %u probes, left out\n",
						       v->key, v->values->len, r->probes);
			else
				g_string_append_printf(out, "%s=%.0f\n", v->key, v->median);
		}
		if (strcmp(value_groups[g], "costs") == 0 && r->costs_tail)
			g_string_append(out, r->costs_tail);
	}
	g_string_append_printf(out, "\n[spread]\nprobes=%u\n", r->probes);
	for (guint k = 0; k < r->values->len; k++) {
		const VmProbeValue *v = r->values->pdata[k];
		g_autofree char *q1 = g_strdup_printf("%s_q1", v->key);
		g_autofree char *q3 = g_strdup_printf("%s_q3", v->key);
		const VmProbeValue *s1 = find(r->spread, "spread", q1),
				   *s3 = find(r->spread, "spread", q3);

		if (strcmp(v->group, "costs") != 0)
			continue;
		g_string_append_printf(out, "%s_min=%.0f\n%s_max=%.0f\n", v->key, v->min, v->key,
				       v->max);
		if (s1 && s3)
			g_string_append_printf(out, "%s=%.0f\n%s=%.0f\n", q1, s1->median, q3,
					       s3->median);
	}
	/* The probe's other figures ([spread]'s round trip, yield), as medians. */
	for (guint k = 0; k < r->spread->len; k++) {
		const VmProbeValue *s = r->spread->pdata[k];

		if (!g_str_has_suffix(s->key, "_q1") && !g_str_has_suffix(s->key, "_q3"))
			g_string_append_printf(out, "%s=%.0f\n", s->key, s->median);
	}
	return g_string_free(out, FALSE);
}
