"""zdecode.py -- GHC's z-encoding of symbol names, decoded: the tests' own
decoder (written from GHC's rules, not from hp2x's), which
tests/e2e/test_program.sh checks hp2x's names against.  Import it with
tests/tools on sys.path."""
import re


def zdecode(s):
    low = dict(zip("abcdeghilmnpqrstuvz", "&|^$=>#.<-!+'\\/*_%z"))
    up = dict(zip("LRMNCZ", "()[]:Z"))
    out, i = "", 0
    while i < len(s):
        c = s[i]
        if c in "zZ" and i + 1 < len(s):
            d = (low if c == "z" else up).get(s[i + 1])
            if d:
                out, i = out + d, i + 2
                continue
            m = re.match(r"Z(\d+)([TH])", s[i:])
            if m:
                n, h = int(m.group(1)), m.group(2) == "H"
                out += "(" + "#" * h + "," * (n - 1) + "#" * h + ")"
                i += len(m.group(0))
                continue
        out, i = out + c, i + 1
    return out
