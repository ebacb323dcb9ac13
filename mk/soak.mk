# mk/soak.mk -- `make soak`: watch mode for SOAK_SECONDS (default 600)
# against a real GHC program while the script pauses the writer, cuts,
# truncates and replaces the input and fills the output directory; a
# third watcher follows a service's eventlog socket (real GHC census
# blocks, SOAK_RATE a second, default 30) with --tee and --serve, for 10
# live pages (chromium), 40 SSE clients, a Prometheus scraping every 5 s
# and go tool pprof every minute (tests/soak/soak_serve.sh); prints a
# table of figures and issue 42's criteria (tests/soak/soak.sh).
# `SOAK_SECONDS=3600 make soak` is the hour's served soak (bench/RESULTS.md
# 12.6).  Needs `make deps-dev` (ghc) and `make deps` (chromium,
# playwright-core, prometheus, golang-go).  Slow: a benchmark, not part
# of check.
soak: $(BUILD)/hp2x
	@BUILD=$(BUILD) tests/soak/soak.sh
.PHONY: soak
