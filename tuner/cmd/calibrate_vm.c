/*
 * calibrate_vm.c - the real runs of a calibration from the VM, over knob settings and group
 * counts (see calibrate_vm.h).
 */
#include "tuner/cmd/calibrate_vm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tuner/cmd/cmd_common.h"
#include "tuner/stats/paired.h"

/* Real and simulated agree when neither is more than this times the other (as for the host). */
#define AGREE 1.5

void calibrate_vm_clear(CalibrateVm *cv)
{
	vm_measurement_clear(&cv->m);
	g_clear_pointer(&cv->sim, g_free);
	g_clear_pointer(&cv->sim_switches, g_free);
}

static const KnobSetting *setting_at(const CalibrateVm *cv, guint s)
{
	return &g_array_index(cv->settings, KnobSetting, s);
}

static guint groups_at(const CalibrateVm *cv, guint g)
{
	return g_array_index(cv->groups, guint, g);
}

gboolean calibrate_vm_measure(CalibrateVm *cv, VmObjective *vm, const char *const *commands,
			      GError **error)
{
	guint n = cv->settings->len, ng = cv->groups->len;
	g_autofree VmSetting *s = g_new(VmSetting, n);

	for (guint i = 0; i < n; i++)
		s[i] = (VmSetting){ setting_at(cv, i)->id, setting_at(cv, i)->knobs };
	if (!vm_objective_measure_grid(vm, s, n, commands, ng, &cv->m, error))
		return FALSE;
	for (guint i = 0; i < n; i++)
		for (guint g = 0; g < ng; g++)
			for (guint r = 0; r < cv->m.rounds; r++)
				if (isnan(cv->m.seconds[vm_measurement_index(&cv->m, i, g, r)])) {
					g_set_error(
						error, CMD_ERROR, CMD_ERROR_FAILED,
						"the VM gave no time for setting %s at %u groups in "
						"round %u (the run failed in the guest, or its knobs "
						"did not read back): see the console log under %s",
						s[i].id, groups_at(cv, g), r,
						vm->log_root ? vm->log_root : "--out");
					return FALSE;
				}
	return TRUE;
}

/* Setting s at group count g in every round: times in ms, switches (NaN when not counted). */
static void point_runs(const CalibrateVm *cv, guint s, guint g, double *ms, double *switches)
{
	for (guint r = 0; r < cv->m.rounds; r++) {
		gsize at = vm_measurement_index(&cv->m, s, g, r);

		ms[r] = cv->m.seconds[at] * 1e3;
		switches[r] = cv->m.ctxt[at] >= 0 ? (double)cv->m.ctxt[at] : NAN;
	}
}

/* The finite values of v[0..n) moved to its front; how many. */
static guint finite_only(double *v, guint n)
{
	guint k = 0;

	for (guint i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	return k;
}

/* How point (s, g) compares with the defaults at g: real in the same rounds, and simulated. */
static void compare_with_defaults(const CalibrateVm *cv, guint s, guint g, CalibrationPoint *p)
{
	guint R = cv->m.rounds, ng = cv->groups->len;
	g_autofree double *ms = g_new(double, R), *sw = g_new(double, R);
	g_autofree double *ref_ms = g_new(double, R), *ref_sw = g_new(double, R);
	PairedStats t, x;

	point_runs(cv, s, g, ms, sw);
	point_runs(cv, 0, g, ref_ms, ref_sw);
	if (paired_log_ratio(ms, ref_ms, R, 0.95, &t)) {
		p->real_x_defaults = t.ratio;
		p->real_x_defaults_lo = t.ratio_lo;
		p->real_x_defaults_hi = t.ratio_hi;
	}
	if (paired_log_ratio(sw, ref_sw, R, 0.95, &x))
		p->real_switches_x_defaults = x.ratio;
	p->sim_x_defaults = cv->sim[s * ng + g] / cv->sim[g];
	p->sim_switches_x_defaults = cv->sim_switches[s * ng + g] / cv->sim_switches[g];
}

/* The runs in the order the guest ran them; start_s adds up the guest's wall time before each. */
static void add_runs(const CalibrateVm *cv, Calibration *cal)
{
	guint ng = cv->groups->len, R = cv->m.rounds, cells = cv->settings->len * ng * R;
	g_autofree guint *by_seq = g_new(guint, cells);
	double start = 0;

	for (guint s = 0; s < cv->settings->len; s++)
		for (guint g = 0; g < ng; g++)
			for (guint r = 0; r < R; r++) {
				gsize at = vm_measurement_index(&cv->m, s, g, r);

				by_seq[cv->m.seq[at]] = (guint)at;
			}
	for (guint k = 0; k < cells; k++) {
		guint at = by_seq[k], r = at % R, g = (at / R) % ng, s = at / R / ng;
		CalibrationRun run = {
			.seq = k,
			.round = r,
			.groups = groups_at(cv, g),
			.ms = cv->m.seconds[at] * 1e3,
			.start_s = start,
			.switches = cv->m.ctxt[at] >= 0 ? (double)cv->m.ctxt[at] : NAN,
			.setting = s,
		};

		calibration_add_run(cal, &run);
		if (isfinite(cv->m.wall_s[at]))
			start += cv->m.wall_s[at];
	}
}

void calibrate_vm_points(const CalibrateVm *cv, Calibration *cal)
{
	guint ng = cv->groups->len, R = cv->m.rounds;
	g_autofree double *ms = g_new(double, R), *sw = g_new(double, R);

	for (guint s = 0; s < cv->settings->len; s++)
		calibration_add_setting(cal, setting_at(cv, s)->id);
	for (guint s = 0; s < cv->settings->len; s++)
		for (guint g = 0; g < ng; g++) {
			point_runs(cv, s, g, ms, sw);
			calibration_add_point(cal, groups_at(cv, g), cv->sim[s * ng + g], ms, R);

			guint i = cal->points->len - 1, counted = finite_only(sw, R);
			CalibrationPoint *p = &g_array_index(cal->points, CalibrationPoint, i);

			if (counted)
				calibration_set_switches(cal, i, cv->sim_switches[s * ng + g], sw,
							 counted);
			p->setting = s;
			compare_with_defaults(cv, s, g, p);
		}
	add_runs(cv, cal);
}

static gboolean agree(double a, double b)
{
	return a <= AGREE * b && b <= AGREE * a;
}

static const char *setting_id(const Calibration *cal, const CalibrationPoint *p)
{
	return g_ptr_array_index(cal->settings, p->setting);
}

/* The width of the setting column: its title or the longest id. */
static int id_width(const Calibration *cal)
{
	gsize width = strlen("setting");

	for (guint i = 0; i < cal->settings->len; i++)
		width = MAX(width, strlen(g_ptr_array_index(cal->settings, i)));
	return (int)width;
}

void calibrate_vm_print_points(const Calibration *cal)
{
	guint n = cal->points->len, others = 0, inside = 0;
	int w = id_width(cal);

	printf("\n  %-*s %6s %12s %10s %9s %10s %10s  %-26s %8s\n", w, "setting", "groups",
	       "sim jiffies", "real ms", "sd", "predicted", "residual", "real x defaults [95% CI]",
	       "sim x def");
	for (guint i = 0; i < n; i++) {
		const CalibrationPoint *p = &g_array_index(cal->points, CalibrationPoint, i);
		g_autofree char *real =
			g_strdup_printf("%.3f [%.3f, %.3f]", p->real_x_defaults,
					p->real_x_defaults_lo, p->real_x_defaults_hi);
		gboolean is_ref = p->setting == 0;

		if (!is_ref) {
			others++;
			inside += p->sim_x_defaults >= p->real_x_defaults_lo &&
				  p->sim_x_defaults <= p->real_x_defaults_hi;
		}
		printf("  %-*s %6u %12.2f %10.1f %9.1f %10.1f %10.1f  %-26s %8.3f\n", w,
		       setting_id(cal, p), p->groups, p->sim_jiffies, p->real_mean_ms,
		       p->real_sd_ms, p->predicted_ms, p->residual_ms,
		       is_ref ? "1 (the reference)" : real, p->sim_x_defaults);
	}
	if (others)
		printf("\n  the simulated ratio to the defaults lies in the real one's 95%% interval at "
		       "%u of %u points\n",
		       inside, others);
}

void calibrate_vm_print_switches(const Calibration *cal)
{
	guint n = cal->points->len, others = 0, ratio_agree = 0, level_agree = 0;
	int w = id_width(cal);

	printf("\nContext switches per run (real: the guest's /proc/stat ctxt, both CPUs, idle "
	       "switches too, median of the rounds;\nsimulated: the CPUs' switches, idle ones too, "
	       "from the start barrier on; x defaults: against the defaults at the same group count)\n\n");
	printf("  %-*s %6s %12s %12s %9s %12s %10s\n", w, "setting", "groups", "real", "simulated",
	       "real/sim", "real x def", "sim x def");
	for (guint i = 0; i < n; i++) {
		const CalibrationPoint *p = &g_array_index(cal->points, CalibrationPoint, i);
		double ratio = p->real_switches / p->sim_switches;

		level_agree += agree(p->real_switches, p->sim_switches);
		others += p->setting != 0;
		if (p->setting != 0)
			ratio_agree +=
				agree(p->real_switches_x_defaults, p->sim_switches_x_defaults);
		printf("  %-*s %6u %12.0f %12.0f %9.3f %12.3f %10.3f%s\n", w, setting_id(cal, p),
		       p->groups, p->real_switches, p->sim_switches, ratio,
		       p->real_switches_x_defaults, p->sim_switches_x_defaults,
		       agree(p->real_switches, p->sim_switches) ? "" : "  *");
	}
	printf("\n  counts within %.1fx at %u of %u points (* outside)", AGREE, level_agree, n);
	if (others)
		printf("; ratios to the defaults within %.1fx at %u of %u", AGREE, ratio_agree,
		       others);
	printf("\n");
}

gboolean calibrate_vm_write_settings(const CalibrateVm *cv, const char *dir, GError **error)
{
	GString *csv = g_string_new("setting");
	g_autofree char *path = g_build_filename(dir, "settings.csv", NULL);

	for (int k = 0; k < KNOB_CFS_COUNT; k++)
		g_string_append_printf(csv, ",%s", knob_info((enum knob)k)->column);
	g_string_append_c(csv, '\n');
	for (guint s = 0; s < cv->settings->len; s++) {
		g_string_append(csv, setting_at(cv, s)->id);
		for (int k = 0; k < KNOB_CFS_COUNT; k++)
			g_string_append_printf(csv, ",%.0f",
					       knob_get(&setting_at(cv, s)->knobs, (enum knob)k));
		g_string_append_c(csv, '\n');
	}

	GError *local = NULL;
	gboolean ok = g_file_set_contents(path, csv->str, (gssize)csv->len, &local);

	g_string_free(csv, TRUE);
	return ok || cmd_relabel(error, CMD_ERROR_FAILED, local, "");
}
