#!/usr/bin/env bash
# Watch mode under faults: each is said once, naming the file and the
# reason, and the watch keeps going where that makes sense.
#  - standard input's shared flags are never changed (a pipe and a socket
#    held by a parent; after the end, a signal, --idle-exit, bad input);
#  - an input that cannot be opened (missing, a directory, a path through a
#    file, and, where setpriv can drop root's privileges, permission
#    denied), then becomes readable: watched from then on; --idle-exit ends
#    a wait for one that never does, exit 1;
#  - an input deleted: said once, the last picture stays; a new file under
#    the name starts over;
#  - an output whose directory disappears, whose device is full (a small
#    tmpfs, where root may mount one) or that cannot be renamed (a
#    directory of that name): said once, the previous picture kept, and the
#    watch recovers once the fault is gone (its last picture = one-shot).
. "$(dirname "$0")/lib.sh"
# Under make valgrind hp2x needs seconds to start and the renders here
# minutes: the sanitizer build (make check) runs these instead.
if [ -n "${HP2X_UNDER_VALGRIND:-}" ]; then echo "SKIPPED: under valgrind"; finish; exit; fi
P=$TOP/samples/profiles
cd "$T"
trap 'umount "$T/full" 2> /dev/null; rm -rf "$T" "$CAP"' EXIT

wait_for() {
  local i=0 limit=$(( $2 * 50 ))
  while ! eval "$1"; do i=$((i + 1)); [ $i -ge $limit ] && return 1; sleep 0.02; done
}
temps_in() { ls -A "$1" | grep '^\.' ; }
# said_once PATTERN FILE WHAT: exactly one line of FILE matches.
said_once() {
  local n; n=$(grep -cE -- "$1" "$2")
  [ "$n" -eq 1 ] && ok || { fail "$3: said $n times, wanted once"; sed 's/^/    /' "$2" | head -5; }
}
end_watch() { kill -TERM "$W"; wait "$W"; local rc=$?; [ $rc -eq 0 ] && ok || fail "$1: exit $rc"; }

"$HP2X" -q "$P/leak.hc.hp" -o leak1.csv
"$HP2X" -q "$P/leak.hm.hp" -o leakm1.csv

# 1. Standard input's flags.
python3 "$TOP/tests/tools/stdin_flags.py" "$HP2X" "$P/leak.hc.hp" && ok ||
  fail "standard input's flags changed"

# 2. Inputs that cannot be opened, said once, then followed.
mkdir dir.hp
timeout 10 "$HP2X" --watch --interval=0.05 --idle-exit=0.5 dir.hp -o dir.csv 2> dir.err; rc=$?
[ $rc -eq 1 ] && ok || fail "a directory, --idle-exit: exit $rc, wanted 1"
said_once '^hp2x: dir\.hp: cannot open: Is a directory; waiting for it$' dir.err "a directory"
[ "$(wc -l < dir.err)" -eq 1 ] && ok || fail "a directory: more said than the reason: $(cat dir.err)"
[ ! -e dir.csv ] && ok || fail "a directory: an output was written"
timeout 10 "$HP2X" -q --watch --interval=0.05 --idle-exit=0.3 dir.hp -o dir.csv 2> dirq.err; rc=$?
[ $rc -eq 1 ] && grep -qx 'hp2x: dir.hp: cannot open: Is a directory' dirq.err && ok ||
  fail "a directory, --quiet: exit $rc, $(cat dirq.err)"
: > afile
timeout 10 "$HP2X" --watch --interval=0.05 --idle-exit=0.5 afile/x.hp -o x.csv 2> notdir.err
said_once '^hp2x: afile/x\.hp: cannot open: Not a directory; waiting for it$' notdir.err "a path through a file"

"$HP2X" --watch --interval=0.05 later.hp -o later.csv 2> later.err & W=$!
sleep 0.5; cp "$P/leak.hc.hp" later.hp
wait_for "cmp -s later.csv leak1.csv" 10 && ok || fail "a missing input that appears is not followed"
end_watch "a missing input that appears"
said_once '^hp2x: later\.hp: cannot open: No such file or directory; waiting for it$' later.err "a missing input"
[ "$(wc -l < later.err)" -eq 1 ] && ok || fail "a missing input: $(cat later.err)"

if command -v setpriv > /dev/null && chmod 711 "$T" && mkdir -m 777 priv &&
   cp "$P/leak.hc.hp" priv/locked.hp && chmod 000 priv/locked.hp &&
   setpriv --reuid=65534 --regid=65534 --clear-groups true 2> /dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$HP2X"; then
  setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$HP2X" --watch --interval=0.05 priv/locked.hp -o priv/locked.csv 2> priv.err & W=$!
  sleep 0.5; chmod 644 priv/locked.hp
  wait_for "cmp -s priv/locked.csv leak1.csv" 10 && ok || fail "an unreadable input made readable is not followed"
  end_watch "permission denied"
  said_once '^hp2x: priv/locked\.hp: cannot open: Permission denied; waiting for it$' priv.err "permission denied"
else
  echo "SKIPPED: permission denied (setpriv cannot run hp2x as nobody here)"
fi

# 3. An input deleted: said once, the picture stays; a new file starts over.
cp "$P/leak.hc.hp" del.hp
"$HP2X" --watch --interval=0.05 del.hp -o del.csv 2> del.err & W=$!
wait_for "cmp -s del.csv leak1.csv" 10 || fail "deleted: first picture"
rm del.hp; sleep 0.5
cmp -s del.csv leak1.csv && ok || fail "deleted: the last picture changed"
said_once '^hp2x: del\.hp: deleted; the last picture stays, waiting for a new file$' del.err "deleted"
cp "$P/leak.hm.hp" del.hp
wait_for "cmp -s del.csv leakm1.csv" 10 && ok || fail "deleted, then a new file: not followed"
end_watch "deleted"
said_once '^hp2x: del\.hp: file replaced; starting over$' del.err "a new file after a deletion"

# grow_in_steps FILE: the rest of leak.hc.hp appended to FILE (which holds
# its first 12 000 bytes) in steps, a new picture due after each.
grow_step() { tail -c +$(( $(wc -c < "$1") + 1 )) "$P/leak.hc.hp" | head -c "$2" >> "$1"; sleep 0.3; }

# 4. The output's directory disappears, then comes back.
head -c 12000 "$P/leak.hc.hp" > gone.hp; mkdir out
"$HP2X" --watch --interval=0.05 gone.hp -o out/gone.csv 2> gone.err & W=$!
wait_for "[ -s out/gone.csv ]" 10 || fail "directory gone: first picture"
rm -r out; grow_step gone.hp 4000; grow_step gone.hp 2000
kill -0 $W 2> /dev/null && ok || fail "directory gone: the watch ended"
said_once '^hp2x: out/gone\.csv: cannot create .*: No such file or directory$' gone.err "directory gone"
said_once '^hp2x: out/gone\.csv: the previous picture stays; trying again$' gone.err "directory gone, kept"
mkdir out
wait_for "[ -s out/gone.csv ]" 10 && ok || fail "directory back: no picture"
grow_step gone.hp 100000
wait_for "cmp -s out/gone.csv leak1.csv" 10 && ok || fail "directory back: last picture differs from a one-shot one"
end_watch "directory gone"
said_once '^hp2x: out/gone\.csv: written again$' gone.err "directory back"

# 5. An output that cannot be renamed into place: a directory holds its
# name for a while.
head -c 12000 "$P/leak.hc.hp" > ren.hp
"$HP2X" --watch --interval=0.05 ren.hp -o ren.csv 2> ren.err & W=$!
wait_for "[ -s ren.csv ]" 10 || fail "rename: first picture"
cp ren.csv ren.before; rm ren.csv; mkdir ren.csv
grow_step ren.hp 4000; grow_step ren.hp 2000
said_once '^hp2x: ren\.csv: .*[Ii]s a directory$' ren.err "cannot rename"
wait_for '[ -z "$(temps_in .)" ]' 5 && ok ||
  fail "cannot rename: temporary files left: $(temps_in .)"
rmdir ren.csv
grow_step ren.hp 100000
wait_for "cmp -s ren.csv leak1.csv" 10 && ok || fail "rename possible again: last picture differs from a one-shot one"
end_watch "cannot rename"

# 6. A full device (a 512 KiB tmpfs): the previous picture stays whole.
mkdir full
if mount -t tmpfs -o size=512k hp2x-test "$T/full" 2> /dev/null; then
  head -c 12000 "$P/leak.hc.hp" > full.hp
  "$HP2X" -q full.hp -o first.pdf
  "$HP2X" --watch --interval=0.05 full.hp -o full/out.pdf 2> full.err & W=$!
  wait_for "cmp -s full/out.pdf first.pdf" 10 || fail "full device: first picture"
  dd if=/dev/zero of=full/filler bs=4k 2> /dev/null
  grow_step full.hp 4000; grow_step full.hp 2000
  cmp -s full/out.pdf first.pdf && ok || fail "full device: the previous picture changed"
  said_once '^hp2x: full/out\.pdf: .*No space left on device$' full.err "full device"
  # the watcher tries again every 0.05 s: a temporary file may be there for
  # an instant, being written and removed; none may stay
  wait_for '[ -z "$(temps_in full)" ]' 5 && ok ||
    fail "full device: temporary files left: $(temps_in full)"
  rm full/filler
  grow_step full.hp 100000
  "$HP2X" -q "$P/leak.hc.hp" -o leak1.pdf
  wait_for "cmp -s full/out.pdf leak1.pdf" 10 && ok || fail "space back: last picture differs from a one-shot one"
  end_watch "full device"
  said_once '^hp2x: full/out\.pdf: written again$' full.err "space back"
  umount "$T/full"
else
  echo "SKIPPED: full device (cannot mount a tmpfs here)"
fi

[ -z "$(temps_in .)" ] && ok || fail "temporary files left: $(temps_in .)"
finish
