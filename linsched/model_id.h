/*
 * model_id.h - which simulator computed a value: a digest of the code that computes simulated
 * values.
 *
 * The id is the first 16 hex digits (lowercase) of a SHA-256 over every .c and .h file under
 * kernel-extract/, linsched/, tasks/, tuner/eval/ and tuner/fidelity/, path names included, so
 * that editing, adding, renaming or removing any of them gives another id. The Makefile computes
 * it at build time (build/gen/model_id.h); it identifies the sources, not the compiler or its
 * flags: the build variants of one tree share it.
 *
 * What is kept for later carries it, so that values of two models are never mixed: the tuner's
 * journals of simulated values hold it in their settings (a journal written by another simulator
 * is refused rather than resumed; journals of real measurements leave it out, their values do not
 * depend on this code), and a machine.ini fitted to real runs names the simulator it was fitted
 * on. The id changes with every edit of those sources, comments included: it says "maybe
 * different", never "different".
 */
#ifndef LINSCHED_MODEL_ID_H
#define LINSCHED_MODEL_ID_H

/* The id of the simulator this program was built from: a static string of 16 lowercase hex
 * digits. */
const char *linsched_model_id(void);

#endif /* LINSCHED_MODEL_ID_H */
