# serve_lib.sh -- helpers of the --serve tests (sourced after lib.sh).

# serve_start ERRFILE ARGS...: starts "$HP2X" ARGS in the background
# (SERVED_PID), waits for its "serving" line (at most 10 s) and sets PORT.
serve_start() {
  local err=$1; shift
  SERVED_ERR=$err
  : > "$err"
  "$HP2X" "$@" 2> "$err" & SERVED_PID=$!
  local i=0
  PORT=
  while [ $i -lt 200 ]; do
    PORT=$(sed -n 's|^hp2x: serving http://.*:\([0-9][0-9]*\)/$|\1|p' "$err")
    [ -n "$PORT" ] && return 0
    kill -0 $SERVED_PID 2> /dev/null || return 1
    i=$((i + 1)); sleep 0.05
  done
  return 1
}

# serve_need_curl: the test says SKIPPED and ends where curl is missing.
serve_need_curl() {
  command -v curl > /dev/null && return 0
  echo "SKIPPED: no curl (make deps installs it)"; exit 0
}

# serve_poll_metrics HOST REGEX TRIES: polls /metrics every 0.05 s, at most
# TRIES times, until a line matches REGEX; fails when the server has ended.
serve_poll_metrics() {
  local host=$1 regex=$2 tries=$3 i=0
  while [ $i -lt "$tries" ]; do
    curl -s -g -m 2 "http://$host:$PORT/metrics" | grep -q "$regex" && return 0
    kill -0 $SERVED_PID 2> /dev/null || return 1
    i=$((i + 1)); sleep 0.05
  done
  return 1
}

# serve_wait_census [HOST]: waits (at most 20 s) until /metrics counts a
# census.  The server answers from the start, while a one-shot run still
# reads and draws its input (seconds in a sanitizer's build): a test of what
# it serves waits for it.  HOST defaults to 127.0.0.1.
serve_wait_census() {
  serve_poll_metrics "${1:-127.0.0.1}" '^hp2x_censuses_total [1-9]' 400
}

# serve_wait_total N: waits (at most 60 s) until /metrics counts N censuses,
# a whole profile published.
serve_wait_total() {
  serve_poll_metrics 127.0.0.1 "^hp2x_censuses_total $1\$" 1200
}

# serve_big_profile N: serves (in the current folder) a profile of N
# censuses x 800 bands made by bench/gen.py, whose page is slow to draw,
# once all N are published; its messages go to ./err.
serve_big_profile() {
  python3 "$TOP/bench/gen.py" shape "$TOP/samples/profiles/leak.hT.hp" "$1" 800 big.hp ||
    fail "gen.py"
  serve_start err -q big.hp -m0 -t0 --serve=0 || fail "no serving line: $(cat err)"
  serve_wait_total "$1" || fail "the profile was not published: $(cat err)"
}

# serve_stop: SIGTERM (a background job ignores SIGINT), then its exit
# status in SERVED_RC; any but 0 (a sanitizer's report included) fails,
# showing the end of what the server printed.
serve_stop() {
  kill -TERM $SERVED_PID 2> /dev/null
  wait $SERVED_PID; SERVED_RC=$?
  [ "$SERVED_RC" -eq 0 ] && return 0
  fail "hp2x --serve ended with status $SERVED_RC"
  tail -n 40 "$SERVED_ERR" | sed 's/^/    /'
}

# get PATH [CURL ARGS]: the body on stdout; HTTP_CODE set from a side file.
get() {
  local path=$1; shift
  curl -s -m 10 -o "$T/.body" -w '%{http_code}' "$@" "http://127.0.0.1:$PORT$path" > "$T/.code"
  HTTP_CODE=$(cat "$T/.code")
  cat "$T/.body"
}

# free_port: a TCP port nobody listens on now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
