/*
 * vm_guest.c - the parser of the guest protocol's console lines (see vm_guest.h).
 */
#include "tuner/vm/vm_guest.h"

#include <math.h>
#include <string.h>

static void run_clear(gpointer p)
{
	VmGuestRun *run = p;

	g_free(run->setting);
	g_free(run->output);
}

static void string_free(gpointer p)
{
	g_string_free(p, TRUE);
}

VmGuest *vm_guest_new(void)
{
	VmGuest *guest = g_new0(VmGuest, 1);

	guest->runs = g_array_new(FALSE, TRUE, sizeof(VmGuestRun));
	g_array_set_clear_func(guest->runs, run_clear);
	guest->started = -1;
	guest->traces = g_hash_table_new_full(NULL, NULL, NULL, string_free);
	guest->outputs = g_hash_table_new_full(NULL, NULL, NULL, string_free);
	guest->steal = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	return guest;
}

void vm_guest_free(VmGuest *guest)
{
	if (guest == NULL)
		return;
	g_free(guest->kernel);
	g_array_free(guest->runs, TRUE);
	g_hash_table_destroy(guest->traces);
	g_hash_table_destroy(guest->outputs);
	g_hash_table_destroy(guest->steal);
	g_free(guest);
}

/* The value of key in the key=value tokens, or NULL. */
static const char *field(char *const *tokens, const char *key)
{
	size_t len = strlen(key);

	for (; *tokens; tokens++)
		if (strncmp(*tokens, key, len) == 0 && (*tokens)[len] == '=')
			return *tokens + len + 1;
	return NULL;
}

static gboolean parse_u64(const char *text, guint64 *out)
{
	return text && g_ascii_string_to_unsigned(text, 10, 0, G_MAXUINT64, out, NULL);
}

static gboolean parse_uint(char *const *tokens, const char *key, guint *out)
{
	guint64 v;

	if (!parse_u64(field(tokens, key), &v) || v > G_MAXUINT)
		return FALSE;
	*out = (guint)v;
	return TRUE;
}

/* A number, or NaN for the protocol's "-" (not measured). FALSE when neither. */
static gboolean parse_measure(const char *text, double *out)
{
	char *end;

	if (text == NULL)
		return FALSE;
	if (strcmp(text, "-") == 0) {
		*out = NAN;
		return TRUE;
	}
	*out = g_ascii_strtod(text, &end);
	return *text && *end == '\0' && isfinite(*out);
}

static gboolean parse_knobs(char *const *tokens, Knobs *out)
{
	for (int k = 0; k < KNOB_CFS_COUNT; k++) {
		guint64 v;

		if (!parse_u64(field(tokens, knob_info((enum knob)k)->column), &v))
			return FALSE;
		knob_set(out, (enum knob)k, (double)v);
	}
	return TRUE;
}

/* Append text (after "LST KIND N ") to the GString of seq N in table. */
static gboolean append_numbered(GHashTable *table, const char *rest)
{
	char *end;
	guint64 seq = g_ascii_strtoull(rest, &end, 10);

	if (end == rest || (*end != ' ' && *end != '\0') || seq > G_MAXUINT)
		return FALSE;
	GString *s = g_hash_table_lookup(table, GUINT_TO_POINTER((guint)seq));
	if (s == NULL) {
		s = g_string_new(NULL);
		g_hash_table_insert(table, GUINT_TO_POINTER((guint)seq), s);
	}
	g_string_append(s, *end ? end + 1 : "");
	g_string_append_c(s, '\n');
	return TRUE;
}

static gboolean parse_begin(VmGuest *guest, char *const *tokens)
{
	const char *kernel = field(tokens, "kernel");

	if (kernel == NULL || !parse_uint(tokens, "nr_cpus", &guest->nr_cpus) ||
	    !parse_knobs(tokens, &guest->boot_knobs))
		return FALSE;
	g_free(guest->kernel);
	guest->kernel = g_strdup(kernel);
	guest->begun = TRUE;
	return TRUE;
}

static gboolean parse_run(VmGuest *guest, char *const *tokens)
{
	VmGuestRun run = { 0 };
	const char *setting = field(tokens, "setting"), *knobs = field(tokens, "knobs");
	const char *rc = field(tokens, "rc"), *wall = field(tokens, "wall_ns");
	const char *ctxt = field(tokens, "ctxt");
	guint64 v;

	if (!parse_uint(tokens, "seq", &run.seq) || !parse_uint(tokens, "round", &run.round) ||
	    setting == NULL || knobs == NULL || !parse_knobs(tokens, &run.knobs) || rc == NULL ||
	    !parse_measure(field(tokens, "time_s"), &run.time_s) ||
	    !parse_measure(wall, &run.wall_s) || ctxt == NULL)
		return FALSE;
	run.rc = (int)g_ascii_strtoll(rc, NULL, 10);
	run.wall_s /= 1e9;
	run.ctxt = parse_u64(ctxt, &v) ? (gint64)v : -1;
	run.knobs_ok = strcmp(knobs, "ok") == 0;
	run.setting = g_strdup(setting);

	GString *out = g_hash_table_lookup(guest->outputs, GUINT_TO_POINTER(run.seq));
	run.output = out ? g_strndup(out->str, out->len) : g_strdup("");
	g_hash_table_remove(guest->outputs, GUINT_TO_POINTER(run.seq));
	const gint64 *steal = g_hash_table_lookup(guest->steal, GUINT_TO_POINTER(run.seq));
	run.steal_ppm = steal ? steal[0] : -1;
	run.stall_ns = steal ? steal[1] : -1;
	g_hash_table_remove(guest->steal, GUINT_TO_POINTER(run.seq));
	g_array_append_val(guest->runs, run);
	if (guest->started == (gint64)run.seq)
		guest->started = -1;
	return TRUE;
}

void vm_guest_note_steal(VmGuest *guest, guint seq, gint64 steal_ppm, gint64 stall_ns)
{
	gint64 *v = g_new(gint64, 2);

	v[0] = steal_ppm;
	v[1] = stall_ns;
	g_hash_table_replace(guest->steal, GUINT_TO_POINTER(seq), v);
}

void vm_guest_feed(VmGuest *guest, const char *line)
{
	g_autofree char *copy = g_strdup(line);

	g_strchomp(copy); /* "\r\n" from the serial console */
	if (!g_str_has_prefix(copy, "LST "))
		return;

	char *rest = copy + 4;
	gboolean ok = TRUE;

	if (g_str_has_prefix(rest, "out ")) {
		ok = append_numbered(guest->outputs, rest + 4);
	} else if (g_str_has_prefix(rest, "trace ")) {
		ok = append_numbered(guest->traces, rest + 6);
	} else {
		g_auto(GStrv) tokens = g_strsplit(rest, " ", -1);
		const char *kind = tokens[0];
		guint seq;

		if (strcmp(kind, "begin") == 0) {
			ok = parse_begin(guest, tokens + 1);
		} else if (strcmp(kind, "start") == 0) {
			ok = parse_uint(tokens + 1, "seq", &seq);
			if (ok)
				guest->started = seq;
		} else if (strcmp(kind, "run") == 0) {
			ok = parse_run(guest, tokens + 1);
		} else if (strcmp(kind, "error") == 0) {
			guest->plan_errors++;
		} else if (strcmp(kind, "end") == 0) {
			guest->ended = TRUE;
		}
		/* tracestat, klog and kinds added later carry nothing the host needs */
	}
	if (!ok)
		guest->garbled++;
}

const VmGuestRun *vm_guest_run(const VmGuest *guest, guint seq)
{
	for (guint i = 0; i < guest->runs->len; i++) {
		const VmGuestRun *run = &g_array_index(guest->runs, VmGuestRun, i);

		if (run->seq == seq)
			return run;
	}
	return NULL;
}

const char *vm_guest_trace(const VmGuest *guest, guint seq)
{
	GString *s = g_hash_table_lookup(guest->traces, GUINT_TO_POINTER(seq));

	return s ? s->str : NULL;
}
