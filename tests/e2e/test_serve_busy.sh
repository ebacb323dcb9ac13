#!/usr/bin/env bash
# --serve answers while it draws: a large profile (1,000 censuses x 800
# bands, made by bench/gen.py) makes the live page slow to draw, and a
# /metrics request made while the page is being drawn (asked for twice,
# with a picture, at once) is answered before the page is, and quickly (libmicrohttpd with one thread kept it waiting
# behind the drawing: 0.65 s of a 0.86 s page).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
serve_need_curl
cd "$T"
serve_big_profile 1000
curl -s -m 60 -o page.html -w '%{time_total}\n' "http://127.0.0.1:$PORT/" > page.time &
CP=$!
# and, at once, another page and a picture: each drawn once, shared
curl -s -m 60 -o page2.html "http://127.0.0.1:$PORT/" & CP2=$!
curl -s -m 60 -o picture.png "http://127.0.0.1:$PORT/picture.png" & CP3=$!
sleep 0.3 # the page's request is being answered: its drawing has begun
metrics_s=$(curl -s -m 60 -o metrics.txt -w '%{time_total}' "http://127.0.0.1:$PORT/metrics")
# page.time is written when the page's request ends
[ ! -s page.time ] && ok || fail "the page came first ($(cat page.time) s; /metrics $metrics_s s)"
grep -q '^hp2x_censuses_total 1000$' metrics.txt && ok || fail "/metrics: $(head -c 300 metrics.txt)"
wait $CP $CP2 $CP3
grep -q 'hp2x-data' page.html && ok || fail "no page"
cmp -s page.html page2.html && ok || fail "two requests of one redraw's page differ"
[ "$(head -c 8 picture.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] && ok ||
  fail "/picture.png is not a PNG"
echo "/metrics in $metrics_s s while the page took $(cat page.time) s"
awk -v m="$metrics_s" -v p="$(cat page.time)" 'BEGIN { exit !(m < p / 4) }' && ok ||
  fail "/metrics took $metrics_s s, the page $(cat page.time) s"
serve_stop
finish
