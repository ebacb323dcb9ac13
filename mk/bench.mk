# mk/bench.mk -- `make bench`: hp2x against the real hp2ps and wc -l on big
# inputs generated from samples/ (bench/run.py), then watch-mode update cost
# (bench/watch.sh).  Results go to the terminal and build/bench-results.md;
# bench/RESULTS.md keeps a copy with the machine they came from.  Needs
# `make deps-dev` (hp2ps, valgrind, GNU time, strace).  Slow: not part of check.
bench: $(BUILD)/hp2x
	@python3 bench/run.py | tee build/bench-results.md
	@bench/watch.sh | tee -a build/bench-results.md
.PHONY: bench
