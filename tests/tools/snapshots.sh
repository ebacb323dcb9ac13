#!/usr/bin/env bash
# snapshots.sh FILE DIR -- copies FILE into DIR/NNNN each time it changes
# (new inode or size or mtime) until DIR/stop exists.  For the watch tests:
# every copy must be a complete, valid output.
file=$1 dir=$2 last="" n=0
while [ ! -e "$dir/stop" ]; do
  id=$(stat -c '%i %s %Y.%y' "$file" 2>/dev/null)
  if [ -n "$id" ] && [ "$id" != "$last" ]; then
    n=$((n + 1)); cp "$file" "$dir/$(printf '%04d' $n)" 2>/dev/null; last=$id
  fi
  sleep 0.01
done
