# LinSched-Tuner build.
#
# Every .c file under kernel-extract/, linsched/, tasks/ and tuner/ goes into one static library,
# except the programs' entry points (linsched/cli/main.c, tuner/cmd/main.c).  Every tests/*/test_*.c is a
# cmocka program linked against that library.  Adding a file needs no edit here.
#
# Three variants are built side by side: build/release (the programs users run), build/asan
# (AddressSanitizer + UndefinedBehaviorSanitizer, any report is fatal) and build/debug (-DSCHED_DEBUG:
# the engine checks the scheduler's invariants after every event, linsched/sched_debug.h).  `make
# test` runs every test in the first two, and the invariant test (DEBUG_TESTS) in the third.

PKGS      := glib-2.0 gsl
DEB_PKGS  := libglib2.0-dev libgsl-dev libcmocka-dev gnuplot-nox pkg-config rt-tests clang-format \
             qemu-system-x86 busybox-static cpio

CC        ?= cc
WARN      := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS)) -lm
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)

CFLAGS_release := -O2 -g
CFLAGS_asan    := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
CFLAGS_debug   := -O1 -g -DSCHED_DEBUG
LDFLAGS_release :=
LDFLAGS_asan    := -fsanitize=address,undefined
LDFLAGS_debug   :=

SRC_DIRS  := kernel-extract linsched tasks tuner
MAINS     := linsched/cli/main.c linsched/cli/probe_main.c linsched/cli/launch_main.c \
             linsched/cli/btf_main.c tuner/cmd/main.c
LIB_SRCS  := $(filter-out $(MAINS),$(shell find $(SRC_DIRS) -name '*.c' | sort))
TEST_SRCS := $(shell find tests -name 'test_*.c' | sort)
# Helpers shared by the tests (spawning the programs, reading their output), linked into each.
TEST_SUPPORT_SRCS := $(wildcard tests/support/*.c)
PROGRAMS  := linsched tuner

VARIANTS  := release asan debug
# The tests worth running in build/debug: those that drive the engine through many events.
DEBUG_TESTS := build/debug/tests/linsched/test_sched_debug

# Objects, library, programs and tests of one variant: $(call objs,VARIANT,SOURCES)
objs = $(patsubst %.c,build/$(1)/%.o,$(2))

.PHONY: all deps run test check lint format test-release test-asan bench report clean probe-static fuzz fuzz-smoke
.DEFAULT_GOAL := all

all: bin/linsched bin/tuner

# bin/ holds the release programs, the ones the README talks about.
bin/%: build/release/bin/%
	@mkdir -p bin
	cp $< $@.tmp && mv -f $@.tmp $@

define VARIANT_RULES
build/$(1)/%.o: %.c
	@mkdir -p $$(@D)
	$$(CC) -std=gnu11 $$(WARN) $$(CFLAGS_$(1)) $$(PKG_CFLAGS) -I. -MMD -MP \
	    -DBUILD_BIN_DIR='"build/$(1)/bin"' -c $$< -o $$@

build/$(1)/liblinsched.a: $$(call objs,$(1),$$(LIB_SRCS))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^

build/$(1)/bin/linsched: build/$(1)/linsched/cli/main.o build/$(1)/liblinsched.a
	@mkdir -p $$(@D)
	$$(CC) $$(LDFLAGS_$(1)) $$^ $$(PKG_LIBS) -lpthread -o $$@

build/$(1)/bin/tuner: build/$(1)/tuner/cmd/main.o build/$(1)/liblinsched.a
	@mkdir -p $$(@D)
	$$(CC) $$(LDFLAGS_$(1)) $$^ $$(PKG_LIBS) -lpthread -o $$@

build/$(1)/tests/%: build/$(1)/tests/%.o $$(call objs,$(1),$$(TEST_SUPPORT_SRCS)) build/$(1)/liblinsched.a
	@mkdir -p $$(@D)
	$$(CC) $$(LDFLAGS_$(1)) $$^ $$(PKG_LIBS) $$(CMOCKA_LIBS) -lpthread -o $$@

TESTS_$(1) := $$(patsubst %.c,build/$(1)/%,$$(TEST_SRCS))

# Tests run from the top directory; end-to-end tests find the programs of their own variant in
# BUILD_BIN_DIR.
test-$(1): $$(TESTS_$(1)) build/$(1)/bin/linsched build/$(1)/bin/tuner
	tests/run.sh $$(TESTS_$(1))

endef
$(foreach v,$(VARIANTS),$(eval $(call VARIANT_RULES,$(v))))
-include $(shell find build -name '*.d' 2>/dev/null)

# Keep test objects and programs: they are not intermediates to delete.
.SECONDARY:

# The newcomer's second command: dependencies first (a sub-make, so that no compiler starts before
# the libraries are installed), the VM's kernel with one boot of the shell tools that measure it
# (vm/test-boot.sh), then `check`.
test: deps
	@$(MAKE) --no-print-directory vm-test
	@$(MAKE) --no-print-directory fuzz-smoke
	@$(MAKE) --no-print-directory check

# Both variants in one run, so the closing line counts every test; the lint first. The benchmark
# is built, not run (its timings belong to `make bench`), so that a change cannot leave it broken.
check: lint $(TESTS_release) $(TESTS_asan) $(DEBUG_TESTS) $(foreach v,release asan,build/$(v)/bin/linsched build/$(v)/bin/tuner) build/release/bench/bench
	tests/run.sh $(TESTS_release) $(TESTS_asan) $(DEBUG_TESTS)

# ---- fuzzing: fuzz/README.md ------------------------------------------------------------------
# One libFuzzer target per parser (fuzz/fuzz_*.c), built with clang, ASan and UBSan over its own
# copy of the library (build/fuzz). Each target's corpus starts from the test fixtures and
# fuzz/seeds/TARGET/; `make fuzz` runs every target FUZZ_SECONDS, `make fuzz-smoke` (part of
# `make test`) FUZZ_RUNS inputs each, and says so and skips when clang is missing.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?= 2000
FUZZ_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize-recover=all
FUZZ_TARGETS := $(patsubst fuzz/%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS    := $(addprefix build/fuzz/bin/,$(FUZZ_TARGETS))
FUZZ_CORPORA := $(addprefix build/fuzz/corpus/,$(FUZZ_TARGETS))
FIX := tests/tuner/fixtures
FUZZ_SEEDS_fuzz_design_csv      := $(FIX)/report/rsm/design.csv
FUZZ_SEEDS_fuzz_report_csv      := $(wildcard $(FIX)/report/*/*.csv)
FUZZ_SEEDS_fuzz_calibration_ini := $(wildcard $(FIX)/report/*/calibration.ini)
FUZZ_SEEDS_fuzz_result_json     := $(wildcard $(FIX)/report/*/*.json)
FUZZ_SEEDS_fuzz_realbench       := $(wildcard $(FIX)/*.txt)
FUZZ_SEEDS_fuzz_real_plan       := $(wildcard vm/data/real-6.1-*-g*.csv vm/data/flips/real-6.1-*.csv)
FUZZ_SEEDS_fuzz_vm_probe        := $(wildcard machines/*.ini)
FUZZ_SEEDS_fuzz_trace_stats     := vm/data/real-6.1-T-g1-l10.trace

build/fuzz/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=gnu11 $(WARN) $(FUZZ_CFLAGS) $(PKG_CFLAGS) -I. -MMD -MP -c $< -o $@

build/fuzz/liblinsched.a: $(call objs,fuzz,$(LIB_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

build/fuzz/bin/%: build/fuzz/fuzz/%.o build/fuzz/liblinsched.a
	@mkdir -p $(@D)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $^ $(PKG_LIBS) -lpthread -o $@

# The corpus of a target: the seeds, then whatever the fuzzer adds (kept between runs).
build/fuzz/corpus/%: $(wildcard fuzz/seeds/*/*)
	@mkdir -p $@
	@for f in $(FUZZ_SEEDS_$*) $(wildcard fuzz/seeds/$*/*); do cp "$$f" "$@/seed-$$(echo "$$f" | tr / _)"; done

fuzz:
	@command -v $(FUZZ_CC) >/dev/null || { echo "fuzz: $(FUZZ_CC) not found: install clang"; exit 1; }
	@$(MAKE) --no-print-directory $(FUZZ_BINS) $(FUZZ_CORPORA)
	@fuzz/run.sh "-max_total_time=$(FUZZ_SECONDS) -print_final_stats=1" $(FUZZ_TARGETS)

fuzz-smoke:
	@if ! command -v $(FUZZ_CC) >/dev/null; then echo "fuzz-smoke: $(FUZZ_CC) not found: fuzz targets skipped"; exit 0; fi; \
	$(MAKE) --no-print-directory $(FUZZ_BINS) $(FUZZ_CORPORA) && \
	fuzz/run.sh "-runs=$(FUZZ_RUNS) -print_final_stats=1" $(FUZZ_TARGETS)

# Every source in the one style of .clang-format; every include down the layers of
# tools/check_layers.sh (and that check refusing what it must).
FORMAT_SRCS = $(shell find $(SRC_DIRS) tests bench fuzz -name '*.[ch]' | sort)
lint:
	@clang-format --dry-run --Werror $(FORMAT_SRCS)
	@echo "format: $(words $(FORMAT_SRCS)) files follow .clang-format"
	@tools/check_layers_test.sh
	@tools/check_layers.sh

# Rewrite every source in the style of .clang-format.
format:
	clang-format -i $(FORMAT_SRCS)

# Install the Debian packages that are missing; do nothing when all are present.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all packages present"; exit 0; fi; \
	echo "deps: installing$$missing"; \
	if [ "$$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing

# The newcomer's first command: dependencies, build, one default simulation.
run: deps
	$(MAKE) all
	@mkdir -p results/run
	bin/linsched hackbench --trace results/run/trace.txt
	bin/tuner report results/run

# Figures for the result directories under results/ (or REPORT_DIRS="DIR ..."), with
# results/report/index.html.
REPORT_FILES := calibration.csv history.csv design.csv surface.csv scale.csv trace.txt
REPORT_DIRS ?= $(sort $(patsubst %/,%,$(dir $(foreach f,$(REPORT_FILES),$(wildcard results/*/$(f))))))
report: all
	bin/tuner report --out results/report $(REPORT_DIRS)

# The machine probe alone, linked statically: the VM's initramfs carries it and has no GLib
# (make vm puts it there; tuner vm probe runs it in the guest).
probe-static: bin/linsched-probe-static bin/linsched-launch-static bin/linsched-btf-static
bin/linsched-probe-static: linsched/cli/cmd_probe.c linsched/cli/probe_ring.c linsched/cli/probe_main.c \
    linsched/cli/probe.h linsched/cli/probe_ring.h
	@mkdir -p bin
	$(CC) -std=gnu11 $(WARN) -O2 -I. -static linsched/cli/cmd_probe.c linsched/cli/probe_ring.c \
	    linsched/cli/probe_main.c -lpthread -lm -o $@

# The launcher alone, linked statically for the same initramfs: the real runs start hackbench
# with known wakee_flips through it (linsched/cli/launch.h).
bin/linsched-launch-static: linsched/cli/cmd_launch.c linsched/cli/launch_main.c linsched/cli/launch.h
	@mkdir -p bin
	$(CC) -std=gnu11 $(WARN) -O2 -I. -static linsched/cli/cmd_launch.c linsched/cli/launch_main.c -o $@

# The BTF reader alone, linked statically for the same initramfs: the guest asks it where the
# running kernel keeps task_struct.wakee_flips (linsched/cli/btf.h).
bin/linsched-btf-static: linsched/cli/cmd_btf.c linsched/cli/btf_main.c linsched/cli/btf.h
	@mkdir -p bin
	$(CC) -std=gnu11 $(WARN) -O2 -I. -static linsched/cli/cmd_btf.c linsched/cli/btf_main.c -o $@

bench: all build/release/bench/bench
	build/release/bench/bench

build/release/bench/bench: build/release/bench/bench.o build/release/liblinsched.a
	@mkdir -p $(@D)
	$(CC) $^ $(PKG_LIBS) -lpthread -o $@

clean:
	rm -rf build bin

include vm/vm.mk
