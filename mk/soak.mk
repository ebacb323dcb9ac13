# mk/soak.mk -- `make soak`: watch mode for SOAK_SECONDS (default 600)
# against a real GHC program while the script pauses the writer, cuts,
# truncates and replaces the input and fills the output directory;
# a third watcher serves the .hp to 10 live pages (chromium), 40 SSE
# clients and a Prometheus scraping every second (tests/soak/soak_serve.sh);
# prints a table of figures (tests/soak/soak.sh).  Needs `make deps-dev`
# (ghc) and `make deps` (chromium, playwright-core, prometheus).  Slow: not
# part of check.
soak: $(BUILD)/hp2x
	@BUILD=$(BUILD) tests/soak/soak.sh
.PHONY: soak
