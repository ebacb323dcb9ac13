# mk/fuzz.mk -- libFuzzer targets (clang), kept out of `make check`.
#   make fuzz FUZZ_SECONDS=60        each target that long (the default)
#   make fuzz FUZZ_RUNS=10000000     each target for that many executions
#   make fuzz FUZZ_TARGETS=pipeline  some of: hp_parse eventlog_parse
#                                    pipeline stream threads program
#                                    serve_request
#   FUZZ_MAX_LEN=65536  FUZZ_FLAGS='-use_value_profile=1'  (more flags)
# Targets run one after another (nice them: `nice -n 19 make fuzz ...`); each
# prints one line: executions, exec/s, wall seconds, final coverage (cov:
# edges, ft: features) and the crashes it wrote (tests/fuzz/run-fuzz.sh).
#
# Seeds: tests/fuzz/seeds.py cuts the real profiles in samples/ and the small
# cases in tests/data down to a few KB each (header, a few samples, the
# closing sample; eventlogs rewritten to the events hp2x reads), so an
# execution costs microseconds, not a re-read of 0.5 MB.  -max_len is 64 KiB:
# 16 times a typical seed (4 KB), room for hundreds of samples, cost centres
# or a long label; the limits beyond it (16 MiB lines and events, 64 KiB
# event descriptions) are reached through their length fields or by the unit
# tests, and longer inputs would only make every execution slower.
# -use_value_profile is off: the seeds hold every keyword and magic, and in
# trials it cost 30% of the speed and found no new edges.
#
# Findings land in build/fuzz/crashes/<target>/.  Minimise each with
#   build/fuzz/fuzz_T -minimize_crash=1 -runs=100000 \
#     -exact_artifact_path=OUT FILE
# fix it with a unit test, and keep OUT in tests/fuzz-regress/{hp,eventlog,
# pipeline,stream,threads}/, which `make check` replays
# (tests/unit/read/test_fuzz_regress.c).  threads (fuzz_threads.c) reads
# each input on one thread and on several, in parts as small as a byte,
# fed in random chunks, and checks both end alike.
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_MAX_LEN ?= 65536
FUZZ_FLAGS ?=
FUZZ_DIR := build/fuzz
FUZZ_TARGETS ?= hp_parse eventlog_parse pipeline stream threads program \
                serve_request
FUZZ_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -Iinclude \
    $(PKG_CFLAGS) -DHP2X_DATADIR='"$(DATADIR)"' \
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
# The library's objects and the targets see the library's headers
# (LIB_INC); the tool's objects only hp2x.h and the tool's (TOOL_INC).
FUZZ_LIB_OBJ := $(LIB_SRC:src/%.c=$(FUZZ_DIR)/obj/%.o) \
                $(GEN_LIB_SRC:$(GEN)/%.c=$(FUZZ_DIR)/obj/gen/%.o)
$(FUZZ_DIR)/obj/gen/%.o: $(GEN)/%.c
	@mkdir -p $(dir $@)
	$(Q)clang $(FUZZ_CFLAGS) $(LIB_INC) $(DEPFLAGS) -c $< -o $@
$(PPROF_USERS:%=$(FUZZ_DIR)/obj/write/%.o): $(GEN)/pprof.pb-c.h

$(FUZZ_DIR)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(Q)clang $(FUZZ_CFLAGS) $(LIB_INC) $(DEPFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/tool/%.o: src/tool/%.c
	@mkdir -p $(dir $@)
	$(Q)clang $(FUZZ_CFLAGS) $(TOOL_INC) $(DEPFLAGS) -c $< -o $@
-include $(FUZZ_LIB_OBJ:.o=.d)
$(FUZZ_DIR)/obj/write/html_write.o: $(GEN)/report_assets.h

# program: the tool's reading of an executable (--program) links the
# tool's objects and libelf.
FUZZ_TOOL_OBJ := $(filter-out $(FUZZ_DIR)/obj/tool/main.o, \
                   $(TOOL_SRC:src/%.c=$(FUZZ_DIR)/obj/%.o))
$(FUZZ_DIR)/fuzz_program: tests/fuzz/fuzz_program.c $(FUZZ_LIB_OBJ) $(FUZZ_TOOL_OBJ)
	$(Q)clang $(FUZZ_CFLAGS) $(LIB_INC) $(TOOL_INC) $(DEPFLAGS) -fsanitize=fuzzer -o $@ $< \
	    $(FUZZ_TOOL_OBJ) $(FUZZ_LIB_OBJ) $(LDLIBS) $(TOOL_LIBS)

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJ)
	$(Q)clang $(FUZZ_CFLAGS) $(LIB_INC) $(DEPFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) $(LDLIBS)
-include $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%.d)

# --serve's request handling is the tool's (src/tool/serve/request.c: the
# route of a method, target and Host; the --serve address), built in.
$(FUZZ_DIR)/fuzz_serve_request: tests/fuzz/fuzz_serve_request.c \
    src/tool/serve/request.c $(FUZZ_LIB_OBJ)
	$(Q)clang $(FUZZ_CFLAGS) $(TOOL_INC) -fsanitize=fuzzer -o $@ \
	    tests/fuzz/fuzz_serve_request.c src/tool/serve/request.c \
	    $(FUZZ_LIB_OBJ) $(LDLIBS)

$(FUZZ_DIR)/seeds/.done: tests/fuzz/seeds.py $(wildcard samples/profiles/* \
    tests/data/malformed/* tests/data/incomplete/* tests/data/found/* \
    tests/data/eventlogs/* tests/data/ghc-modern/*/*)
	@rm -rf $(FUZZ_DIR)/seeds
	$(Q)python3 tests/fuzz/seeds.py . $(FUZZ_DIR)/seeds
	@touch $@

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%) $(FUZZ_DIR)/seeds/.done

fuzz: fuzz-build
	@status=0; for t in $(FUZZ_TARGETS); do \
	  FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) \
	  FUZZ_MAX_LEN=$(FUZZ_MAX_LEN) FUZZ_FLAGS='$(FUZZ_FLAGS)' \
	    tests/fuzz/run-fuzz.sh $(FUZZ_DIR) $$t || status=1; \
	done; exit $$status

.PHONY: fuzz fuzz-build
.SECONDARY: $(FUZZ_LIB_OBJ) $(FUZZ_TOOL_OBJ)
