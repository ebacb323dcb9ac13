#!/usr/bin/env python3
# png_info.py FILE [X Y]... -- reads an 8-bit RGB or RGBA PNG with the
# standard library only; prints "WIDTH HEIGHT NONWHITE_PERCENT" and then
# "R G B" of each pixel asked for.  Exits 1 on anything it cannot read.
# Other tests import its read().
import struct, sys, zlib

def add_bytes(line, prev):
    """line + prev, byte by byte, mod 256 (the Up filter), in whole-number
    arithmetic: each byte widened to 16 bits so that no carry crosses."""
    n = len(line)
    wa, wb = bytearray(2 * n), bytearray(2 * n)
    wa[1::2], wb[1::2] = line, prev
    total = int.from_bytes(wa, 'big') + int.from_bytes(wb, 'big')
    return bytearray(total.to_bytes(2 * n + 1, 'big')[2::2])

def paeth(line, prev, bpp):
    """The Paeth filter undone in place."""
    for x in range(bpp):
        line[x] = (line[x] + prev[x]) & 255
    for x in range(bpp, len(line)):
        a, b, c = line[x - bpp], prev[x], prev[x - bpp]
        pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
        line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255

def read(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('not a PNG')
    pos, idat, w = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit('unsupported PNG type')
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    rows, prev, stride, i = [], bytearray(w * bpp), w * bpp, 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if f == 2:
            line = add_bytes(line, prev)
        elif f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 3:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + (a + prev[x]) // 2) & 255
        elif f == 4:
            paeth(line, prev, bpp)
        rows.append(line)
        prev = line
    return w, h, bpp, rows

def main():
    w, h, bpp, rows = read(sys.argv[1])
    nonwhite = sum(1 for r in rows for x in range(0, w * bpp, bpp)
                   if r[x:x + 3] != b'\xff\xff\xff')
    print(w, h, round(100.0 * nonwhite / (w * h), 1))
    args = sys.argv[2:]
    for k in range(0, len(args), 2):
        x, y = int(args[k]), int(args[k + 1])
        print(*rows[y][x * bpp:x * bpp + 3])

if __name__ == '__main__':
    main()
