# shellcheck shell=bash disable=SC2154,SC2034  # W, faults, bad, ...: soak.sh's
# soak_checks.sh -- the soak's verdicts (sourced by tests/soak/soak.sh):
# each fault said once (said_once), and issue 42's criteria, each passed
# or FAILED (criteria).

# said_once: each fault's messages, each said exactly once per fault of
# its kind by each watcher it touched (stderr has no times, so they are
# counted over the run).  A pause is no error: nothing is said.  Sets
# said_ok (faults whose messages came as many times as their kind) and
# unsaid (what did not); bad=1 then.
said_once() {
  local at which what i n want k
  local -a keys=() pats=() files=()
  declare -A wants=() of=()
  # the fault -> "file|pattern" it must say (at most, for '?'-files)
  while read -r at which what; do
    case $what in
      ".hp cut"* | ".hp truncated"*) keys+=("pdf.err|w.hp: file shrank; starting over") ;;
      ".hp replaced"*) keys+=("pdf.err|w.hp: file replaced; starting over") ;;
      "eventlog cut"* | "eventlog truncated"*) keys+=("svg.err|w.eventlog: file shrank; starting over") ;;
      "eventlog replaced"*) keys+=("svg.err|w.eventlog: file replaced; starting over") ;;
      "output directory full"*)
        keys+=("pdf.err|live.pdf: write failed: No space left on device" "pdf.err|live.pdf: written again") ;;
      "service up"*) keys+=("serve.err|: not up yet" "serve.err|: connected$") ;;
      *) keys+=("-") ;;
    esac
    keys+=("/")
  done < "$fault_log"
  for k in "${keys[@]}"; do
    case $k in -|/) ;; *) wants[$k]=$(( ${wants[$k]:-0} + 1 )) ;; esac
  done
  for k in "${!wants[@]}"; do
    of[$k]=$(grep -c -- "${k#*|}" "$W/${k%%|*}")
  done
  said_ok=0 unsaid=()
  local ok=1 name
  i=0
  exec 3< "$fault_log"
  for k in "${keys[@]}"; do
    case $k in
      -) ;;
      /) read -r at which name <&3
         [ $ok = 1 ] && said_ok=$((said_ok + 1)) || unsaid+=("$name;")
         ok=1 ;;
      *) [ "${of[$k]}" = "${wants[$k]}" ] ||
           { ok=0; unsaid+=("'${k#*|}' ${of[$k]} times in ${k%%|*} for ${wants[$k]}:"); } ;;
    esac
  done
  exec 3<&-
  # the SVG watcher may not have drawn while the disk was full: at most once
  n=$(grep -c 'live.svg: write failed' "$W/svg.err")
  [ "$n" -le 1 ] && [ "$(grep -c 'live.svg: written again' "$W/svg.err")" = "$n" ] ||
    { unsaid+=("SVG watcher: 'write failed' $n times"); said_ok=$((said_ok - 1)); }
  [ "$said_ok" = "$faults" ] || bad=1
}

# criteria: issue 42's pass criteria for the hour's soak, one row each.
criteria() {
  local rss pages scr fa outs pp th
  rss=$(echo "$serve_rss" | awk '{print $1}')
  pages=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
bad = [c["name"] for c in r["clients"] if c.get("missing", 1) != 0]
print("yes" if not bad and not r["stopped"] else "NO (%s)" % ", ".join(bad or r["stopped"]))' \
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
  echo "| every page (and SSE client) received every census, by its count | $pages |"
  echo "| every scrape answered | $scr |"
  echo "| every fault said once and survived | $fa |"
  echo "| final outputs = one-shot render (the --tee file's, the files') | $outs |"
  echo "| every pprof fetch read | $pp |"
  echo "| thinning started within 20 minutes (at $th s) | $([ "$th" != - ] && [ "$th" -le 1200 ] && echo yes || echo "no$([ "$SOAK_SECONDS" -lt 1200 ] && echo ': a short run')") |"
}
