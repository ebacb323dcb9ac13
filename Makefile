# hp2x -- build, test, install.  Plain GNU make; objects under build/.
#   make deps      install the Debian packages the build and tests need, and
#                  the browser tests' playwright-core (needs Node 20)
#   make deps-dev  also hp2ps (package ghc), hyperfine, valgrind: bench, fuzz
#   make           build build/hp2x (and build/hp2x-full, which draws and
#                  serves for it) and build/libhp2x.a
#   make lib       also build/libhp2x.so (with its soname) and build/hp2x.pc
#   make check     make lint, unit + end-to-end tests, then again under
#                  ASan+UBSan
#   make lint      the style rules (mk/lint.mk; docs/STYLE.md); make format
#   make install   PREFIX=/usr/local DESTDIR= (tool: bin/hp2x and
#                  libexec/hp2x/hp2x-full; man page, fonts, library)
#   make deb       the Debian packages in build/deb/ (mk/package.mk; make dist,
#                  make symbols; docs/RELEASE.md)
#   make check-package  the tests a package build runs (PACKAGE_SKIP)
#   make fuzz      libFuzzer targets (clang), FUZZ_SECONDS or FUZZ_RUNS each
#   make valgrind  the end-to-end tests with build/hp2x under valgrind (slow)
#   make bench     benchmarks against hp2ps (slow; not part of check)
#   make bench-serve  --serve's latency to live pages and SSE clients, and its cost
#   make bench-grown  a live page's own drawing time per census, in chromium
#   make soak      watch mode under faults and signals, and a served watch
#                  with 10 pages, 40 SSE clients and Prometheus; SOAK_SECONDS
#                  (default 600)
# Any target takes CC=clang (or another C11 compiler; objects in build/clang),
# WERROR=0 (warnings stay warnings: for release builds) and PORTABLE=1 (POSIX
# only, every platform seam on its fallback; objects in build/portable).

PREFIX  ?= /usr/local
DESTDIR ?=
LIBDIR  ?= $(PREFIX)/lib
BINDIR  ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec
# The full program's directory (hp2x-full: drawing and serving); the lean
# hp2x looks for it there from its own directory (HP2X_LIBEXEC_REL, when
# both are under PREFIX), then where it was built to be installed.
PKGLIBEXECDIR ?= $(LIBEXECDIR)/hp2x
INCLUDEDIR ?= $(PREFIX)/include
CC      ?= cc
WERROR  ?= 1
PORTABLE ?= 0
# Each kind of build has its own objects: build/, build/clang,
# build/portable, build/portable-clang (and the sanitizer pass of check:
# build/asan, build/clang-asan, ...).
VARIANT := $(subst $(eval) ,-,$(strip $(if $(filter 1,$(PORTABLE)),portable) \
             $(if $(findstring clang,$(notdir $(CC))),clang)))
BUILD   ?= build$(if $(VARIANT),/$(VARIANT))
SAN_BUILD := build/$(if $(VARIANT),$(VARIANT)-)asan
PORTABLE_FLAGS := $(if $(filter 1,$(PORTABLE)),-DHP2X_PORTABLE=1)

# The version's one source is include/hp2x.h's three numbers.
version_part = $(shell sed -n 's/^\#define HP2X_VERSION_$(1) *\([0-9][0-9]*\).*/\1/p' include/hp2x.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION := $(VERSION_MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)
SONAME  := libhp2x.so.$(VERSION_MAJOR)

PKGS    := cairo pangocairo pangoft2 pango fontconfig zlib libprotobuf-c
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)
# The tool alone reads executables (--program), with elfutils' libelf; the
# library takes their symbols from its caller and links no libelf.
TOOL_LIBS := $(shell pkg-config --libs libelf 2>/dev/null || echo -lelf)
# The tool's HTTP server (--serve) alone links libmicrohttpd; the library
# does not.
TOOL_CFLAGS := $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
TOOL_LIBS += $(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd) -lpthread

# A warning option this compiler knows, or nothing (gcc and clang differ).
cc_option = $(shell $(CC) -Werror $(1) -fsyntax-only -x c /dev/null \
                >/dev/null 2>&1 && echo $(1))

WARN := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -Wpedantic \
        -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wformat=2 -Wwrite-strings -Wundef -Wcast-qual \
        -Wvla -Wconversion -Wno-sign-conversion
# Unit tests build paths and messages in fixed buffers on purpose.
TEST_WARN := -Wno-missing-prototypes $(call cc_option,-Wno-format-truncation)
OPT  ?= -O2 -g
# Where the library finds its fonts' configuration (DATADIR/fonts/); a
# distribution's package may give it a versioned name (debian/rules).
DATADIR ?= $(PREFIX)/share/hp2x
# Every compile and link takes ALL_CFLAGS: hp2x's own flags, then the
# user's (or dpkg-buildflags') CPPFLAGS and CFLAGS, last so that they win
# (-O0, hardening); the links add LDFLAGS.  CFLAGS itself is left as given,
# so that a sub-make and the tests' own builds see the user's value.
# -ffp-contract=off: no fused multiply-adds, so that the summary's figures
# are the plain IEEE operations the report's script repeats in the page
# (src/write/band_stats.c, report_stats.js) on every machine.
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(PORTABLE_FLAGS) \
        -ffp-contract=off -Iinclude $(PKG_CFLAGS) \
        -DHP2X_DATADIR='"$(DATADIR)"' $(OPT) $(WARN) $(CPPFLAGS) $(CFLAGS)
# The library's own headers (and the generated ones), for the library and
# its tests; not the tool's (TOOL_INC).
LIB_INC = -Isrc -I$(GEN)
# The library exports only what include/hp2x.h declares (its visibility
# pragma); everything else in the library stays inside it.
LIB_CFLAGS := -fvisibility=hidden
LDLIBS  := $(PKG_LIBS) -lm -lpthread

# The tool (src/tool/) links the library; the library is the stage folders
# under src/, each using only those listed before it.
LIB_STAGES := base model read select draw write
# The tool's folders under src/tool/, ranked as the stages are: each uses
# only those listed before it (and the library through hp2x.h); main.c, in
# src/tool/ itself, comes last.  The tool is compiled with -Iinclude and
# -Isrc/tool, never -Isrc: an include of a library header but hp2x.h does
# not build (tests/e2e/test_layers.sh).
TOOL_FOLDERS := util io serve cli run
# Two programs (docs/internals/LAYOUT.md, "Two programs"): the lean hp2x
# links the library's text-only objects and no server, and hands a run that
# draws or serves to the full one, hp2x-full, installed in PKGLIBEXECDIR
# (run/program_lean.c, util/handoff.c); each links one of the program_*.c.
# PORTABLE=1 builds one program, hp2x, the full one.
SPLIT := $(if $(filter 1,$(PORTABLE)),0,1)
LEAN_ONLY_SRC := src/tool/run/program_lean.c
TOOL_SRC := $(filter-out $(LEAN_ONLY_SRC),$(wildcard src/tool/*.c) \
            $(foreach d,$(TOOL_FOLDERS),$(wildcard src/tool/$(d)/*.c)))
TOOL_INC := -Isrc/tool
# The drawing's entries in the library's text-only objects (TEXT_LIB).
TEXT_ONLY_SRC := src/draw/text_only.c
LIB_SRC  := $(filter-out $(TEXT_ONLY_SRC),\
              $(foreach d,$(LIB_STAGES),$(wildcard src/$(d)/*.c)))
LIB_OBJ  := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
PIC_OBJ  := $(LIB_SRC:src/%.c=$(BUILD)/pic/%.o)
TOOL_OBJ := $(TOOL_SRC:src/%.c=$(BUILD)/obj/%.o)
# The files that call cairo, pango or fontconfig: left out of TEXT_LIB.
DRAW_CAIRO_SRC := $(wildcard src/draw/render*.c) src/draw/surface.c
# The lean program: the tool without the server (serve/ but request.c, the
# pure address and route rules the command line reads) nor
# program_full.c; the library's objects without DRAW_CAIRO_SRC's, with
# text_only.c's entries in their place.
LEAN_OBJ := $(filter-out $(BUILD)/obj/tool/run/program_full.o \
              $(filter-out %/request.o,$(filter $(BUILD)/obj/tool/serve/%,$(TOOL_OBJ))),\
              $(TOOL_OBJ)) $(LEAN_ONLY_SRC:src/%.c=$(BUILD)/obj/%.o)
TEXT_LIB_OBJ = $(filter-out $(DRAW_CAIRO_SRC:src/%.c=$(BUILD)/obj/%.o),$(LIB_OBJ)) \
                $(TEXT_ONLY_SRC:src/%.c=$(BUILD)/obj/%.o)
TEXT_LIB := $(BUILD)/libhp2x-text.a
# Unit tests are found by name: tests/unit/STAGE/test_FILE.c tests
# src/STAGE/FILE.c (tests/unit/README.md), built to BUILD/tests/STAGE/.
UNIT_SRC := $(foreach d,$(LIB_STAGES) $(TOOL_FOLDERS:%=tool/%),\
              $(wildcard tests/unit/$(d)/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# The library with the fault-injection hook, for tests only (mk/testhooks.mk).
HOOKS_LIB := $(BUILD)/libhp2x-hooks.a
# Header dependencies are the compiler's own (-MMD -MP): an edit rebuilds
# only the objects that include what changed.
DEPFLAGS := -MMD -MP

.PHONY: FORCE all lib deps deps-node deps-dev check check-one check-package test \
        install uninstall clean fuzz bench valgrind

all: $(BUILD)/hp2x $(if $(filter 1,$(SPLIT)),$(BUILD)/hp2x-full)

# The HTML report's script and style, kept as source files, become C arrays
# in a generated header (mk/embed.sh), shared by every build.
GEN := build/gen
# The report's script is one script joined from files split by what they
# do (src/write/README.md), in this order; so is the live page's, whose
# parts are one function's body (live_swap.js opens it, live_follow.js
# closes it).
REPORT_JS := $(foreach f,base ticks charts draw bands stats table moment pointer main,\
               src/write/report_$(f).js)
LIVE_JS := $(foreach f,swap apply follow,src/write/live_$(f).js)
REPORT_ASSETS := $(REPORT_JS) src/write/report.css $(LIVE_JS)
$(GEN)/report_assets.h: $(REPORT_ASSETS) mk/embed.sh
	@mkdir -p $(dir $@)
	$(Q)sh mk/embed.sh $@ hpx_report_js $(REPORT_JS) -- \
	    hpx_report_css src/write/report.css -- hpx_live_js $(LIVE_JS)
$(BUILD)/obj/write/html_write.o $(BUILD)/pic/write/html_write.o: $(GEN)/report_assets.h

# The pprof output's message (src/write/pprof.proto, our own schema with
# pprof's field numbers) compiled by protobuf-c's protoc-c into C in
# build/gen, part of the library: its package name gives every generated
# global the library's internal prefix (hpx_pprof__).
GEN_LIB_SRC := $(GEN)/pprof.pb-c.c
$(GEN)/%.pb-c.c $(GEN)/%.pb-c.h: src/write/%.proto
	@mkdir -p $(GEN)
	@$(if $(V),,echo "  PROTOC  $<")
	$(Q)protoc-c --c_out=$(GEN) -Isrc/write $<
LIB_OBJ += $(GEN_LIB_SRC:$(GEN)/%.c=$(BUILD)/obj/gen/%.o)
PIC_OBJ += $(GEN_LIB_SRC:$(GEN)/%.c=$(BUILD)/pic/gen/%.o)
PPROF_USERS := pprof pprof_encode pprof_frames
$(foreach k,obj pic,$(PPROF_USERS:%=$(BUILD)/$(k)/write/%.o)): $(GEN)/pprof.pb-c.h
$(BUILD)/obj/gen/%.o: $(GEN)/%.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(LIB_INC) $(LIB_CFLAGS) $(DEPFLAGS) -c $< -o $@
$(BUILD)/pic/gen/%.o: $(GEN)/%.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $< (-fPIC)")
	$(Q)$(CC) $(ALL_CFLAGS) $(LIB_INC) $(LIB_CFLAGS) -fPIC $(DEPFLAGS) -c $< -o $@

lib: $(BUILD)/libhp2x.a $(BUILD)/libhp2x.so $(BUILD)/hp2x.pc

Q := $(if $(V),,@)
# PKGLIBEXECDIR relative to BINDIR ("../libexec/hp2x"), when both are under
# PREFIX, for util/handoff.c; else empty (only the whole path is tried).
LIBEXEC_REL := $(if $(and $(filter $(PREFIX)/%,$(BINDIR)),$(filter $(PREFIX)/%,$(PKGLIBEXECDIR))),$(shell \
    echo '$(patsubst $(PREFIX)/%,%,$(BINDIR))' | sed 's|[^/][^/]*|..|g')/$(patsubst $(PREFIX)/%,%,$(PKGLIBEXECDIR)))
HANDOFF_PATHS := -DHP2X_LIBEXECDIR='"$(PKGLIBEXECDIR)"' -DHP2X_LIBEXEC_REL='"$(LIBEXEC_REL)"'
$(BUILD)/obj/tool/util/handoff.o: ALL_CFLAGS += $(HANDOFF_PATHS)
# Rebuilt when PREFIX, BINDIR or LIBEXECDIR change (as make install's
# test does), like hp2x.pc.
$(BUILD)/obj/tool/util/handoff.o: $(BUILD)/handoff-paths
$(BUILD)/handoff-paths: FORCE
	@mkdir -p $(dir $@)
	$(Q)echo '$(HANDOFF_PATHS)' > $@.new
	$(Q)if cmp -s $@.new $@; then rm -f $@.new; else mv -f $@.new $@; fi
$(BUILD)/obj/tool/%.o: src/tool/%.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(TOOL_INC) $(TOOL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(LIB_INC) $(LIB_CFLAGS) $(DEPFLAGS) -c $< -o $@

# The shared library's objects: position-independent, built only for it.
$(BUILD)/pic/%.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $< (-fPIC)")
	$(Q)$(CC) $(ALL_CFLAGS) $(LIB_INC) $(LIB_CFLAGS) -fPIC $(DEPFLAGS) -c $< -o $@

$(BUILD)/libhp2x.a: $(LIB_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

# libhp2x.so.MAJOR.MINOR.PATCH, soname libhp2x.so.MAJOR (ELF platforms).
$(BUILD)/libhp2x.so.$(VERSION): $(PIC_OBJ)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -o $@ \
	    $(PIC_OBJ) $(LDLIBS) -lpthread
$(BUILD)/libhp2x.so: $(BUILD)/libhp2x.so.$(VERSION)
	$(Q)ln -sf libhp2x.so.$(VERSION) $(BUILD)/$(SONAME)
	$(Q)ln -sf $(SONAME) $@

# pkg-config's description of the installed library, the version from
# hp2x.h.  When LIBDIR and INCLUDEDIR are under PREFIX (the default), it
# names them relative to its own place (${pcfiledir}), so that an installed
# tree works where it is put: under a DESTDIR, or moved.  PC_RELOCATABLE=0
# names them whole, as a distribution's package wants (debian/rules: a
# cross build's sysroot is then added once, and the system directories
# are left out of the flags).  Rewritten when PREFIX, LIBDIR or INCLUDEDIR
# change.
PC_RELOCATABLE ?= 1
PC_LIBDIR_REL := $(patsubst $(PREFIX)/%,%,$(LIBDIR))
ifneq ($(PC_LIBDIR_REL)$(filter-out 1,$(PC_RELOCATABLE)),$(PC_LIBDIR_REL))
PC_PREFIX := $(PREFIX)
else ifeq ($(PC_LIBDIR_REL),$(LIBDIR))
PC_PREFIX := $(PREFIX)
else
PC_PREFIX := $${pcfiledir}/$(shell echo '$(PC_LIBDIR_REL)/pkgconfig' | \
                                  sed 's|[^/][^/]*|..|g')
endif
PC_LIBDIR := $(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))
PC_INCLUDEDIR := $(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))
$(BUILD)/hp2x.pc: mk/hp2x.pc.in include/hp2x.h FORCE
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(PC_PREFIX)|g' -e 's|@LIBDIR@|$(PC_LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(PC_INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    mk/hp2x.pc.in > $@.new
	$(Q)if cmp -s $@.new $@; then rm -f $@.new; else mv -f $@.new $@; fi
FORCE:

# The tool holds the library (libhp2x.a), so that it runs from anywhere;
# TOOL_LINK=shared links it against libhp2x.so instead, as a distribution
# installs it (debian/rules; it then runs from the build tree with
# LD_LIBRARY_PATH=BUILD, which make check-one sets).
TOOL_LINK ?= static
TOOL_LINK_DEP := $(if $(filter shared,$(TOOL_LINK)),$(BUILD)/libhp2x.so,$(BUILD)/libhp2x.a)
FULL_PROGRAM := $(BUILD)/$(if $(filter 1,$(SPLIT)),hp2x-full,hp2x)
$(FULL_PROGRAM): $(TOOL_OBJ) $(TOOL_LINK_DEP)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(TOOL_OBJ) \
	    $(if $(filter shared,$(TOOL_LINK)),-L$(BUILD) -lhp2x,$(BUILD)/libhp2x.a) \
	    $(LDLIBS) $(TOOL_LIBS)

# The lean hp2x (SPLIT): always the text-only objects, whatever TOOL_LINK
# (libhp2x.so draws, so it links cairo), and only the libraries they call.
$(TEXT_LIB): $(TEXT_LIB_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^
LEAN_LIBS := $(shell pkg-config --libs zlib libprotobuf-c 2>/dev/null || \
               echo -lz -lprotobuf-c) \
             $(shell pkg-config --libs libelf 2>/dev/null || echo -lelf) -lm -lpthread
ifeq ($(SPLIT),1)
$(BUILD)/hp2x: $(LEAN_OBJ) $(TEXT_LIB)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(LEAN_OBJ) $(TEXT_LIB) $(LEAN_LIBS)
endif

# The same tool linked against the shared library (it uses hp2x.h's API
# alone): make check runs the command-line and format tests with it.
$(BUILD)/hp2x-shared: $(TOOL_OBJ) $(BUILD)/libhp2x.so
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(TOOL_OBJ) -L$(BUILD) -lhp2x \
	    -Wl,-rpath,'$$ORIGIN' $(LDLIBS) $(TOOL_LIBS)

# The tests' shared helpers (mem_sink.h, parse_helpers.h, ...) are in
# tests/unit itself.
$(BUILD)/tests/%: tests/unit/%.c $(HOOKS_LIB)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(LIB_INC) -Itests/unit -Itests/hooks $(DEPFLAGS) $(TEST_WARN) -o $@ $< \
	    $(HOOKS_LIB) $(LDLIBS) $(CMOCKA_LIBS)

# The tool's tests (tests/unit/tool/FOLDER: test_cli drives the tool's
# option table, test_source the watch's input source, test_request
# --serve's request rules, ...) link the tool's objects but main.o, and see
# the tool's headers as the tool does (TOOL_INC), not the library's.
TOOL_TEST_OBJ := $(filter-out $(BUILD)/obj/tool/main.o,$(TOOL_OBJ))
TOOL_UNIT_BIN := $(filter $(BUILD)/tests/tool/%,$(UNIT_BIN))
$(TOOL_UNIT_BIN): $(BUILD)/tests/%: tests/unit/%.c $(TOOL_TEST_OBJ) $(BUILD)/libhp2x.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(DEPFLAGS) -Itests/unit $(TOOL_INC) -Wno-missing-prototypes -o $@ $< \
	    $(TOOL_TEST_OBJ) $(BUILD)/libhp2x.a $(LDLIBS) $(TOOL_LIBS) $(CMOCKA_LIBS)

# Debian packages for building, testing (real consumers of every format)
# and comparing with the real hp2ps (package ghc).
DEB_PKGS := build-essential pkgconf libcairo2-dev libpango1.0-dev zlib1g-dev \
            libelf-dev \
            libcmocka-dev fontconfig fonts-urw-base35 fonts-dejavu-core \
            fonts-droid-fallback ghostscript poppler-utils librsvg2-bin \
            python3 locales time clang libclang-rt-dev chromium fonts-liberation \
            libmicrohttpd-dev prometheus curl clang-format \
            protobuf-c-compiler libprotobuf-c-dev golang-go \
            dpkg-dev debhelper lintian autopkgtest
# Only for `make bench` and for regenerating the hp2ps test data.
DEV_PKGS := ghc hyperfine valgrind bc strace
deps:
	@if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	export DEBIAN_FRONTEND=noninteractive; \
	$$SUDO apt-get update -qq && \
	$$SUDO apt-get install -y -qq --no-install-recommends $(DEB_PKGS) && \
	{ locale -a 2>/dev/null | grep -qi '^de_DE.utf8$$' || \
	  $$SUDO localedef -i de_DE -c -f UTF-8 de_DE.UTF-8; }
	@$(MAKE) --no-print-directory deps-node

# The browser tests' driver: playwright-core, pinned by
# tests/browser/package-lock.json, installed with the npm that comes with
# Node 20 or later (Debian 12's own nodejs is 18, too old; its npm is never
# used).  It drives Debian's chromium: no browser is downloaded.
deps-node:
	@node=$$(command -v node || true); \
	major=$$([ -n "$$node" ] && "$$node" -p 'process.versions.node.split(".")[0]' || echo 0); \
	if [ "$$major" -lt 20 ]; then \
	  echo "make deps: the browser tests need Node.js 20 or later with its own npm;" \
	       "found $${node:-no node}$${node:+ $$($$node --version)}." \
	       "Install Node 20 (nodejs.org's build), then run make deps again." >&2; \
	  exit 1; \
	fi; \
	cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
	  "$$(dirname "$$node")/npm" ci --no-audit --no-fund --ignore-scripts

deps-dev: deps
	@if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(DEV_PKGS)

test: check-one
# $(BUILD)/build.env tells the tests how the build was made (the install
# test compiles a program against the library with the same compiler and
# sanitizers; the seam test knows which side of each seam to expect).
check-one: all $(BUILD)/hp2x-faults $(BUILD)/hp2x-shared $(UNIT_BIN)
	@printf "CC='%s'\nOPT='%s'\nPORTABLE='%s'\nTOOL_LINK='%s'\n" '$(CC)' \
	    '$(OPT)' '$(PORTABLE)' '$(TOOL_LINK)' > $(BUILD)/build.env
	@$(if $(filter shared,$(TOOL_LINK)),LD_LIBRARY_PATH=$(abspath $(BUILD))) \
	    tests/run-tests.sh $(BUILD)

# The tests a distribution's package build runs (debian/rules'
# dh_auto_test): check-one but the end-to-end tests that need what such a
# build has not, PACKAGE_SKIP: a browser (chromium, and playwright-core or
# speedscope from npm: report, svg_tooltips, serve_browser, pprof_browser,
# moment, serve_census, page_grown), Go (go tool pprof: pprof), Prometheus
# (serve).  No lint, no sanitizer pass; what the others need is
# debian/control's <!nocheck> Build-Depends.
PACKAGE_SKIP := report svg_tooltips serve_browser pprof_browser moment pprof \
                serve serve_census page_grown
check-package:
	@$(MAKE) --no-print-directory check-one E2E_SKIP="$(PACKAGE_SKIP)"

# The style rules first (mk/lint.mk), then the tests; the sanitizer pass
# uses the same compiler (and PORTABLE), in SAN_BUILD.
check:
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory check-one
	@$(MAKE) --no-print-directory check-one BUILD=$(SAN_BUILD) \
	    OPT="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

# Not part of check: every end-to-end test with the normal build's binary
# under memcheck; clean means no error and no definite leak.
valgrind: all
	@tests/valgrind/run.sh $(BUILD)

install: all lib
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(DATADIR)/fonts $(DESTDIR)$(INCLUDEDIR) \
	    $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 755 $(BUILD)/hp2x $(DESTDIR)$(BINDIR)/hp2x
ifeq ($(SPLIT),1)
	install -d $(DESTDIR)$(PKGLIBEXECDIR)
	install -m 755 $(BUILD)/hp2x-full $(DESTDIR)$(PKGLIBEXECDIR)/hp2x-full
endif
	install -m 644 man/hp2x.1 $(DESTDIR)$(PREFIX)/share/man/man1/hp2x.1
	install -m 644 fonts/* $(DESTDIR)$(DATADIR)/fonts/
	install -m 644 include/hp2x.h $(DESTDIR)$(INCLUDEDIR)/hp2x.h
	install -m 644 $(BUILD)/libhp2x.a $(DESTDIR)$(LIBDIR)/libhp2x.a
	install -m 755 $(BUILD)/libhp2x.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libhp2x.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libhp2x.so
	install -m 644 $(BUILD)/hp2x.pc $(DESTDIR)$(LIBDIR)/pkgconfig/hp2x.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/hp2x $(DESTDIR)$(PREFIX)/share/man/man1/hp2x.1
	rm -f $(DESTDIR)$(PKGLIBEXECDIR)/hp2x-full
	-rmdir $(DESTDIR)$(PKGLIBEXECDIR) 2> /dev/null
	rm -rf $(DESTDIR)$(DATADIR)
	rm -f $(DESTDIR)$(INCLUDEDIR)/hp2x.h $(DESTDIR)$(LIBDIR)/libhp2x.a \
	    $(DESTDIR)$(LIBDIR)/libhp2x.so $(DESTDIR)$(LIBDIR)/$(SONAME) \
	    $(DESTDIR)$(LIBDIR)/libhp2x.so.$(VERSION) \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/hp2x.pc

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(PIC_OBJ:.o=.d) $(TOOL_OBJ:.o=.d) $(UNIT_BIN:=.d) \
    $(LEAN_ONLY_SRC:src/%.c=$(BUILD)/obj/%.d) $(TEXT_ONLY_SRC:src/%.c=$(BUILD)/obj/%.d)
include mk/testhooks.mk
include mk/lint.mk
include mk/package.mk
-include mk/tsan.mk
-include mk/fuzz.mk
-include mk/bench.mk
-include mk/soak.mk
