#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Dump a QEMU guest's memory through QMP, then end QEMU.

    qmp-dump.py SOCKET OUT [FORMAT[,FORMAT...]]

Connects to QEMU's QMP unix socket, stops the guest, runs
dump-guest-memory (paging off: the ELF's PT_LOAD p_paddr are guest-physical
addresses, as a kdump vmcore's) into OUT in the first FORMAT (elf, the
default, or one of QEMU's kdump-* formats) and into OUT.FORMAT for each
other one, and quits QEMU. With QEMU's
-device vmcoreinfo and a guest that wrote its VMCOREINFO note's address
through fw_cfg, the dump carries that note. Exit 0 if the dump was written.
"""
import json
import os
import socket
import sys
import time


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, out = sys.argv[1], os.path.abspath(sys.argv[2])
    fmts = (sys.argv[3] if len(sys.argv) == 4 else "elf").split(",")

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    for _ in range(100):
        try:
            sock.connect(path)
            break
        except OSError:
            time.sleep(0.1)
    else:
        print(f"qmp-dump: cannot connect to {path}", file=sys.stderr)
        return 1
    sock.settimeout(120)
    stream = sock.makefile("rwb", buffering=0)

    def reply():
        # Skip asynchronous events (STOP, DUMP_COMPLETED, ...).
        while True:
            line = stream.readline()
            if not line:
                raise EOFError("QMP closed the connection")
            msg = json.loads(line)
            if "return" in msg or "error" in msg:
                return msg

    def execute(cmd, **args):
        req = {"execute": cmd}
        if args:
            req["arguments"] = args
        stream.write(json.dumps(req).encode() + b"\n")
        msg = reply()
        if "error" in msg:
            raise RuntimeError(f"{cmd}: {msg['error'].get('desc', msg)}")
        return msg["return"]

    json.loads(stream.readline())          # the greeting
    execute("qmp_capabilities")
    execute("stop")
    for i, fmt in enumerate(fmts):
        name = out if i == 0 else f"{out}.{fmt}"
        start = time.monotonic()
        execute("dump-guest-memory", paging=False, protocol="file:" + name,
                format=fmt)
        secs = time.monotonic() - start
        print(f"qmp-dump: {fmt} dump of {os.path.getsize(name)} bytes in "
              f"{secs:.1f} s: {name}", file=sys.stderr)
    try:
        execute("quit")
    except (EOFError, OSError):
        pass
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, EOFError, RuntimeError, ValueError) as e:
        print(f"qmp-dump: {e}", file=sys.stderr)
        sys.exit(1)
