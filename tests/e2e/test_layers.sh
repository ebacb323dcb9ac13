#!/usr/bin/env bash
# The source tree keeps its shape: the stage folders under src/ use only
# earlier stages in the Makefile's LIB_STAGES (by include, by call, and no
# header declaring a later stage's function), no two files call each other
# around a loop, no function is over 60 lines, no file over 600, no private
# header over 200 (docs/internals/LAYOUT.md).  Then, as curl's test1185 runs
# its checker on a file that breaks every rule, each kind of fault is
# planted in a scratch copy of src/ and must be refused by name, alone and
# all together.  And that the tool includes
# no library header but hp2x.h.
. "$(dirname "$0")/lib.sh"
check=(python3 "$TOP/tests/tools/layer-check.py" --max-function 60
       --max-file 600 --makefile "$TOP/Makefile")
expect_status 0 "src/ keeps its layers" -- "${check[@]}" "$TOP/src"
sed 's/^/    /' "$CAP/out"
# The Makefile builds the folders in docs/internals/LAYOUT.md's order.
stages=$(sed -n 's/^LIB_STAGES *:= *//p' "$TOP/Makefile")
[ "$stages" = "base model read select draw write" ] && ok ||
  fail "LIB_STAGES is '$stages'"
for d in $stages; do
  [ -f "$TOP/src/$d/README.md" ] && ok || fail "src/$d has no README.md"
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
|^upward declaration: model/model.h declares hpx_bands_fill of select/bands.c"
  "an unranked folder|extra/x.c|int hpx_extra(void); int hpx_extra(void) { return 0; }
|^unranked folder: extra"
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
# The tool includes, of the library's headers, only hp2x.h: every quoted
# include in src/tool names hp2x.h or a header of the tool's own.
bad=$(cd "$TOP/src/tool" && grep -H '^#include "' ./*.c ./*.h |
      sed 's/^\.\///' | while IFS= read -r line; do
        h=$(echo "$line" | sed 's/.*#include "\([^"]*\)".*/\1/')
        [ "$h" = hp2x.h ] || [ -f "$h" ] || echo "$line"
      done)
[ -z "$bad" ] && ok || fail "the tool includes library headers: $bad"
finish
