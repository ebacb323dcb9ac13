# bound_lib.sh -- the long profile of the bounded-picture tests
# (test_bound.sh, test_bound_grow.sh; sourced after lib.sh, in $T):
# long.hp, 36 000 samples of 9 bands (an A4 graph thins from 21 604), and
# long.eventlog, the same as an eventlog.
python3 - > long.hp <<'EOF'
import random
r = random.Random(5)
print('JOB "bound"\nDATE "Wed Nov 25 12:00 2026"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"')
level = [1000 * (k + 1) for k in range(9)]
for s in range(36000):
    t = 0.01 * s
    if s % 3000 == 0:
        print("MARK %.2f" % t)
    print("BEGIN_SAMPLE %.2f" % t)
    for k in range(9):
        level[k] = max(0, level[k] + r.randint(-40, 44 + 3 * k))
        if (s // (700 + 97 * k) + k) % 6 == 0:
            continue  # absent for a while
        v = level[k] * 8 * (30 if r.random() < 0.001 else 1)
        print("cc_%d\t%d" % (k, v))
    print("END_SAMPLE %.2f" % t)
EOF
python3 "$TOP/bench/gen.py" eventlog long.hp long.eventlog || fail "gen.py eventlog"
