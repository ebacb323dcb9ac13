# mk/bench.mk -- `make bench`: hp2x against the real hp2ps and wc -l on big
# inputs generated from samples/ (bench/run.py; its section 14, reading on
# every core against wc -l, alone: `make bench-cores`), then watch-mode
# update cost through the binary (bench/watch.sh) and split into its parts inside one
# process (bench/update.sh, bench/update.c), then memory against the length
# of the run on 0.3, 1.2 and 20 GB streams piped from bench/memgen.c
# (bench/mem.py; `make bench-mem` runs it alone; BENCH_BIG=0 skips the
# 20 GB streams and run.py's 500 MB input), then how far the bounded
# picture is from every sample's at 600 dpi (bench/fidelity.sh; `make
# bench-fidelity` alone), then the HTML report in chromium (bench/report.sh),
# then pprof profiles of the same big inputs and of deep stacks
# (bench/pprof.sh; `make bench-pprof` alone; needs go), then serving:
# latency from a census on the socket to live pages and SSE clients, and
# the watch's CPU with and without --serve
# (bench/serve_latency.sh; `make bench-serve` alone; needs make deps'
# chromium and playwright-core).  `make bench-grown` (not in bench: a
# minute) times a live page's own drawing of each census in chromium
# (bench/grown_cost.sh).  `make bench-serve-mem` (not in bench:
# 12 minutes) measures a served watch's memory over a run long enough to
# thin (bench/serve_memory.sh).  Results go to the terminal and
# build/bench-results.md; bench/RESULTS.md keeps a copy with the machine
# they came from.  Needs `make deps-dev` (hp2ps, valgrind, GNU time,
# strace).  Slow: not part of check.
$(BUILD)/bench/update: bench/update.c $(BUILD)/obj/tool/util/zlib_level.o $(BUILD)/libhp2x.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(BUILD)/obj/tool/util/zlib_level.o $(BUILD)/libhp2x.a \
	    $(LDLIBS)

-include $(BUILD)/bench/update.d

# Where one run's time goes (bench/run.py, section 14): fonts, reading,
# selection, writing, inside one process.
$(BUILD)/bench/phases: bench/phases.c $(BUILD)/obj/tool/util/zlib_level.o $(BUILD)/libhp2x.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(BUILD)/obj/tool/util/zlib_level.o $(BUILD)/libhp2x.a \
	    $(LDLIBS)

-include $(BUILD)/bench/phases.d

# The memory benchmark's generator (bench/mem.py): long profiles, piped.
$(BUILD)/bench/memgen: bench/memgen.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< -lm

-include $(BUILD)/bench/memgen.d

# The fidelity check's comparer (bench/fidelity.sh): two PNGs, pixel by
# pixel, through cairo.
$(BUILD)/bench/png_compare: bench/png_compare.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(LDLIBS)

-include $(BUILD)/bench/png_compare.d

bench: all $(BUILD)/bench/update $(BUILD)/bench/memgen $(BUILD)/bench/png_compare \
    $(BUILD)/bench/phases
	@MEMGEN=$(BUILD)/bench/memgen PHASES=$(BUILD)/bench/phases python3 bench/run.py \
	    | tee build/bench-results.md
	@bench/watch.sh | tee -a build/bench-results.md
	@bench/update.sh $(BUILD)/bench/update | tee -a build/bench-results.md
	@HP2X=$(BUILD)/hp2x MEMGEN=$(BUILD)/bench/memgen UPDATE=$(BUILD)/bench/update python3 bench/mem.py \
	    | tee -a build/bench-results.md
	@bench/fidelity.sh $(BUILD)/hp2x $(BUILD)/bench/memgen $(BUILD)/bench/png_compare \
	    | tee -a build/bench-results.md
	@bench/report.sh $(BUILD)/hp2x $(BUILD)/bench/memgen | tee -a build/bench-results.md
	@bench/pprof.sh $(BUILD)/hp2x $(BUILD)/bench/memgen | tee -a build/bench-results.md
	@bench/serve_latency.sh $(BUILD)/hp2x | tee -a build/bench-results.md

# Section 14 alone (bench/run.py --cores): reading on every core against wc -l.
bench-cores: all $(BUILD)/bench/memgen $(BUILD)/bench/phases
	@MEMGEN=$(BUILD)/bench/memgen PHASES=$(BUILD)/bench/phases python3 bench/run.py --cores \
	    | tee build/bench-cores-results.md
bench-mem: all $(BUILD)/bench/memgen $(BUILD)/bench/update
	@HP2X=$(BUILD)/hp2x MEMGEN=$(BUILD)/bench/memgen UPDATE=$(BUILD)/bench/update python3 bench/mem.py \
	    | tee build/bench-mem-results.md
bench-fidelity: all $(BUILD)/bench/memgen $(BUILD)/bench/png_compare
	@bench/fidelity.sh $(BUILD)/hp2x $(BUILD)/bench/memgen $(BUILD)/bench/png_compare
bench-report: all $(BUILD)/bench/memgen
	@bench/report.sh $(BUILD)/hp2x $(BUILD)/bench/memgen
bench-pprof: all $(BUILD)/bench/memgen
	@bench/pprof.sh $(BUILD)/hp2x $(BUILD)/bench/memgen
bench-serve: $(BUILD)/hp2x
	@bench/serve_latency.sh $(BUILD)/hp2x
bench-grown: $(BUILD)/hp2x
	@bench/grown_cost.sh $(BUILD)/hp2x
bench-serve-mem: $(BUILD)/hp2x
	@bench/serve_memory.sh $(BUILD)/hp2x
.PHONY: bench bench-cores bench-mem bench-fidelity bench-report bench-pprof \
        bench-serve bench-grown \
        bench-serve-mem
