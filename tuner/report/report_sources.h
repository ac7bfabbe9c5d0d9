/*
 * report_sources.h - what `tuner report` draws from each kind of result (SPEC.md §6). Each
 * function reads one input, adds a section to the report with its numbers and figures, and
 * returns FALSE with REPORT_ERROR_INPUT naming the file (and line) when an input is missing or
 * malformed, or REPORT_ERROR_FAILED when drawing fails.
 *
 * Figure stems (OUT/STEM.png, .svg) start with `prefix`, which the command makes distinct for
 * each input directory ("" for a single one). A figure's data file is STEM.dat, except that the
 * residual plots share PREFIX-residuals.dat (and the normal plot has its own), and a surface and
 * its contour map share PREFIX-rsm-surface-A-B.dat.
 *
 *   calibration  DIR/calibration.csv and DIR/calibration.ini (`tuner calibrate`):
 *                calibration: real ms vs simulated jiffies, each run, the means with their sd, the
 *                line a + b x and R²; the residual plots of report_residuals.h (residuals in ms,
 *                the second against the group count, dashed at ±2 RSE); and, when the directory
 *                has calibration_runs.csv, calibration-drift: each run's time over its group
 *                count's mean against when it ran, the machine's drift.
 *   convergence  DIR/history.csv and DIR/result.json of several runs of `tuner pso|golden|grid|
 *                random`: the best value so far against evaluations (log scale), every run on one
 *                plot, each with its evaluations as faint points and its default knobs' value
 *                dashed.
 *   rsm          DIR/design.csv, surface.csv, result.json and, when present, boxcox.csv
 *                (`tuner rsm`, `tuner meta-pso`): for each pair of factors the predicted response
 *                as a 3-D surface and as a contour map, the other factor at the constrained
 *                optimum, which is marked; the residual plots of the quadratic model refitted to
 *                design.csv (internally studentized residuals of the modelled response, which is
 *                y^lambda after a Box-Cox transform); the Box-Cox profile log-likelihood with its
 *                95% interval.
 *   scale        DIR/scale.csv and DIR/scale.json (`tuner scale`): default and tuned turnaround
 *                against hackbench groups, with the improvement in percent.
 *   validate     DIR/validate.csv and DIR/validate.json (`tuner validate`): the benchmark's time
 *                of the defaults and the tuned knobs round by round, and the real improvement
 *                with its 95 % interval beside the one the simulator predicted.
 *   gantt        an ftrace sched_switch text trace (`linsched ... --trace FILE`): which task ran on
 *                each CPU during the first window_ms milliseconds, one colour per hackbench group
 *                (or per task name without its number).
 */
#ifndef TUNER_REPORT_SOURCES_H
#define TUNER_REPORT_SOURCES_H

#include "tuner/report/report.h"

G_BEGIN_DECLS

gboolean report_calibration(Report *r, const char *dir, const char *prefix, GError **error);
gboolean report_convergence(Report *r, const char *const *dirs, guint n_dirs, const char *prefix,
			    GError **error);
gboolean report_rsm(Report *r, const char *dir, const char *prefix, GError **error);
gboolean report_scale(Report *r, const char *dir, const char *prefix, GError **error);
gboolean report_validate(Report *r, const char *dir, const char *prefix, GError **error);
gboolean report_gantt(Report *r, const char *trace, guint window_ms, const char *prefix,
		      GError **error);

G_END_DECLS

#endif /* TUNER_REPORT_SOURCES_H */
