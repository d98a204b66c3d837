#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""journal_recv.py - a stand-in for journald's native socket (tests only).

Usage: journal_recv.py SOCKET OUT

Binds an AF_UNIX SOCK_DGRAM socket at SOCKET (journald's is
/run/systemd/journal/socket), parses each datagram in the native protocol
(systemd's JOURNAL_NATIVE_PROTOCOL.md: "NAME=value\\n", or "NAME\\n", a
little-endian 64-bit length, the value's bytes and "\\n" for a value that
holds a newline; a datagram too large is passed as a memfd, SCM_RIGHTS)
and appends one JSON line per entry to OUT: {"NAME": [values...]}, each
value decoded as UTF-8 with surrogateescape, plus "_binary": the names sent
in the length-prefixed form.  A datagram that does not parse gives
{"_error": why}.  Runs until SIGTERM; OUT is flushed after each entry.
"""
import array
import json
import os
import re
import signal
import socket
import struct
import sys

NAME = re.compile(rb"[A-Z][A-Z0-9_]*\Z")


def parse(data):
    fields, binary, i = {}, [], 0
    while i < len(data):
        nl = data.find(b"\n", i)
        if nl < 0:
            raise ValueError("entry without a final newline at %d" % i)
        line = data[i:nl]
        eq = line.find(b"=")
        if eq >= 0:
            name, value, i = line[:eq], line[eq + 1:], nl + 1
        else:
            name = line
            if nl + 9 > len(data):
                raise ValueError("binary field %r: no length" % name)
            (n,) = struct.unpack("<Q", data[nl + 1:nl + 9])
            value = data[nl + 9:nl + 9 + n]
            if len(value) != n or data[nl + 9 + n:nl + 10 + n] != b"\n":
                raise ValueError("binary field %r: bad length %d" % (name, n))
            i = nl + 10 + n
            binary.append(name.decode())
        if not NAME.match(name):
            raise ValueError("bad field name %r" % name)
        fields.setdefault(name.decode(), []).append(
            value.decode("utf-8", "surrogateescape"))
    if binary:
        fields["_binary"] = binary
    return fields


def main():
    path, out_path = sys.argv[1], sys.argv[2]
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    with open(out_path, "a") as out:
        while True:
            fds = array.array("i")
            data, anc, _, _ = sock.recvmsg(1 << 20, socket.CMSG_LEN(16))
            for level, kind, cdata in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds.frombytes(cdata[:len(cdata) - len(cdata) % 4])
            for fd in fds:
                os.lseek(fd, 0, os.SEEK_SET)
                with os.fdopen(fd, "rb") as f:
                    data = f.read()
            try:
                entry = parse(data)
            except ValueError as e:
                entry = {"_error": str(e)}
            out.write(json.dumps(entry, sort_keys=True) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
