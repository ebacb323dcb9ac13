#!/usr/bin/env python3
# png_info.py FILE [X Y]... -- reads an 8-bit RGB or RGBA PNG with the
# standard library only; prints "WIDTH HEIGHT NONWHITE_PERCENT" and then
# "R G B" of each pixel asked for.  Exits 1 on anything it cannot read.
# Other tests import its read().
import struct, sys, zlib

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
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
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
