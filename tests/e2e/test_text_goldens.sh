#!/usr/bin/env bash
# The samples' text outputs are the committed goldens (tests/golden): the
# binary under test writes every sample's summary, CSV and .hp again
# (tests/tools/text-goldens.sh) and every byte equals the kept file, or
# the kept sha256 for one over 100 KB.  A change meant to alter them
# regenerates them (tests/golden/README.md) and shows in its diff.
. "$(dirname "$0")/lib.sh"
gold=$TOP/tests/golden/samples
n=$(find "$gold" -type f \( -name '*.txt' -o -name '*.csv' -o -name '*.hp' \) | wc -l)
k=$(wc -l < "$gold/SHA256SUMS")
samples=$(ls "$TOP"/samples/profiles/*.hp "$TOP"/samples/profiles/*.eventlog \
          "$TOP"/samples/profiles/*.eventlog.gz | wc -l)
[ $((n + k)) -eq $((3 * samples)) ] && ok ||
  fail "$n goldens and $k digests for $samples samples (want 3 each): regenerate them"
"$TOP/tests/tools/text-goldens.sh" "$HP2X" "$T/now" 2> "$T/err.txt" && ok ||
  fail "writing the outputs failed: $(head -3 "$T/err.txt")"
if diff -r "$gold" "$T/now" > "$T/diff.txt"; then ok; else
  fail "text outputs differ from tests/golden/samples ($(grep -c '^diff\|^Only' "$T/diff.txt") files):
$(grep '^diff\|^Only' "$T/diff.txt" | head -10)
$(head -20 "$T/diff.txt")"
fi
finish
