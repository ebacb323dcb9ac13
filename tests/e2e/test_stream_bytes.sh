#!/usr/bin/env bash
# The picture depends only on the bytes, not on how they arrived: the final
# --watch output of a stream, in every format (PS, EPS, PDF, SVG, PNG, CSV,
# .hp), equals the one-shot render of the same bytes, byte for byte.  The
# bytes come as a growing file (test_stream_bytes_file.sh), through a pipe
# (--watch -) and from a service's socket (tests/tools/serve_stream.py;
# eventlogs only), in chunks
# of 1 byte, 13 bytes, 512 bytes, 4 KiB, 64 KiB or random sizes, with
# renders at every 0.02 s between them: a .hp profile (samples/) and a real
# GHC 9.10 eventlog (tests/data/live); one byte at a time, smaller ones of
# each kind (12 and 14 KB: a write per byte costs about 100 us).
# Nothing is normalised: the title is the profile's own (its JOB, or the
# program's name in the eventlog), the same however the bytes came, and
# SOURCE_DATE_EPOCH (lib.sh) dates PDF and PS.  Without it a PDF carries
# the clock: the one run below without it compares after replacing only
# the /CreationDate and /ModDate values (same length, so offsets hold).
# Nothing here waits on a clock (a pipe or a socket is read to its end),
# so it runs beside another test:
# run-tests.sh: with others
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/e2e/stream_bytes_lib.sh"
transports pipe socket

# PDF without SOURCE_DATE_EPOCH: equal but for the dates (the clock),
# read with its streams inflated (cairo 1.18 compresses the objects).
pdf_dates() {
  python3 "$TOP/tests/tools/pdfstats.py" inflate "$1" |
    sed -E 's/\((D:[0-9]{14})[^)]*\)/(D:date)/g'
}
(
  unset SOURCE_DATE_EPOCH
  "$HP2X" -q "$EV" -o clock-once.pdf
  $GROW "$EV" /dev/stdout --seed 5 --min 1 --max 3000 --delay 0.001 |
    "$HP2X" --watch --interval=0.02 -q --from-eventlog - -o clock.pdf
) && ok || fail "PDF without SOURCE_DATE_EPOCH: exit status"
pdf_dates clock.pdf | grep -aq '/CreationDate (D:date)' && ok ||
  fail "PDF without SOURCE_DATE_EPOCH: no date"
cmp -s <(pdf_dates clock.pdf) <(pdf_dates clock-once.pdf) && ok ||
  fail "PDF without SOURCE_DATE_EPOCH: differs beyond its dates"

ls -A | grep -q '^\.' && fail "temporary files left: $(ls -A | grep '^\.')" || ok
finish
