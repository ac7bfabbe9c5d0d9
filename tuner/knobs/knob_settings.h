/*
 * knob_settings.h - a list of named knob settings, as `tuner calibrate --settings` takes it: a
 * list on the command line or a file.
 *
 * A list: settings separated by ',', each "defaults" or KNOB=NS[:KNOB=NS...], KNOB a knob's name
 * (with or without _ns, knobs.h) and NS whole nanoseconds in its sysctl range (24000000 or 24e6);
 * a knob not named keeps its default:
 *
 *     defaults,latency=24000000:min_granularity=1500000,wakeup_granularity=0
 *
 * Such a setting is named by the knobs it changes, each as the first word of its name and the
 * value in ms: "latency24-min1.5" (min_granularity at its default leaves no part), "wakeup0".
 *
 * A file (when the text names one), in vm/make-plan.sh's format, vm/data/settings-12.txt:
 *
 *     # id          latency_ns  min_granularity_ns  wakeup_granularity_ns  migration_cost_ns
 *     defaults        12000000     1500000             2000000             500000
 *     wake0           12000000     1500000                   0             500000
 *
 * one setting per line: an id ([A-Za-z0-9._-]+) and the values of make-plan.sh's columns in its
 * order, "-" for the default; '#' starts a comment. A column the tuner has no knob for
 * (migration_cost_ns, until it becomes one) may only hold "-" or the value the caller says the
 * experiment keeps anyway (KnobSettingsFixed): a setting that changes it could not be simulated.
 *
 * Ids must differ. Errors (G_OPTION_ERROR_BAD_VALUE) are one line naming the item or the file and
 * line.
 */
#ifndef TUNER_KNOBS_KNOB_SETTINGS_H
#define TUNER_KNOBS_KNOB_SETTINGS_H

#include <glib.h>

#include "tuner/knobs/knobs.h"

G_BEGIN_DECLS

typedef struct {
	char *id;
	Knobs knobs;
} KnobSetting;

/* A column of the file format that is not a tuner knob, and the only value it may hold. */
typedef struct {
	const char *name; /* "migration_cost" */
	guint64 value_ns;
} KnobSettingsFixed;

/*
 * The settings of text (a file's path or a list), in order; knobs not given are defaults'. fixed
 * lists n_fixed columns that are not knobs. Returns a GArray of KnobSetting (free with
 * knob_settings_free), never empty, or NULL with an error.
 */
GArray *knob_settings_parse(const char *text, const Knobs *defaults, const KnobSettingsFixed *fixed,
			    guint n_fixed, GError **error);
void knob_settings_free(GArray *settings);

/* An empty list, and a setting added to it (id copied). */
GArray *knob_settings_new(void);
void knob_settings_add(GArray *settings, const char *id, const Knobs *knobs);

/* The index of the setting whose knobs are k, or -1. */
gint knob_settings_find(const GArray *settings, const Knobs *k);

G_END_DECLS

#endif /* TUNER_KNOBS_KNOB_SETTINGS_H */
