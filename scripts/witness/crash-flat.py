#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""crash 8.0.2's reading of makedumpfile's flattened format, replayed.

A flattened dump (makedumpfile -F) is a 4096-byte header and a stream of
chunks, each a big-endian {int64 offset, int64 size} and its bytes, ended
by offset -1. A chunk may overwrite an earlier one: makedumpfile -F -E
writes the program headers first as zeros and again, filled in, near the
end; makedumpfile -R applies the chunks in stream order, so the last one
wins. crash 8.0.2 (makedumpfile.c) sorts the chunks by offset, a chunk
going before the earlier ones at the same offset (store_flat_data_array,
line 127: ">="), and finds the one holding an offset by binary search
(read_flattened_format, lines 285-336): of two chunks at one offset it
reads whichever the search lands on, which depends only on how many
chunks the file has. If it lands on the zeros, every PT_LOAD offset reads
0, resize_elf_header (netdump.c lines 593-600) sizes the header as 0 and
realloc(buf, 0) returns NULL: "cannot realloc resized ELF header buffer"
(netdump.c line 606), before crash reads anything else.

  crash-flat.py check FILE
      one line: the chunk count, the offsets written more than once, the
      chunk crash's search picks for the program headers, the header size
      it computes and the verdict: "verdict=refused" or "verdict=opens"
      (exit 0), or why FILE is not a flattened ELF dump (exit 2)
  crash-flat.py rechunk IN OUT [--chunks N] [--drop-stale]
      the same dump (same bytes in the same stream order) cut into N
      chunks, by splitting or merging the data chunks; --drop-stale leaves
      out the chunks that a later one overwrites whole
"""
import argparse
import struct
import sys

MDF_HEADER = 4096
SIGNATURE = b"makedumpfile"
END = -1
EHDR64 = 64
PHDR64 = 56
PT_LOAD = 1
# netdump.h: MIN_NETDUMP_ELF_HEADER_SIZE + NETDUMP_ELF_HEADER_SPARE_SIZE
SAFE_HEADER = EHDR64 + 2 * PHDR64 + 128


class Bad(Exception):
    pass


def chunks(path):
    """[(offset, size, file position of the bytes)] in stream order"""
    out = []
    with open(path, "rb") as f:
        head = f.read(MDF_HEADER)
        if len(head) < 32 or not head.startswith(SIGNATURE):
            raise Bad("not makedumpfile's flattened format (no signature)")
        kind, _version = struct.unpack(">qq", head[16:32])
        if kind != 1:
            raise Bad("flattened header type %d, not 1" % kind)
        pos = MDF_HEADER
        while True:
            f.seek(pos)
            raw = f.read(16)
            if len(raw) != 16:
                raise Bad("truncated at byte %d (no end marker)" % pos)
            off, size = struct.unpack(">qq", raw)
            if off == END:
                return out
            if off < 0 or size < 0:
                raise Bad("chunk at byte %d: offset %d size %d" % (pos, off, size))
            out.append((off, size, pos + 16))
            pos += 16 + size


class CrashReader:
    """crash 8.0.2's flat_data array and read_flattened_format()"""

    def __init__(self, path, stream):
        self.f = open(path, "rb")
        self.arr = []
        # store_flat_data_array: insertion sort from the end, moving up
        # every entry whose offset is >= the new one's
        for off, size, at in stream:
            i = len(self.arr)
            while i and self.arr[i - 1][0] >= off:
                i -= 1
            self.arr.insert(i, (off, size, at))
        self.picked = []

    def read(self, offset, size):
        lo, hi = 0, len(self.arr)
        while True:
            index = (lo + hi) // 2
            start, length, at = self.arr[index]
            if start <= offset < start + length:
                self.picked.append(index)
                self.f.seek(at + offset - start)
                if offset + size <= start + length:
                    return self.f.read(size)
                n = start + length - offset
                return self.f.read(n) + self.read(offset + n, size - n)
            if index == lo and lo + 1 == hi:
                # a hole: zeros up to the next entry (crash reads
                # arr[hi] even when hi is past the end; not here)
                if hi >= len(self.arr):
                    raise Bad("offset %d past the last chunk" % offset)
                nxt = self.arr[hi][0]
                if offset + size <= nxt:
                    return bytes(size)
                n = nxt - offset
                return bytes(n) + self.read(nxt, size - n)
            if offset < start:
                hi = index
            else:
                lo = index


def check(path):
    stream = chunks(path)
    if len(stream) < 2:
        raise Bad("%d chunks" % len(stream))
    crash = CrashReader(path, stream)
    eh = crash.read(0, SAFE_HEADER)
    if eh[:4] != b"\x7fELF" or eh[4] != 2 or eh[5] != 1:
        raise Bad("not a little-endian ELF64 dump inside")
    phoff, = struct.unpack_from("<Q", eh, 32)
    phnum, = struct.unpack_from("<H", eh, 56)
    # resize_elf_header: the program headers, then the smallest non-zero
    # PT_LOAD offset, starting from the first PT_LOAD's (even if 0)
    first = len(crash.picked)
    ph = crash.read(0, max(EHDR64, phoff) + PHDR64 * phnum)
    ph_chunks = sorted(set(crash.arr[i][2] for i in crash.picked[first:]))
    loads = [struct.unpack_from("<Q", ph, phoff + PHDR64 * i + 8)[0]
             for i in range(1, phnum)]
    header = loads[0] if loads else 0
    for o in loads:
        if o and header > o:
            header = o
    seen, dup = {}, []
    for off, size, at in stream:
        if (off, size) in seen and (off, size) not in dup:
            dup.append((off, size))
        seen[(off, size)] = at
    # which copy of the program headers crash read: the last written
    # (as makedumpfile -R) or an earlier one
    ph_key = None
    for off, size, _ in stream:
        if off <= phoff < off + size:
            ph_key = (off, size)
    last = seen.get(ph_key)
    read_at = [at for at in ph_chunks
               if any(at == a and (o, s) == ph_key for o, s, a in stream)]
    which = "last-written" if read_at == [last] else "stale" if read_at else "-"
    written = sum(1 for o, s, _ in stream if (o, s) == ph_key)
    print("chunks=%d rewritten=%s phdrs=%#x+%d written=%d crash-reads=%s "
          "header-size=%d verdict=%s" % (
              len(stream),
              ",".join("%#x+%d" % d for d in dup) or "none",
              phoff, PHDR64 * phnum, written, which, header,
              "refused" if header == 0 else "opens"))


def cut(src, skip, n):
    """the part [skip, skip + n) of a list of (position, length)"""
    out = []
    for at, length in src:
        if skip >= length:
            skip -= length
            continue
        take = min(n, length - skip)
        out.append((at + skip, take))
        n -= take
        skip = 0
        if not n:
            break
    return out


def rechunk(src_path, dst, want, drop_stale):
    stream = chunks(src_path)
    if drop_stale:
        keep = []
        for i, (off, size, at) in enumerate(stream):
            later = any(o <= off and off + size <= o + s
                        for o, s, _ in stream[i + 1:])
            if not later:
                keep.append((off, size, at))
        stream = keep
    # pieces: (offset, size, [(source position, length)]); the data
    # chunks (at least half the largest) are split in halves or merged
    # with a contiguous neighbour
    pieces = [(off, size, [(at, size)]) for off, size, at in stream]
    big = max(s for _, s, _ in pieces)
    while want and len(pieces) < want:
        i = max(range(len(pieces)), key=lambda k: pieces[k][1])
        off, size, src = pieces[i]
        if size < 2:
            raise Bad("cannot split further")
        h = size // 2
        pieces[i:i + 1] = [(off, h, cut(src, 0, h)),
                           (off + h, size - h, cut(src, h, size - h))]
    while want and len(pieces) > want:
        pairs = [i for i in range(len(pieces) - 1)
                 if pieces[i][1] >= big // 2 and pieces[i + 1][1] >= big // 2
                 and pieces[i][0] + pieces[i][1] == pieces[i + 1][0]]
        if not pairs:
            break
        i = min(pairs, key=lambda k: pieces[k][1] + pieces[k + 1][1])
        a, b = pieces[i], pieces[i + 1]
        pieces[i:i + 2] = [(a[0], a[1] + b[1], a[2] + b[2])]
    if want and len(pieces) != want:
        raise Bad("could not reach %d chunks (%d)" % (want, len(pieces)))
    with open(src_path, "rb") as f, open(dst, "wb") as out:
        out.write(f.read(MDF_HEADER))
        for off, size, src in pieces:
            out.write(struct.pack(">qq", off, size))
            for at, n in src:
                f.seek(at)
                b = f.read(n)
                if len(b) != n:
                    raise Bad("short read at byte %d" % at)
                out.write(b)
        out.write(struct.pack(">qq", END, 0))
    print("%s: %d chunks" % (dst, len(pieces)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("file")
    r = sub.add_parser("rechunk")
    r.add_argument("src")
    r.add_argument("dst")
    r.add_argument("--chunks", type=int, default=0)
    r.add_argument("--drop-stale", action="store_true")
    a = p.parse_args()
    try:
        if a.cmd == "check":
            check(a.file)
        else:
            rechunk(a.src, a.dst, a.chunks, a.drop_stale)
    except (Bad, OSError) as e:
        print("crash-flat.py: %s: %s" % (getattr(a, "file", None) or a.src, e),
              file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
