#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""rules_input.py - a `promtool test rules` file for
contrib/prometheus/taint.rules.yml whose input series are what `taintctl
metrics` prints: each node's kernel is a fake --root tree per state, its
metrics run through TAINTCTL, the samples laid one a minute.

Usage: rules_input.py TAINTCTL WORKDIR RULES > test.yml

The nodes (job "node", instance = the name), 30 one-minute steps:
  clean-then-oops  boots clean; D by the kernel at minute 10, U by user
                   space at minute 15
  tainted-at-boot  P from the initramfs (utc=-: no first-set time) and W
                   with a time, both at the first scrape; O (allowed) too
  reboots          W at minute 3; reboots at minute 10 (no scrape for
                   two minutes: node_exporter's series go stale), comes
                   back clean at minute 12 and stays clean
  allowed-only     O at minute 5, E at minute 8: allowed flags
  stock            a stock kernel (no taint_log): D at minute 4
The expected alerts are written by hand below: every firing alert, with
its labels and annotations, at minutes 0, 2, 5, 9, 11, 13, 16, 29.
"""
import os
import subprocess
import sys

TAINTCTL, WORK, RULES = sys.argv[1:4]
STEPS = 30
UTC0 = "2026-12-03T08:"  # minute MM -> 2026-12-03T08:MM:00Z
EPOCH0 = 1796284800      # 2026-12-03T08:00:00Z

FLAGS = {"P": 0, "F": 1, "S": 2, "R": 3, "M": 4, "B": 5, "U": 6, "D": 7,
         "A": 8, "W": 9, "C": 10, "I": 11, "O": 12, "E": 13, "L": 14,
         "K": 15, "X": 16, "T": 17, "N": 18, "J": 19}


def ev(minute, origin, letter, mask_letters):
    """a taint_log line: the event at MINUTE (None: utc=-) that set LETTER"""
    utc = "-" if minute is None else "%s%02d:00Z" % (UTC0, minute)
    ts = 1.0 if minute is None else 60.0 * minute + 5
    extra = ' reason="maintenance"' if origin == "user" else ""
    return ("ts=%.6f utc=%s origin=%s flags=%s new=%s pid=42 uid=0 auid=- "
            'comm="x"%s\n' % (ts, utc, origin, mask_letters, letter, extra))


def mask(letters):
    return sum(1 << FLAGS[c] for c in letters)


def boot(events, stock=False):
    """the states of one boot: [(step, mask, log text or None)], one per
    event; events: [(step, minute or None, origin, letter)]"""
    states, log, letters = [], "", ""
    for step, minute, origin, letter in events:
        letters += letter
        log += ev(minute, origin, letter, letters)
        states.append((step, mask(letters), None if stock else log))
    return states


# node -> [(first step, mask, taint_log text or None (stock), or "down")]
NODES = {
    "clean-then-oops": [(0, 0, "")] + boot([(10, 10, "kernel", "D"),
                                            (15, 15, "user", "U")]),
    "tainted-at-boot": boot([(0, None, "kernel", "P"), (0, 0, "kernel", "W"),
                             (0, 0, "kernel", "O")])[-1:],
    "reboots": [(0, 0, "")] + boot([(3, 3, "kernel", "W")]) +
               [(10, "down", None), (12, 0, "")],
    "allowed-only": [(0, 0, "")] + boot([(5, 5, "kernel", "O"),
                                         (8, 8, "kernel", "E")]),
    "stock": [(0, 0, None)] + boot([(4, None, "kernel", "D")], stock=True),
}


def metrics(node, i, m, log):
    root = os.path.join(WORK, "%s.%d" % (node, i))
    os.makedirs(os.path.join(root, "proc/sys/kernel"))
    with open(os.path.join(root, "proc/sys/kernel/tainted"), "w") as f:
        f.write("%d\n" % m)
    if log is not None:
        with open(os.path.join(root, "proc/sys/kernel/taint_log"), "w") as f:
            f.write(log)
    out = subprocess.run([TAINTCTL, "--root", root, "metrics"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    with open(root + ".prom", "w") as f:
        f.write(out)
    samples = {}
    for line in out.splitlines():
        if line.startswith("#") or not line:
            continue
        series, value = line.rsplit(" ", 1)
        samples[series] = value
    return samples


series = {}   # "name{labels}" with instance and job -> [value per step]
for node, states in NODES.items():
    per_step = [None] * STEPS
    for i, (first, m, log) in enumerate(states):
        last = states[i + 1][0] if i + 1 < len(states) else STEPS
        s = "down" if m == "down" else metrics(node, i, m, log)
        for step in range(first, last):
            per_step[step] = s
    names = set()
    for s in per_step:
        if s != "down":
            names.update(s)
    for name in sorted(names):
        labels = 'instance="%s",job="node"' % node
        full = (name[:-1] + "," + labels + "}") if name.endswith("}") \
            else name + "{" + labels + "}"
        vals, prev = [], None
        for s in per_step:
            if s == "down" or name not in s:
                # gone from the scrape: a stale marker once, then nothing
                vals.append("stale" if prev not in (None, "_", "stale") else "_")
            else:
                vals.append(s[name])
            prev = vals[-1]
        series[full] = vals

print("# generated by taintctl/tests/rules_input.py from taintctl metrics")
print("rule_files: [%s]" % RULES)
print("evaluation_interval: 1m")
print("tests:")
print("  - interval: 1m")
print("    input_series:")
for name, vals in series.items():
    print("      - series: '%s'" % name)
    print("        values: '%s'" % " ".join(vals))

# --- the expected alerts, by hand ------------------------------------------
HUMAN = "2026-12-03 08:%02d:00 +0000 UTC"


def alert(node, flag, name, origin, minute=None):
    when = "" if origin == "unknown" else ", first set %s" % (HUMAN % minute)
    desc = ("The kernel of %s has set taint flag %s (%s), which this site "
            "denies; origin %s%s. Who set it and why: taintctl log on that "
            "node." % (node, flag, name, origin, when))
    return ("          - exp_labels: {alertname: KernelTaintDeniedFlag, "
            "severity: warning, instance: %s, job: node, flag: %s, "
            "name: %s, origin: %s}\n"
            "            exp_annotations:\n"
            "              summary: '%s: kernel taint flag %s set (%s)'\n"
            "              description: %s\n"
            % (node, flag, name, origin, node, flag, origin,
               "'" + desc.replace("'", "''") + "'"))


BOOT = [alert("tainted-at-boot", "P", "PROPRIETARY_MODULE", "unknown"),
        alert("tainted-at-boot", "W", "WARN", "kernel", 0)]
REBOOTS_W = alert("reboots", "W", "WARN", "kernel", 3)
STOCK_D = alert("stock", "D", "DIE", "unknown")
OOPS_D = alert("clean-then-oops", "D", "DIE", "kernel", 10)
OOPS_U = alert("clean-then-oops", "U", "USER", "user", 15)
EXPECT = {
    0: BOOT,
    2: BOOT,
    5: BOOT + [REBOOTS_W, STOCK_D],
    9: BOOT + [REBOOTS_W, STOCK_D],
    # reboots is down: its series went stale at minute 10
    11: BOOT + [STOCK_D, OOPS_D],
    13: BOOT + [STOCK_D, OOPS_D],
    16: BOOT + [STOCK_D, OOPS_D, OOPS_U],
    29: BOOT + [STOCK_D, OOPS_D, OOPS_U],
}
print("    alert_rule_test:")
for minute, alerts in EXPECT.items():
    print("      - eval_time: %dm" % minute)
    print("        alertname: KernelTaintDeniedFlag")
    print("        exp_alerts:")
    for a in alerts:
        sys.stdout.write(a)
# the denied set as recorded: one series per denied flag set
print("    promql_expr_test:")
print("      - expr: count by (instance) (kernel_taint_flag:denied)")
print("        eval_time: 29m")
print("        exp_samples:")
for node, n in (("clean-then-oops", 2), ("tainted-at-boot", 2), ("stock", 1)):
    print("          - labels: '{instance=\"%s\"}'" % node)
    print("            value: %d" % n)
