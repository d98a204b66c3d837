#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# The drgn witness (make kdump-witness, scripts/witness/kdump-witness.sh): read the
# series' taint log out of a crash dump through the vmlinux's DWARF, with
# Debian's drgn (python3-drgn), and print it as the kernel's
# /proc/sys/kernel/taint_log would: one line per published event
# (kernel/taint_log.c: taint_event_format()), then "dropped=<n>" if user
# requests were dropped. Nothing here comes from VMCOREINFO's LAYOUT()
# lines or from taintctl: the structures (struct taint_log, taint_event,
# taint_caller, taint_reason), the flag letters (taint_flags[].c_true) and
# the callers' symbols are what the debug info and the symbol table say.
# The host compares the result with taintctl log --vmcore (VMCOREINFO
# alone): an oracle independent of both the kernel's formatter and
# taintctl's reader.
#
# Usage: drgn.py VMLINUX DUMP
# Prints the lines on stdout; on stderr, one "drgn:" line per fact worth
# recording (the dump's format as drgn opened it, module callers).
# A kernel event's caller= is printed for core kernel code only (mod_id 0),
# the rule taintctl follows for a dump (a module's symbols are not in
# VMCOREINFO); a module caller, named through struct module's DWARF and
# the module's kallsyms in the dump (docs/module-callers.md), goes to
# stderr: "drgn: event N: module NAME caller SYMBOL+0xOFF/0xSIZE".
# Exit status: 0, or 1 with an error line.
import datetime
import sys

import drgn


def escape(data, quoted):
    """taint_escape(): \\ and \" escaped, bytes outside 0x20..0x7e as \\xNN,
    and a space too in an unquoted field."""
    out = []
    for c in data:
        if c in (0x5C, 0x22):
            out.append("\\" + chr(c))
        elif c < 0x20 or c > 0x7E or (c == 0x20 and not quoted):
            out.append("\\x%02x" % c)
        else:
            out.append(chr(c))
    return "".join(out)


def cstr(arr):
    """A NUL-terminated char array's bytes (strnlen over its length)."""
    b = bytes(arr.value_()) if not isinstance(arr.value_(), bytes) else arr.value_()
    n = b.find(b"\0")
    return b if n < 0 else b[:n]


def module_caller(prog, mod_id, addr):
    """kernel/module/kallsyms.c: find_kallsyms_symbol() of @addr in the
    module at @mod_id (the struct module the event recorded): the closest
    named symbol at or below it in the mem[] region that holds it, its
    size up to the next symbol or the region's end."""
    mod = drgn.Object(prog, "struct module *", value=mod_id)
    region = None
    for t in range(len(mod.mem)):
        base, size = mod.mem[t].base.value_(), mod.mem[t].size.value_()
        if base <= addr < base + size:
            region = (base, base + size)
    if region is None:
        return "0x%x: in none of the module's regions" % addr
    ks = mod.kallsyms
    best = None
    nextval = region[1]
    for j in range(1, ks.num_symtab.value_()):
        sym = ks.symtab[j]
        val = sym.st_value.value_()
        if sym.st_shndx.value_() == 0:
            continue
        name = prog.read(ks.strtab.value_() + sym.st_name.value_(), 128).split(b"\0")[0]
        # is_mapping_symbol(): $..., .L..., L0...
        if not name or name[0:1] == b"$" or name[:2] in (b".L", b"L0"):
            continue
        if region[0] <= val <= addr and (best is None or val > best[1]):
            best = (name.decode(errors="replace"), val)
        if addr < val < nextval:
            nextval = val
    if best is None:
        return "0x%x: no symbol" % addr
    return "%s+0x%x/0x%x" % (best[0], addr - best[1], nextval - best[1])


def main():
    if len(sys.argv) != 3:
        print("usage: drgn.py VMLINUX DUMP", file=sys.stderr)
        return 2
    vmlinux, dump = sys.argv[1:]
    prog = drgn.Program()
    prog.set_core_dump(dump)
    # The vmlinux only: the modules' debug info is not at hand, as on a
    # support engineer's machine with a distribution's debug package.
    prog.load_debug_info([vmlinux])
    print("drgn: opened %s, flags %s" % (dump, prog.flags), file=sys.stderr)

    log = prog["taint_events"]
    flags = prog["taint_flags"]
    nflags = len(flags)
    letters = [chr(flags[i].c_true.value_()) for i in range(nflags)]
    nev = len(log.ev)

    def mask(m):
        s = "".join(letters[i] for i in range(nflags) if m & (1 << i))
        return s or "-"

    lines = []
    claimed = min(log.next.counter.value_(), nev)
    for i in range(claimed):
        ev = log.ev[i]
        # taint_event_ready(): the first slot claimed but not published
        # ends the text
        if not ev.ready.value_():
            break
        ts = ev.ts_nsec.value_()
        line = "ts=%d.%06d utc=" % (ts // 10**9, ts % 10**9 // 1000)
        utc = ev.utc.value_()
        if utc:
            line += datetime.datetime.fromtimestamp(
                utc, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + "Z"
        else:
            line += "-"
        user = ev.origin.value_() == prog.constant("TAINT_ORIGIN_USER").value_()
        line += " origin=user" if user else " origin=kernel"
        line += " flags=" + mask(ev.flags.value_())
        line += " new=" + mask(ev.new.value_())
        auid = ev.auid.value_()
        line += " pid=%d uid=%d auid=%s" % (ev.pid.value_(), ev.uid.value_(),
                                            "-" if auid == 0xFFFFFFFF else str(auid))
        line += ' comm="%s"' % escape(cstr(ev.comm), True)
        detail = ev.detail.value_()
        if user:
            rlen = ev.reason_len.value_()
            if rlen:
                text = bytes(log.reasons[detail].text.value_())[:rlen]
                line += ' reason="%s"' % escape(text, True)
        else:
            c = log.callers[detail]
            mod = cstr(c.module)
            if mod:
                line += " module=" + escape(mod, False)
            addr, mod_id = c.addr.value_(), c.mod_id.value_()
            if addr and not mod_id:
                try:
                    sym = prog.symbol(addr)
                    line += " caller=%s+0x%x/0x%x" % (sym.name, addr - sym.address, sym.size)
                except LookupError:
                    # %pS would print 0x...: taint_caller_format() leaves it out
                    print("drgn: event %d: no symbol at caller 0x%x" % (i, addr),
                          file=sys.stderr)
            elif addr:
                # what taintctl leaves out: named here as the kernel's
                # find_kallsyms_symbol() does, through struct module
                # (DWARF) and the module's own symbol table in the dump
                print("drgn: event %d: module %s caller %s" %
                      (i, mod.decode(errors="replace"), module_caller(prog, mod_id, addr)),
                      file=sys.stderr)
        lines.append(line)
    dropped = log.dropped.counter.value_()
    if dropped:
        lines.append("dropped=%d" % (dropped & 0xFFFFFFFF))
    sys.stdout.write("".join(l + "\n" for l in lines))
    print("drgn: %d events, next=%d, dropped=%d, %d flags (%s)" %
          (len(lines) - (1 if dropped else 0), log.next.counter.value_(), dropped,
           nflags, "".join(letters)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (drgn.FaultError, LookupError, ValueError, OSError, drgn.MissingDebugInfoError) as e:
        print("drgn: error: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        sys.exit(1)
