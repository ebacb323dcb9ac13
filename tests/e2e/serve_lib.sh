# serve_lib.sh -- helpers of the --serve tests (sourced after lib.sh).

# serve_start ERRFILE ARGS...: starts "$HP2X" ARGS in the background
# (SERVED_PID), waits for its "serving" line (at most 10 s) and sets PORT.
serve_start() {
  local err=$1; shift
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

# serve_wait_census [HOST]: waits (at most 20 s) until /metrics counts a
# census.  The server answers from the start, while a one-shot run still
# reads and draws its input (seconds in a sanitizer's build): a test of what
# it serves waits for it.  HOST defaults to 127.0.0.1.
serve_wait_census() {
  local host=${1:-127.0.0.1} i=0
  while [ $i -lt 400 ]; do
    curl -s -g -m 2 "http://$host:$PORT/metrics" |
      grep -q '^hp2x_censuses_total [1-9]' && return 0
    kill -0 $SERVED_PID 2> /dev/null || return 1
    i=$((i + 1)); sleep 0.05
  done
  return 1
}

# serve_stop: SIGTERM (a background job ignores SIGINT), then its exit
# status in SERVED_RC; any but 0 (a sanitizer's report included) fails.
serve_stop() {
  kill -TERM $SERVED_PID 2> /dev/null
  wait $SERVED_PID; SERVED_RC=$?
  [ "$SERVED_RC" -eq 0 ] || fail "hp2x --serve ended with status $SERVED_RC"
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
