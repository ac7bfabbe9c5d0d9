/*
 * flags.h - command-line flags that know whether they were given, and numbers checked as they
 * are parsed; shared by both programs.
 *
 * GLib's option parser stores a value where an entry points and forgets whether it saw the flag,
 * so "not given" used to be a value nobody was expected to type (-1), which a user can type. A
 * struct flag_set stands between the parser and the values of one command-line struct: the
 * entries of a group made with flag_group_new() and filled with flag_group_add() all go through
 * it, so that
 * - flag_given() tells whether a flag was on the command line, whatever its value, and a value
 *   that was not given is the command's default, never a code;
 * - every number flag (G_OPTION_ARG_INT64, G_OPTION_ARG_DOUBLE) has limits declared beside its
 *   entry (a flag without them is a programming error, caught when the group is built), and is
 *   refused as it is parsed when it is not a decimal integer, not a finite number (nan, inf) or
 *   outside its limits: "--cpus: must be in 1..64, got -1";
 * - an empty file name (G_OPTION_ARG_FILENAME) is refused: "--out: an empty file name";
 * - a flag that holds one value and is given twice is refused: "--cpus: given twice";
 *   repeatable flags (the _ARRAY kinds) collect every value, as GLib's own do;
 * - a G_OPTION_ARG_CALLBACK entry's callback gets the flag set as its data (the command finds
 *   its own struct around it).
 * Errors are G_OPTION_ERROR_BAD_VALUE, which both programs report as bad input (exit status 2).
 * Conflicts between flags are the commands' to refuse; flag_name() and flag_first_given() give
 * the names their messages need.
 *
 * String and array targets must start NULL (the flag's value is then owned by the command's
 * struct, freed by its clear function); G_OPTION_REMAINING entries pass through untouched. A
 * value set in the struct by a program, not through the parser, is not given and so not used:
 * a program that builds a command's struct parses flags too (workload_cli_parse).
 */
#ifndef LINSCHED_CLI_FLAGS_H
#define LINSCHED_CLI_FLAGS_H

#include <stdbool.h>

#include <glib.h>

/* The flags of one command-line struct (which embeds it). */
struct flag_set {
	GPtrArray *flags; /* struct flag * (flags.c), one per entry added */
};

/* Which bounds of a real flag's interval are outside it. */
enum flag_open {
	FLAG_CLOSED = 0,
	FLAG_OPEN_LO = 1, /* lo itself is outside */
	FLAG_OPEN_HI = 2, /* hi itself is outside */
};

/* The bounds of a number flag, found by value: its entry's arg_data. */
struct flag_limits {
	gconstpointer value;
	bool real;	 /* a double (lo, hi, open); else a gint64 (min, max) */
	gint64 min, max; /* inclusive */
	double lo, hi;	 /* finite */
	enum flag_open open;
};

/* The conditional expression makes the compiler check that ptr points to the right type. */
#define FLAG_INT(ptr, min_, max_)                                                       \
	{                                                                               \
		.value = 1 ? (ptr) : (const gint64 *)NULL, .min = (min_), .max = (max_) \
	}
#define FLAG_REAL(ptr, lo_, hi_, open_)                                                            \
	{                                                                                          \
		.value = 1 ? (ptr) : (const double *)NULL, .real = true, .lo = (lo_), .hi = (hi_), \
		.open = (open_)                                                                    \
	}

void flag_set_init(struct flag_set *set);
void flag_set_clear(struct flag_set *set);

/* A group whose entries go through set (g_option_group_new's arguments otherwise). */
GOptionGroup *flag_group_new(struct flag_set *set, const char *name, const char *description,
			     const char *help_description);

/* Adds entries (up to the NULL entry) to group, which flag_group_new made for set; every number
 * entry must have its limits among the n_limits (others may be there too, unused). */
void flag_group_add(struct flag_set *set, GOptionGroup *group, const GOptionEntry *entries,
		    const struct flag_limits *limits, gsize n_limits);

/* The main group of ctx, made of entries (as g_option_context_add_main_entries) through set. */
void flag_add_main_entries(struct flag_set *set, GOptionContext *ctx, const GOptionEntry *entries,
			   const struct flag_limits *limits, gsize n_limits);

/* Whether the flag whose entry points at value was on the command line (under its own name or
 * GLib's group-prefixed one, "--sim-seed"). A value no entry of set points at was not: the
 * command does not have that flag, or no group was built for set. */
bool flag_given(const struct flag_set *set, gconstpointer value);

/* "--name" of the flag whose entry points at value (one of set's: a programming error
 * otherwise). */
const char *flag_name(const struct flag_set *set, gconstpointer value);

/* The name of the first of the NULL-terminated values whose flag was given, or NULL. */
const char *flag_first_given(const struct flag_set *set, ...) G_GNUC_NULL_TERMINATED;

/* The name of the first flag of set that was given, in the order they were added, leaving out
 * the one that stores at except (may be NULL), or NULL. */
const char *flag_any_given(const struct flag_set *set, gconstpointer except);

/*
 * Appends to out a token for every value of every flag of set that was given, in the order the
 * flags were added: " name=value" (the long name without "--", the value as it was typed,
 * URI-escaped so that it holds no space or '='), " name" for a switch, one token for each value
 * of a repeated flag; the flags whose long names skip lists (NULL-terminated, may be NULL) left
 * out. For keying saved results by the flags that made them (a journal's settings): a flag added
 * to a group later is in the description without a table to keep up. Values are compared as
 * typed, so "0.2" and "0.20" differ: the description errs on the side of being too strict.
 */
void flag_set_describe(const struct flag_set *set, const char *const *skip, GString *out);

#endif
