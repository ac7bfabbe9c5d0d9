/*
 * vm_guest.h - what a boot of the real-kernel VM printed: the parser of the guest protocol's
 * console lines (vm/README.md, "Console lines").
 *
 * The host feeds every console line; lines that do not start with "LST " (the kernel's, the
 * shell's) are ignored, as are unknown kinds and unknown keys, so that the protocol can grow.
 * A run is known by its `run` line; its `out` and `trace` lines come before it. What the parser
 * cannot use in a protocol line (a missing or malformed field) is counted as a garbled line, not
 * an error: a boot's value is in the runs that did finish.
 *
 * Ownership: a VmGuest is the caller's (vm_guest_free); strings in it belong to it.
 */
#ifndef TUNER_VM_VM_GUEST_H
#define TUNER_VM_VM_GUEST_H

#include <glib.h>

#include "tuner/knobs/knobs.h"

G_BEGIN_DECLS

/* One finished run, as the guest reported it. */
typedef struct {
	guint seq;
	guint round;
	char *setting;
	Knobs knobs;	   /* read back after writing */
	gboolean knobs_ok; /* every written knob read back as written */
	int rc;		   /* the command's exit status */
	double time_s;	   /* its last "Time: S" line; NaN if none */
	double wall_s;	   /* guest monotonic time around the command; NaN if not measured */
	gint64 ctxt;	   /* context switches of all CPUs during the run; -1 if not measured */
	/* What the host took from the vCPUs during the run (vm_steal.h), as the host that booted
	 * the guest measured it; -1 if not measured. */
	gint64 steal_ppm, stall_ns;
	char *output; /* the command's output lines, joined with '\n' */
} VmGuestRun;

typedef struct {
	gboolean begun; /* saw "LST begin" */
	gboolean ended; /* saw "LST end" */
	char *kernel;	/* uname -r of the guest */
	guint nr_cpus;
	Knobs boot_knobs;    /* the knobs the kernel booted with */
	GArray *runs;	     /* VmGuestRun, in the order they finished */
	gint64 started;	     /* seq of the last "LST start" without its run line yet; -1 if none */
	guint plan_errors;   /* "LST error" lines: plan lines the guest refused */
	guint garbled;	     /* protocol lines the parser could not use */
	GHashTable *traces;  /* seq (GUINT_TO_POINTER) -> GString: the run's trace lines */
	GHashTable *outputs; /* seq -> GString: output lines not yet claimed by a run line */
	GHashTable *steal;   /* seq -> gint64[2]: steal noted by the host for a run to come */
} VmGuest;

VmGuest *vm_guest_new(void);
void vm_guest_free(VmGuest *guest);

/* Take one console line (with or without its "\r\n"). */
void vm_guest_feed(VmGuest *guest, const char *line);

/* The host measured steal_ppm and stall_ns during run seq (before its run line arrives). */
void vm_guest_note_steal(VmGuest *guest, guint seq, gint64 steal_ppm, gint64 stall_ns);

/* The finished run with this seq, or NULL. */
const VmGuestRun *vm_guest_run(const VmGuest *guest, guint seq);

/* The trace of run seq in the kernel's text format (one event a line), or NULL if none. */
const char *vm_guest_trace(const VmGuest *guest, guint seq);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(VmGuest, vm_guest_free)

G_END_DECLS

#endif
