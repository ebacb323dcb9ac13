# mk/bench.mk -- `make bench`: hp2x against hp2ps and wc -l on big inputs
# generated from samples/ (see bench/run.sh); results go to the terminal and
# build/bench-results.md.  Needs `make deps-dev` (hp2ps, GNU time).
bench: $(BUILD)/hp2x
	@bench/run.sh | tee build/bench-results.md
	@bench/watch.sh | tee -a build/bench-results.md
.PHONY: bench
