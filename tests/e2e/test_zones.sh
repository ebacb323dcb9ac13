#!/usr/bin/env bash
# An eventlog's DATE and the time zone.  GHC writes a .hp's DATE in the
# local time of the machine that ran the program; hp2x gives an eventlog's
# DATE the same way, from its WALL_CLOCK_TIME event, in the zone the tool
# passes the library (which reads no TZ): the local one, or UTC when
# SOURCE_DATE_EPOCH is set, so that the same eventlog then gives the same
# bytes in every zone.  POSIX TZ strings, not zone names: without tzdata a
# name silently means UTC, and the test could not fail.
. "$(dirname "$0")/lib.sh"
cd "$T"
ev=$TOP/samples/profiles/leak.hc.eventlog
zones=(UTC0 JST-9 'EST5EDT,M3.2.0,M11.1.0')
date_in() { # zone: the DATE line of the eventlog's .hp under it
  TZ=$1 "$HP2X" "$ev" -o - --format=hp | grep '^DATE'
}

# 1. Without SOURCE_DATE_EPOCH: local time, as GHC writes it.  The run
# that made the eventlog wrote its .hp in UTC; JST is 9 hours ahead, and
# New York 5 behind on this date (November, after DST's end).
(
  unset SOURCE_DATE_EPOCH
  utc=$(date_in UTC0) jst=$(date_in JST-9) est=$(date_in "${zones[2]}")
  ghc=$(grep '^DATE' "${ev%.eventlog}.hp")
  [ "$utc" = "$ghc" ] && ok || fail "UTC0: $utc, GHC's .hp of the run: $ghc"
  python3 - "$utc" "$jst" "$est" <<'PY' && ok || fail "zones: $utc / $jst / $est"
import sys, datetime
fmt = 'DATE "%a %b %d %H:%M %Y"'
def parse(s):  # ctime pads the day with a space; strptime takes either
    return datetime.datetime.strptime(s.replace('  ', ' 0'), fmt)
u, j, e = (parse(s) for s in sys.argv[1:])
assert j - u == datetime.timedelta(hours=9), (u, j)
assert u - e == datetime.timedelta(hours=5), (u, e)
PY
  finish > /dev/null
) || fail "dates in local time"

# 2. With SOURCE_DATE_EPOCH: the same bytes in every zone, every format
# that shows or keeps DATE.
for fmt in hp svg ps pdf csv; do
  for z in "${zones[@]}"; do
    TZ=$z "$HP2X" "$ev" -o "out.$fmt" 2> err.txt || fail "$fmt under $z: $(cat err.txt)"
    mv "out.$fmt" "$(echo "$z" | tr -c 'A-Za-z0-9\n' _).$fmt"
  done
  first=$(echo "${zones[0]}" | tr -c 'A-Za-z0-9\n' _).$fmt
  for z in "${zones[@]:1}"; do
    other=$(echo "$z" | tr -c 'A-Za-z0-9\n' _).$fmt
    cmp -s "$first" "$other" && ok || fail "$fmt differs between ${zones[0]} and $z"
  done
done
[ "$(grep '^DATE' UTC0.hp)" = "$(grep '^DATE' "${ev%.eventlog}.hp")" ] && ok ||
  fail "DATE with SOURCE_DATE_EPOCH: $(grep '^DATE' UTC0.hp), not UTC's"
finish
