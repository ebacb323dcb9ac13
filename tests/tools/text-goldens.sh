#!/usr/bin/env bash
# text-goldens.sh HP2X OUTDIR -- writes the text outputs of every sample
# profile (samples/profiles: .hp, .eventlog, .eventlog.gz read as the
# .eventlog it holds) into OUTDIR as the committed goldens are kept
# (tests/golden/samples, compared by tests/e2e/test_text_goldens.sh):
# NAME.txt (the --summary table), NAME.csv and NAME.hp, each kept whole
# when under 100 KB, else only its sha256 in OUTDIR/SHA256SUMS.  Inputs
# are named by their file name alone, as the summary prints them.
# Regenerate the goldens after a change meant to alter them with
#   tests/tools/text-goldens.sh build/hp2x tests/golden/samples
# and commit the diff with the change.  Needs bash, sha256sum, zcat.
set -u
hp2x=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000 LC_ALL=C.UTF-8 TZ=UTC0
export HP2X_FONTS_CONF="$top/fonts/fonts.conf"
find "$out" -maxdepth 1 -type f \( -name '*.txt' -o -name '*.csv' -o \
  -name '*.hp' -o -name SHA256SUMS \) -delete
limit=$((100 * 1024))
status=0
for f in "$top"/samples/profiles/*.hp "$top"/samples/profiles/*.eventlog \
         "$top"/samples/profiles/*.eventlog.gz; do
  name=$(basename "${f%.gz}")
  case $f in *.gz) zcat "$f" > "$work/$name" ;; *) ln -sf "$f" "$work/$name" ;; esac
  for ext in txt csv hp; do
    if ! (cd "$work" && "$hp2x" -q "$name" -o "$name.$ext" 2> "$name.err"); then
      echo "text-goldens: $name.$ext: $(head -1 "$work/$name.err")" >&2
      status=1
      continue
    fi
    if [ "$(wc -c < "$work/$name.$ext")" -lt $limit ]; then
      mv "$work/$name.$ext" "$out/"
    else
      (cd "$work" && sha256sum "$name.$ext") >> "$out/SHA256SUMS"
      rm -f "$work/$name.$ext"
    fi
  done
  rm -f "$work/$name" "$work/$name.err"
done
exit $status
