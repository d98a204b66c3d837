#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# The lists of deliberate faults ("mutants") of scripts/mutate/mutate.sh (the
# kernel series, scripts/mutate/mutants) and scripts/mutate/mutate-lib.sh (libtaint and
# taintctl, scripts/mutate/mutants-lib); the format is in the header of
# scripts/mutate/mutants.
#
# Usage: mutants.py FILE list                print "name<TAB>variant<TAB>breaks" for every mutant
#        mutants.py FILE check TREE [NAME...]  report every (named) mutant that does not apply to TREE
#        mutants.py FILE apply TREE NAME       apply one mutant to TREE's files
import os, re, sys

if len(sys.argv) < 3:
    print("usage: mutants.py FILE list|check TREE [NAME...]|apply TREE NAME", file=sys.stderr)
    sys.exit(2)
path, cmd, args = sys.argv[1], sys.argv[2], sys.argv[3:]

def die(msg):
    print("usertaint: error: " + msg, file=sys.stderr)
    sys.exit(2)

muts, cur, hunk, cfile = [], None, None, None

def end_hunk():
    global hunk
    if hunk:
        cur["hunks"].append(hunk)
    hunk = None

try:
    lines = open(path, encoding="utf-8").read().split("\n")
except OSError as e:
    die(f"{path}: {e.strerror}")
if lines and lines[-1] == "":
    lines.pop()
for no, line in enumerate(lines, 1):
    where = f"{path}:{no}"
    if line.startswith("#") or not line.strip():
        end_hunk()
        continue
    if line.startswith("mutant "):
        end_hunk()
        name = line[len("mutant "):].strip()
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
            die(f"{where}: mutant name '{name}' is not [a-z0-9-]+")
        if any(m["name"] == name for m in muts):
            die(f"{where}: mutant '{name}' a second time")
        cur, cfile = {"name": name, "breaks": None, "variant": None,
                      "hunks": [], "line": no}, None
        muts.append(cur)
        continue
    if cur is None:
        die(f"{where}: expected 'mutant NAME' first")
    if line.startswith("breaks "):
        end_hunk()
        if cur["breaks"] is not None:
            die(f"{where}: mutant '{cur['name']}' has two 'breaks' lines")
        cur["breaks"] = line[len("breaks "):].strip()
    elif line.startswith("variant "):
        end_hunk()
        if cur["variant"] is not None:
            die(f"{where}: mutant '{cur['name']}' has two 'variant' lines")
        cur["variant"] = line[len("variant "):].strip()
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", cur["variant"]):
            die(f"{where}: variant '{cur['variant']}' is not [a-z0-9-]+")
    elif line.startswith("file "):
        end_hunk()
        cfile = line[len("file "):].strip()
        if cfile.startswith("/") or ".." in cfile.split("/"):
            die(f"{where}: file '{cfile}' is not a path inside the tree")
    elif line[0] == "-":
        if cfile is None:
            die(f"{where}: a '-' line before any 'file' line")
        if hunk and hunk["new"]:
            end_hunk()
        if not hunk:
            hunk = {"file": cfile, "old": [], "new": [], "line": no}
        hunk["old"].append(line[1:])
    elif line[0] == "+":
        if not hunk:
            die(f"{where}: a '+' line without '-' lines before it")
        hunk["new"].append(line[1:])
    else:
        die(f"{where}: not a mutant, breaks, variant, file, -, + or # line: {line}")
end_hunk()
for m in muts:
    if not m["breaks"]:
        die(f"{path}:{m['line']}: mutant '{m['name']}' has no 'breaks' line")
    if not m["hunks"]:
        die(f"{path}:{m['line']}: mutant '{m['name']}' changes nothing")
if not muts:
    die(f"{path}: no mutants")
byname = {m["name"]: m for m in muts}

def find(name):
    if name not in byname:
        die(f"no mutant '{name}' in {path} (there are: {' '.join(byname)})")
    return byname[name]

def apply(m, tree, write):
    """The mutant's files as it leaves them, or a list of errors."""
    files, errs = {}, []
    for h in m["hunks"]:
        f = h["file"]
        if f not in files:
            try:
                with open(os.path.join(tree, f), encoding="utf-8",
                          errors="surrogateescape") as fh:
                    files[f] = fh.read()
            except OSError as e:
                errs.append(f"{f}: {e.strerror}")
                continue
        text, old = files[f], "\n".join(h["old"]) + "\n"
        at, i = [], text.find(old)
        while i >= 0:
            if i == 0 or text[i - 1] == "\n":
                at.append(i)
            i = text.find(old, i + 1)
        if len(at) != 1:
            errs.append(f"{f}: the lines of {path}:{h['line']} "
                        f"({h['old'][0].strip()!r}{' ...' if len(h['old']) > 1 else ''}) "
                        f"are there {len(at)} times, not once")
            continue
        new = "".join(l + "\n" for l in h["new"])
        files[f] = text[:at[0]] + new + text[at[0] + len(old):]
    if errs:
        return errs
    if write:
        for f, text in files.items():
            with open(os.path.join(tree, f), "w", encoding="utf-8",
                      errors="surrogateescape") as fh:
                fh.write(text)
    return []

if cmd == "list":
    for m in muts:
        print(f"{m['name']}\t{m['variant'] or 'default'}\t{m['breaks']}")
elif cmd == "check":
    bad = 0
    for name in args[1:] or byname:
        for e in apply(find(name), args[0], False):
            print(f"usertaint: error: mutant {name} does not apply: {e}", file=sys.stderr)
            bad = 1
    sys.exit(bad)
elif cmd == "apply":
    errs = apply(find(args[1]), args[0], True)
    for e in errs:
        print(f"usertaint: error: mutant {args[1]} does not apply: {e}", file=sys.stderr)
    sys.exit(1 if errs else 0)
else:
    die(f"mutants: unknown command {cmd}")
