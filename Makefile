# hp2x -- build, test, install.  Plain GNU make; objects under build/.
#   make deps      install the Debian packages the build and tests need
#   make deps-dev  also hp2ps (package ghc), clang, hyperfine, valgrind: bench, fuzz
#   make           build build/hp2x and build/libhp2x.a
#   make check     unit + end-to-end tests, then again under ASan+UBSan
#   make install   PREFIX=/usr/local DESTDIR=
#   make fuzz      libFuzzer targets (clang), FUZZ_SECONDS or FUZZ_RUNS each
#   make valgrind  the end-to-end tests with build/hp2x under valgrind (slow)
#   make bench     benchmarks against hp2ps (slow; not part of check)
#   make soak      watch mode under faults and signals, SOAK_SECONDS (default 600)

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc

PKGS    := cairo pangocairo pangoft2 pango fontconfig zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

WARN := -Wall -Wextra -Werror -Wpedantic -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wformat=2 -Wwrite-strings -Wundef -Wcast-qual \
        -Wvla -Wconversion -Wno-sign-conversion
OPT  ?= -O2 -g
DATADIR := $(PREFIX)/share/hp2x
override CFLAGS += -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(WARN) \
        -Iinclude -Isrc $(PKG_CFLAGS) -DHP2X_DATADIR='"$(DATADIR)"'
LDLIBS  := $(PKG_LIBS) -lm

# The tool (src/tool/) links the library; the library is src/*.c alone.
TOOL_SRC := $(wildcard src/tool/*.c)
LIB_SRC  := $(wildcard src/*.c)
LIB_OBJ  := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
TOOL_OBJ := $(TOOL_SRC:src/%.c=$(BUILD)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# The library with the fault-injection hook, for tests only (mk/testhooks.mk).
HOOKS_LIB := $(BUILD)/libhp2x-hooks.a
# Header dependencies are the compiler's own (-MMD -MP): an edit rebuilds
# only the objects that include what changed.
DEPFLAGS := -MMD -MP

.PHONY: all deps deps-dev check check-one test install uninstall clean fuzz bench \
        valgrind

all: $(BUILD)/hp2x

Q := $(if $(V),,@)
$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/libhp2x.a: $(LIB_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/hp2x: $(TOOL_OBJ) $(BUILD)/libhp2x.a
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(BUILD)/libhp2x.a $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(HOOKS_LIB)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(CFLAGS) $(DEPFLAGS) -Wno-missing-prototypes -Wno-format-truncation -o $@ $< $(HOOKS_LIB) \
	    $(LDLIBS) $(CMOCKA_LIBS)

# test_options drives the tool's option table: it links the tool's objects
# but main.o.
TOOL_TEST_OBJ := $(filter-out $(BUILD)/obj/tool/main.o,$(TOOL_OBJ))
$(BUILD)/tests/test_options: tests/unit/test_options.c $(TOOL_TEST_OBJ) $(BUILD)/libhp2x.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(CFLAGS) $(DEPFLAGS) -Isrc/tool -Wno-missing-prototypes -o $@ $< \
	    $(TOOL_TEST_OBJ) $(BUILD)/libhp2x.a $(LDLIBS) $(CMOCKA_LIBS)

# Debian packages for building, testing (real consumers of every format)
# and comparing with the real hp2ps (package ghc).
DEB_PKGS := build-essential pkg-config libcairo2-dev libpango1.0-dev zlib1g-dev \
            libcmocka-dev fontconfig fonts-urw-base35 fonts-dejavu-core \
            fonts-droid-fallback ghostscript poppler-utils librsvg2-bin \
            python3 locales time
# Only for `make bench`, for regenerating the hp2ps test data, and for the
# SVG tooltip test's browser check (skipped without chromium).
DEV_PKGS := ghc hyperfine valgrind bc strace clang libclang-rt-14-dev chromium
deps:
	@if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	export DEBIAN_FRONTEND=noninteractive; \
	$$SUDO apt-get update -qq && \
	$$SUDO apt-get install -y -qq --no-install-recommends $(DEB_PKGS) && \
	{ locale -a 2>/dev/null | grep -qi '^de_DE.utf8$$' || \
	  $$SUDO localedef -i de_DE -c -f UTF-8 de_DE.UTF-8; }

deps-dev: deps
	@if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(DEV_PKGS)

test: check-one
check-one: $(BUILD)/hp2x $(BUILD)/hp2x-faults $(UNIT_BIN)
	@tests/run-tests.sh $(BUILD)

check:
	@$(MAKE) --no-print-directory check-one
	@$(MAKE) --no-print-directory check-one BUILD=build/asan CC=gcc \
	    OPT="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

# Not part of check: every end-to-end test with the normal build's binary
# under memcheck; clean means no error and no definite leak.
valgrind: $(BUILD)/hp2x
	@tests/valgrind/run.sh $(BUILD)

install: $(BUILD)/hp2x
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(DATADIR)/fonts
	install -m 755 $(BUILD)/hp2x $(DESTDIR)$(PREFIX)/bin/hp2x
	install -m 644 man/hp2x.1 $(DESTDIR)$(PREFIX)/share/man/man1/hp2x.1
	install -m 644 fonts/* $(DESTDIR)$(DATADIR)/fonts/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/hp2x $(DESTDIR)$(PREFIX)/share/man/man1/hp2x.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(TOOL_OBJ:.o=.d) $(UNIT_BIN:=.d)
-include mk/testhooks.mk
-include mk/tsan.mk
-include mk/fuzz.mk
-include mk/bench.mk
-include mk/soak.mk
