#!/usr/bin/env bash
# The source tree keeps its shape: the stage folders under src/ use only
# earlier stages in the Makefile's LIB_STAGES, and the tool's folders under
# src/tool/ only earlier ones in its TOOL_FOLDERS (by include, by call, and
# no header declaring a later folder's function), no two files call each
# other around a loop, no function is over 60 lines, no file over 600, no
# private header over 200, no struct of the tool over 20 members
# (docs/internals/LAYOUT.md).  Then, as curl's test1185 runs its checker on
# a file that breaks every rule, each kind of fault is planted in a
# scratch copy of src/ and must be refused by name, alone and all
# together.  And the tool's fences: src/tool/ holds main.c alone, each
# folder has its README, the tool includes no library header but hp2x.h,
# and the build refuses one (the tool is compiled without -Isrc): a
# planted include fails to compile.
. "$(dirname "$0")/lib.sh"
check=(python3 "$TOP/tests/tools/layer-check.py" --max-function 60
       --max-file 600 --max-fields 20 --makefile "$TOP/Makefile")
expect_status 0 "src/ keeps its layers" -- "${check[@]}" "$TOP/src"
sed 's/^/    /' "$CAP/out"
# The Makefile builds the folders in docs/internals/LAYOUT.md's order.
stages=$(sed -n 's/^LIB_STAGES *:= *//p' "$TOP/Makefile")
[ "$stages" = "base model read select draw write" ] && ok ||
  fail "LIB_STAGES is '$stages'"
for d in $stages; do
  [ -f "$TOP/src/$d/README.md" ] && ok || fail "src/$d has no README.md"
done
tool_folders=$(sed -n 's/^TOOL_FOLDERS *:= *//p' "$TOP/Makefile")
[ "$tool_folders" = "util io serve cli run" ] && ok ||
  fail "TOOL_FOLDERS is '$tool_folders'"
for d in . $tool_folders; do
  [ -f "$TOP/src/tool/$d/README.md" ] && ok || fail "src/tool/$d has no README.md"
done
# src/tool/ itself holds main.c and its README alone: the rest is in folders,
# each of which the Makefile builds.
own=$(cd "$TOP/src/tool" && find . -maxdepth 1 -type f ! -name main.c ! -name README.md)
[ -z "$own" ] && ok || fail "src/tool/ holds files of its own: $own"
for d in "$TOP"/src/tool/*/; do
  case " $tool_folders " in *" $(basename "$d") "*) ok ;;
    *) fail "src/tool/$(basename "$d") is not in TOOL_FOLDERS" ;; esac
done

# Each plant: a name, the file it edits, the text appended to it, and the
# fault line the checker must print for it.
plants=(
  "read->select include+call|read/hp_parse.c|#include \"select/palette.h\"
void hpx_plant_rs(void); void hpx_plant_rs(void) { hpx_palette_assign(0, 0, 0); }
|^upward include: read/hp_parse.c includes select/palette.h
^upward call: read/hp_parse.c calls hpx_palette_assign of select/palette.c"
  "select->draw include+call|select/bands.c|#include \"draw/layout.h\"
void hpx_plant_sd(void); void hpx_plant_sd(void) { hpx_layout_free(0); }
|^upward include: select/bands.c includes draw/layout.h
^upward call: select/bands.c calls hpx_layout_free of draw/layout.c"
  "model->read call|model/model.c|void hpx_hp_parse_free(void *h);
void hpx_plant_mr(void); void hpx_plant_mr(void) { hpx_hp_parse_free(0); }
|^upward call: model/model.c calls hpx_hp_parse_free of read/hp_parse.c"
  "base->model include|base/err.c|#include \"model/model.h\"
|^upward include: base/err.c includes model/model.h"
  "draw->write call|draw/render.c|void hpx_plant_dw(void); void hpx_plant_dw(void) { hp2x_write_csv(0, 0, 0, 0, 0); }
|^upward call: draw/render.c calls hp2x_write_csv of write/csv_write.c"
  "a lower header declaring a later function|model/model.h|void hpx_bands_fill(void);
|^upward declaration: model/model.h declares hpx_bands_fill of select/bands_fill.c"
  "an unranked folder|extra/x.c|int hpx_extra(void); int hpx_extra(void) { return 0; }
|^unranked folder: extra"
  "tool/util->tool/cli include+call|tool/util/numbers.c|#include \"cli/cli.h\"
void numbers_plant(void); void numbers_plant(void) { cli_print_version(); }
|^upward include: tool/util/numbers.c includes tool/cli/cli.h
^upward call: tool/util/numbers.c calls cli_print_version of tool/cli/help.c"
  "tool/io->tool/run call|tool/io/tee.c|void tee_plant(void); void tee_plant(void) { run_once(0); }
|^upward call: tool/io/tee.c calls run_once of tool/run/once.c"
  "tool/serve including the command line|tool/serve/guard.c|#include \"cli/args.h\"
|^upward include: tool/serve/guard.c includes tool/cli/args.h"
  "the library calling the tool|model/census.c|void hpx_plant_mt(void); void hpx_plant_mt(void) { msg_errorf(0); }
|^upward call: model/census.c calls msg_errorf of tool/util/messages.c"
  "a tool folder calling main.c|tool/run/entry.c|void tool_plant(void); void tool_plant(void) { main(0, 0); }
|^upward call: tool/run/entry.c calls main of tool/main.c"
  "a tool struct over 20 members|tool/io/tee.h|struct planted_big { int m1, m2, m3, m4, m5, m6, m7, m8, m9, m10;
  int m11, m12, m13, m14, m15, m16, m17, m18, m19, m20; double m21; };
|^big struct: tool/io/tee.h:[0-9]+ planted_big has 21 members \\(over 20\\)"
  "two files calling each other|model/view.c|void hpx_plant_a(void);
void hpx_plant_a(void) {
  hpx_plant_b();
}
|^file circle: .*model/view.c"
)
plant() { # SRC_COPY, FILE, TEXT
  mkdir -p "$(dirname "$1/$2")"; printf '%s\n' "$3" >> "$1/$2"
}
wants=()
mkdir "$T/all"; cp -r "$TOP/src" "$T/all/src"
for p in "${plants[@]}"; do
  IFS='|' read -r name file text want <<< "$(printf '%s' "$p" | tr '\n' '\a')"
  text=$(printf '%s' "$text" | tr '\a' '\n'); want=$(printf '%s' "$want" | tr '\a' '\n')
  rm -rf "$T/one"; mkdir "$T/one"; cp -r "$TOP/src" "$T/one/src"
  plant "$T/one/src" "$file" "$text"
  plant "$T/all/src" "$file" "$text"
  [ "$file" = model/view.c ] && plant "$T/one/src" model/model.c \
    'void hpx_plant_b(void) {
  hpx_plant_a();
}' &&
    plant "$T/all/src" model/model.c 'void hpx_plant_b(void) {
  hpx_plant_a();
}'
  expect_status 1 "$name is refused" -- "${check[@]}" "$T/one/src"
  while IFS= read -r w; do
    wants+=("$w")
    grep -qE -- "$w" "$CAP/out" && ok ||
      fail "$name: no line /$w/ in: $(cat "$CAP/out")"
  done <<< "$want"
done
# A long function and a long file, in the copy that breaks every rule.
{ echo 'void hpx_plant_long(void) {'
  for i in $(seq 600); do echo "  (void)$i;"; done; echo '}'; } >> "$T/all/src/write/output.c"
wants+=("^long function: write/output.c:hpx_plant_long" "^long file: write/output.c")
expect_status 1 "a tree breaking every rule is refused" -- "${check[@]}" "$T/all/src"
for w in "${wants[@]}"; do
  grep -qE -- "$w" "$CAP/out" && ok || fail "every rule at once: no line /$w/"
done
# A struct of 20 members written every way C allows (several names a
# declaration, function pointers, arrays, a nested struct, a union, bit
# fields) is not refused; with one name more it is.
cp -r "$TOP/src" "$T/fields"
cat >> "$T/fields/tool/io/tee.h" <<'EOF'
struct planted_twenty {
  int a, b, c;                   /* 3 */
  int (*cmp)(const void *, const void *), (*hash)(const char *, size_t);
  char name[4 * (2 + 1)], *p[3]; /* 7 */
  struct { int x, y; } point;    /* 8 */
  union { long l; double d; } u; /* 9 */
  unsigned f1 : 1, f2 : 3;       /* 11 */
  const char *(*help)(void);     /* 12 */
  double d1, d2, d3, d4, d5, d6, d7, d8;
};
EOF
expect_status 0 "a struct of 20 members is not refused" -- "${check[@]}" "$T/fields"
sed -i 's|double d1, d2,|double d0, d1, d2,|' "$T/fields/tool/io/tee.h"
expect_status 1 "a struct of 21 members is refused" -- "${check[@]}" "$T/fields"
grep -qE '^big struct: tool/io/tee.h:[0-9]+ planted_twenty has 21 members' "$CAP/out" &&
  ok || fail "21 members: $(cat "$CAP/out")"
[ "$(grep -c '^big struct' "$CAP/out")" = 1 ] && ok ||
  fail "more than the planted struct refused: $(cat "$CAP/out")"

# The tool includes, of the library's headers, only hp2x.h: every quoted
# include in src/tool names hp2x.h, a header of the includer's folder or
# FOLDER/NAME.h of the tool's.
bad=$(cd "$TOP/src/tool" && grep -H '^#include "' ./*.c ./*/*.c ./*/*.h |
      sed 's/^\.\///' | while IFS= read -r line; do
        f=${line%%:*}
        h=$(echo "$line" | sed 's/.*#include "\([^"]*\)".*/\1/')
        [ "$h" = hp2x.h ] || [ -f "$(dirname "$f")/$h" ] || [ -f "$h" ] ||
          echo "$line"
      done)
[ -z "$bad" ] && ok || fail "the tool includes library headers: $bad"
# And the build refuses one: the tool is compiled with -Iinclude and
# -Isrc/tool only, so a planted include of a library header does not
# compile, where the same file without it does (a copy of the tree with a
# build folder of its own).
mkdir -p "$T/tree"
cp -r "$TOP/src" "$TOP/include" "$TOP/mk" "$TOP/Makefile" "$T/tree/"
fence() { # OBJECT: make builds it in the copy; its output in $T/fence.out
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$T/tree" \
    --no-print-directory BUILD="$T/tree/build" "$T/tree/build/obj/$1" \
    > "$T/fence.out" 2>&1
}
fence tool/util/numbers.o && ok ||
  fail "the copy does not build: $(head -5 "$T/fence.out")"
for h in model/model.h base/base.h select/bands_int.h; do
  cp "$TOP/src/tool/util/numbers.c" "$T/tree/src/tool/util/numbers.c"
  sed -i "0,/^#include/s|^#include|#include \"$h\"\n#include|" \
    "$T/tree/src/tool/util/numbers.c"
  grep -q "^#include \"$h\"" "$T/tree/src/tool/util/numbers.c" ||
    fail "not planted: $h"
  if fence tool/util/numbers.o; then
    fail "the tool compiled with an include of $h"
  else
    grep -qE "$h(: No such file|' file not found)" "$T/fence.out" && ok ||
      fail "$h: not refused for want of the header: $(head -5 "$T/fence.out")"
  fi
done
finish
