# mk/fuzz.mk -- libFuzzer targets (clang), kept out of `make check`.
#   make fuzz FUZZ_SECONDS=60     run each target that long, seeded from samples/
# Crashes land in build/fuzz/; copy each into tests/fuzz-regress/<target>/,
# which `make check` replays (tests/unit/test_fuzz_regress.c).
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
FUZZ_DIR := build/fuzz
FUZZ_TARGETS := hp_parse eventlog_parse pipeline
FUZZ_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -Iinclude -Isrc \
    $(PKG_CFLAGS) -DHP2X_DATADIR='"$(DATADIR)"' \
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_LIB_OBJ := $(LIB_SRC:src/%.c=$(FUZZ_DIR)/obj/%.o)

$(FUZZ_DIR)/obj/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(Q)clang $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(FUZZ_LIB_OBJ)
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) $(LDLIBS)

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  c=$(FUZZ_DIR)/corpus-$$t; mkdir -p $$c; \
	  case $$t in \
	    hp_parse) cp samples/profiles/*.hp tests/data/malformed/*.hp $$c/ ;; \
	    eventlog_parse) cp samples/profiles/*.eventlog tests/data/malformed/*.eventlog $$c/ ;; \
	    pipeline) for f in samples/profiles/leak.h?.hp samples/profiles/mapwave.hm.eventlog; do \
	        printf '\024\012\000\001\002\040\000\000' | cat - $$f > $$c/$$(basename $$f); done ;; \
	  esac; \
	  cp tests/fuzz-regress/$${t%_parse}/* $$c/ 2>/dev/null; \
	  echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
	  ( cd $(FUZZ_DIR) && ASAN_OPTIONS=detect_leaks=1 \
	    LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	    ./fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=1048576 \
	      -rss_limit_mb=4096 -print_final_stats=1 corpus-$$t ) \
	    2>&1 | grep -E '^(stat::|#[0-9]+.*DONE|==|SUMMARY|INFO: Running)' ; \
	done

.PHONY: fuzz fuzz-build
.SECONDARY: $(FUZZ_LIB_OBJ)
