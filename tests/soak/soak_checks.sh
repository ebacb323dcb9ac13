# shellcheck shell=bash disable=SC2154,SC2034  # W, faults, bad, ...: soak.sh's
# soak_checks.sh -- the soak's verdicts (sourced by tests/soak/soak.sh):
# each fault said once (said_once), and issue 42's criteria, each passed
# or FAILED (criteria).

# said_once: each fault's messages, each said exactly once per fault of
# its kind by each watcher it touched (stderr has no times, so they are
# counted over the run).  A pause is no error: nothing is said.  A cut
# .hp may go unsaid: the feeder refills it with the same bytes at once,
# and a watcher that looks only after that sees no change; at most once
# then.  Sets said_ok (faults whose messages came as many times as their
# kind allows) and unsaid (what did not); bad=1 then.
said_once() {
  local at which what k n
  local -a keys=()
  local -A lo=() hi=() of=()
  # each fault -> "lo|file|pattern" it must say (lo 0: at most once), then "/"
  while read -r at which what; do
    case $what in
      ".hp cut"*) keys+=("0|pdf.err|w.hp: file shrank; starting over") ;;
      ".hp truncated"*) keys+=("1|pdf.err|w.hp: file shrank; starting over") ;;
      ".hp replaced"*) keys+=("1|pdf.err|w.hp: file replaced; starting over") ;;
      "eventlog cut"*) keys+=("0|svg.err|w.eventlog: file shrank; starting over") ;;
      "eventlog truncated"*) keys+=("1|svg.err|w.eventlog: file shrank; starting over") ;;
      "eventlog replaced"*) keys+=("1|svg.err|w.eventlog: file replaced; starting over") ;;
      "output directory full"*)
        keys+=("1|pdf.err|live.pdf: write failed: No space left on device" "1|pdf.err|live.pdf: written again"
               "0|svg.err|live.svg: write failed: No space left on device" "0|svg.err|live.svg: written again") ;;
      "service up"*) keys+=("1|serve.err|: not up yet" "1|serve.err|: connected$") ;;
    esac
    keys+=("/")
  done < "$fault_log"
  for k in "${keys[@]}"; do
    [ "$k" = / ] && continue
    lo[${k#*|}]=$(( ${lo[${k#*|}]:-0} + ${k%%|*} )); hi[${k#*|}]=$(( ${hi[${k#*|}]:-0} + 1 ))
  done
  for k in "${!hi[@]}"; do
    n=$(grep -c -- "${k#*|}" "$W/${k%%|*}")
    [ "$n" -ge "${lo[$k]}" ] && [ "$n" -le "${hi[$k]}" ] && of[$k]=ok || of[$k]=$n
  done
  said_ok=0 unsaid=()
  local ok=1
  exec 3< "$fault_log"
  for k in "${keys[@]}"; do
    if [ "$k" = / ]; then
      read -r at which what <&3
      [ $ok = 1 ] && said_ok=$((said_ok + 1)) || unsaid+=("$what;")
      ok=1
    elif [ "${of[${k#*|}]}" != ok ]; then
      k=${k#*|}
      ok=0; unsaid+=("'${k#*|}' ${of[$k]} times in ${k%%|*}, wanted ${lo[$k]}..${hi[$k]}:")
    fi
  done
  exec 3<&-
  [ "$said_ok" = "$faults" ] || bad=1
}

# criteria: issue 42's pass criteria for the hour's soak, one row each.
criteria() {
  local rss pages scr fa outs pp th
  rss=$(echo "$serve_rss" | awk '{print $1}')
  pages=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
pages = [c for c in r["clients"] if c["name"].startswith("page")]
bad = [c["name"] for c in pages if c.get("missing", 1) != 0]
print("yes" if pages and not bad and not r["stopped"] else "NO (%s)" % ", ".join(bad or r["stopped"] or ["no page"]))' \
    "$W/serve/clients.json" 2> /dev/null || echo "NO (no report from the clients)")
  [ "$serve_scrape_ok" = yes ] && scr=yes || scr=NO
  [ "$said_ok" = "$faults" ] && [ "$survived" = "$faults" ] && fa=yes || fa=NO
  case "$same_pdf $same_svg $serve_same $serve_tee" in
    *NO*) outs=NO ;; *) outs=yes ;;
  esac
  [ "$pprof_made" -gt 0 ] && [ "$pprof_made" = "$pprof_ok" ] && pp=yes || pp=NO
  th=$(echo "$serve_rss" | awk '{print $9}')
  echo
  echo "| criterion (issue 42) | passed |"
  echo "|---|---|"
  echo "| served watch's RSS grew < 5 % over the last 40 min (2/3 of the run) | $rss |"
  echo "| every page received every census, by its count (and every client followed) | $pages |"
  echo "| every scrape answered | $scr |"
  echo "| every fault said once and survived | $fa |"
  echo "| final outputs = one-shot render (the --tee file's, the files') | $outs |"
  echo "| every pprof fetch read | $pp |"
  echo "| thinning started within 20 minutes (at $th s) | $([ "$th" != - ] && [ "$th" -le 1200 ] && echo yes || echo "no$([ "$SOAK_SECONDS" -lt 1200 ] && echo ': a short run')") |"
}
