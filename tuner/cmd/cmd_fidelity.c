/*
 * cmd_fidelity.c - `tuner fidelity`: real plans beside their simulation, with issue 13's
 * criteria (SPEC.md §7). What the lead runs after every change to the model.
 *
 *   tuner fidelity --plans vm/data/plans.ini --profile 6.1 --cpus 2 --hz 250 \
 *       --machine machines/qemu-tcg-6.1.ini --start parent [--significance t|sign|both]
 *       [--only NAMES] [--replicates R] [--jobs J] [--out DIR] [--format text|json|csv]
 *   tuner fidelity --csv DIR/vm/runs.csv --workload 'hackbench -T -g 5 -l 100' ...
 *
 * Every setting of every plan is simulated once per replicate, all in parallel
 * (tuner/eval/plan_sim.h); the report is tuner/report/fidelity_report.h's. CSV: one row per plan
 * and setting; --out DIR also writes the per-plan criteria (plans.csv), the JSON and the text.
 *
 * Exit status: 0 (whether or not the criteria are met: the report says), 2 for bad input (a flag,
 * a plans file or CSV that does not read), 1 when a simulation fails or a file cannot be written.
 */
#include <stdio.h>

#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/cmd/fidelity_cmd.h"

int tuner_cmd_fidelity(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new(
		"- real plans beside their simulation, with the fidelity criteria");
	FidelityCli c;
	FidelitySetup s = { 0 };
	SimSetting **sims = NULL;
	GError *error = NULL;
	int status = 0;

	fidelity_cli_init(&c);
	fidelity_cli_add_options(&c, ctx);
	if (!cmd_parse(ctx, &argc, &argv, &error) || !fidelity_cli_finish(&c, &s, &error)) {
		status = cmd_fail_status("fidelity", error);
	} else {
		EvaluatorConfig config = { .replicates = 1, .jobs = s.jobs };
		Evaluator *ev = evaluator_new(&config);
		gboolean ok = fidelity_simulate(&c, &s, ev, NULL, &sims, &error);

		evaluator_free(ev);
		if (ok) {
			FidelityReport r = { s.set, sims, s.sig, s.simulation };
			g_autofree char *text =
				s.format == FIDELITY_OUT_JSON  ? fidelity_report_json(&r)
				: s.format == FIDELITY_OUT_CSV ? fidelity_report_csv(&r)
							       : fidelity_report_text(&r);

			ok = !c.out || fidelity_write_files(c.out, &r, &error);
			if (ok)
				fputs(text, stdout);
		}
		if (!ok)
			status = cmd_fail_status("fidelity", error);
	}
	if (sims)
		plan_sim_free(sims, s.set->plans->len);
	g_clear_error(&error);
	fidelity_setup_clear(&s);
	fidelity_cli_clear(&c);
	return status;
}
