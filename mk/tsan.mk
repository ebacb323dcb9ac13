# tsan.mk -- `make check-tsan`: the library and tests/unit/draw/test_threads.c
# built with ThreadSanitizer under build/tsan (clang where installed, else
# gcc), then the threaded render test run under it: two profiles drawn on
# two threads at once, many times, each output equal to a lone render; and
# tests/unit/read/test_parts.c, every input read on 2, 3 and 7 threads,
# and tests/unit/read/test_parts_file.c, files read in parts on 2 and 3,
# and tests/unit/write/test_csv_write.c, bands filled and CSV rows
# formatted on several (chunks claimed by any, written in order by one),
# and tests/unit/base/test_threads.c, threads started and placed.
# Reports inside fontconfig, pango, glib or cairo (built without TSan) are
# suppressed only by the justified entries of tests/tsan.supp; a report in
# hp2x's own code fails the target.  Then the tool itself (hp2x, which hands
# --serve to hp2x-full, built beside it), built the same
# way, serves (--serve: libmicrohttpd's threads, the run's publishing, the
# event streams, the request deadline, the live page) under
# tests/e2e/test_serve.sh, test_serve_hostile.sh, test_serve_browser.sh and
# test_serve_busy.sh (requests answered on several threads while one draws)
# and test_serve_stall.sh (events, scrapes and pprof answered while pages
# are drawn on the drawing threads):
# a report ends that hp2x with status 66, which fails the test.

TSAN_CC ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo gcc)
TSAN_DIR := build/tsan
TSAN_OPT := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
# The unit-test link names gcc-only warnings; clang is told to let them be.
TSAN_CFLAGS := $(if $(findstring clang,$(TSAN_CC)),-Wno-unknown-warning-option)

.PHONY: check-tsan
check-tsan:
	@$(MAKE) --no-print-directory BUILD=$(TSAN_DIR) CC=$(TSAN_CC) \
	    OPT="$(TSAN_OPT)" CFLAGS="$(TSAN_CFLAGS)" $(TSAN_DIR)/tests/draw/test_threads
	@echo "  TSAN    $(TSAN_DIR)/tests/draw/test_threads"
	@TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1 exitcode=66 second_deadlock_stack=1 print_suppressions=0" \
	    TOP=$(CURDIR) HP2X_FONTS_CONF=$(CURDIR)/fonts/fonts.conf LC_ALL=C.UTF-8 \
	    $(TSAN_DIR)/tests/draw/test_threads
	@$(MAKE) --no-print-directory BUILD=$(TSAN_DIR) CC=$(TSAN_CC) \
	    OPT="$(TSAN_OPT)" CFLAGS="$(TSAN_CFLAGS)" $(TSAN_DIR)/tests/read/test_parts
	@echo "  TSAN    $(TSAN_DIR)/tests/read/test_parts"
	@TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1 exitcode=66 second_deadlock_stack=1 print_suppressions=0" \
	    TOP=$(CURDIR) $(TSAN_DIR)/tests/read/test_parts
	@$(MAKE) --no-print-directory BUILD=$(TSAN_DIR) CC=$(TSAN_CC) \
	    OPT="$(TSAN_OPT)" CFLAGS="$(TSAN_CFLAGS)" $(TSAN_DIR)/tests/read/test_parts_file
	@echo "  TSAN    $(TSAN_DIR)/tests/read/test_parts_file"
	@TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1 exitcode=66 second_deadlock_stack=1 print_suppressions=0" \
	    TOP=$(CURDIR) $(TSAN_DIR)/tests/read/test_parts_file
	@$(MAKE) --no-print-directory BUILD=$(TSAN_DIR) CC=$(TSAN_CC) \
	    OPT="$(TSAN_OPT)" CFLAGS="$(TSAN_CFLAGS)" $(TSAN_DIR)/tests/write/test_csv_write
	@echo "  TSAN    $(TSAN_DIR)/tests/write/test_csv_write"
	@TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1 exitcode=66 second_deadlock_stack=1 print_suppressions=0" \
	    TOP=$(CURDIR) $(TSAN_DIR)/tests/write/test_csv_write
	@$(MAKE) --no-print-directory BUILD=$(TSAN_DIR) CC=$(TSAN_CC) \
	    OPT="$(TSAN_OPT)" CFLAGS="$(TSAN_CFLAGS)" $(TSAN_DIR)/tests/base/test_threads
	@echo "  TSAN    $(TSAN_DIR)/tests/base/test_threads"
	@TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1 exitcode=66 second_deadlock_stack=1 print_suppressions=0" \
	    TOP=$(CURDIR) $(TSAN_DIR)/tests/base/test_threads
	@$(MAKE) --no-print-directory BUILD=$(TSAN_DIR) CC=$(TSAN_CC) \
	    OPT="$(TSAN_OPT)" CFLAGS="$(TSAN_CFLAGS)" $(TSAN_DIR)/hp2x $(TSAN_DIR)/hp2x-full
	@for t in test_serve test_serve_hostile test_serve_browser test_serve_busy test_serve_stall; do \
	  echo "  TSAN    tests/e2e/$$t.sh"; \
	  TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1 exitcode=66 second_deadlock_stack=1 print_suppressions=0" \
	    TOP=$(CURDIR) HP2X=$(CURDIR)/$(TSAN_DIR)/hp2x LC_ALL=C.UTF-8 \
	    timeout -k 10 600 bash tests/e2e/$$t.sh > $(TSAN_DIR)/$$t.log 2>&1 || \
	    { tail -n 20 $(TSAN_DIR)/$$t.log; exit 1; }; \
	done
