#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In the Debian guest of make e2e (scripts/e2e/e2e.sh), started by
# usertaint-e2e.service once the boot is done: TAP on ttyS1, files for
# the host in /var/tmp/e2e (read with debugfs after power-off), then
# power-off. usertaint.e2e=stock: only the boot's state and failed units
# (the stock kernel of the comparison); usertaint.e2e=full: the rest.
#
# full, in order:
#   - apt install ./*.deb (taintctl, libtaint1, libtaint-dev) and what
#     dpkg -L says they hold; the units the packages enabled are running
#   - the events: a reason (taintctl mark), the test module (O), W from an
#     NMI (ut_taint), a reason through procps sysctl -w, and an oops
#     (LKDTM BUG, in a child shell), whose report prints a Taint line
#     per flag
#   - journalctl -k: the kernel's notices and every Taint line, whole;
#     journalctl -u taintctl-watch: each event, with FLAG= and ORIGIN=
#   - the metrics timer's file and a scrape of node_exporter on 127.0.0.1
#   - sysctl -a and sysctl kernel.taint_log (procps)
#   - kernel-chktaint (the series' tools/debugging) and sos report, with
#     taintctl's live output beside them for the host to compare
set -u
G=/usr/local/lib/usertaint
O=/var/tmp/e2e
exec > /dev/ttyS1 2>&1
# shellcheck source=../../taintctl/tests/tap.sh
. "$G/tap.sh"
mkdir -p "$O"
TAP_LOG=$O/last.log
tap_diag() { [ -s "$TAP_LOG" ] && sed 's/^/# /' "$TAP_LOG" | tail -n 8; }
# power off when done, whatever happens (the host waits for it)
trap 'sync; systemctl poweroff --no-block' EXIT
mode=$(sed -n 's/.*usertaint\.e2e=\([a-z]*\).*/\1/p' /proc/cmdline)
now() { date +%s.%N; }
since() { echo "$1 $(now)" | awk '{ printf "%.1f", $2 - $1 }'; }

# --- the boot ---------------------------------------------------------------
state=$(systemctl is-system-running --wait 2>&1)
diag "$(systemd-analyze time 2>&1 | head -n 1)"
systemctl list-units --failed --plain --no-legend --no-pager | awk '{ print $1 }' > "$O/failed-units.txt"
diag "failed units: $(tr '\n' ' ' < "$O/failed-units.txt")"
t "the system is up: is-system-running says running or degraded (says $state)" \
	has "$state" '^(running|degraded)$'
t "multi-user.target is active" systemctl is-active -q multi-user.target
t "PID 1 is systemd ($(cat /proc/1/comm))" test "$(cat /proc/1/comm)" = systemd
uname -r > "$O/uname-r"
cat /proc/sys/kernel/tainted > "$O/tainted-at-boot"
[ "$mode" = full ] || tap_done

# --- the packages -------------------------------------------------------------
cd /root/debs || exit 1
t0=$(now)
t "apt install ./*.deb exits 0 (no network device: every dependency is in the root)" \
	apt install -y ./*.deb
diag "apt install: $(since "$t0") s"
cd / || exit 1
for p in taintctl libtaint1 libtaint-dev; do
	t "dpkg: $p is installed" has "$(dpkg-query -W -f '${Status}' "$p" 2>&1)" '^install ok installed$'
done
L=$(dpkg -L taintctl 2>&1)
for f in /usr/bin/taintctl /usr/share/man/man1/taintctl.1.gz \
	/usr/share/bash-completion/completions/taintctl \
	/lib/systemd/system/taintctl-watch.service \
	/lib/systemd/system/taintctl-metrics.service \
	/lib/systemd/system/taintctl-metrics.timer; do
	t "dpkg -L taintctl lists $f, and it is there" eval 'has "$L" "^$f\$" && test -f "$f"'
done
t "dpkg -L libtaint1 lists the shared library" has "$(dpkg -L libtaint1)" '/libtaint\.so\.1$'
t "dpkg -L libtaint-dev lists taint/taint.h and libtaint.pc" \
	eval 'has "$(dpkg -L libtaint-dev)" "/include/taint/taint\.h$" && has "$(dpkg -L libtaint-dev)" "/libtaint\.pc$"'
t "man taintctl's page is readable (zcat)" eval 'zcat /usr/share/man/man1/taintctl.1.gz | grep -q "^\.TH TAINTCTL"'
for u in taintctl-watch.service taintctl-metrics.timer; do
	t "$u: enabled and active after the install (dh_installsystemd)" \
		eval "systemctl is-enabled -q $u && systemctl is-active -q $u"
done
t "prometheus-node-exporter.service is active" systemctl is-active -q prometheus-node-exporter.service

# The watch service reads the state it prints nothing for when it starts:
# wait until its process holds taint_log open (then it has read it).
pid=$(systemctl show -p MainPID --value taintctl-watch.service)
for _ in $(seq 100); do
	ls -l "/proc/$pid/fd" 2>/dev/null | grep -q '/proc/sys/kernel/taint_log' && break
	sleep 0.2
done
t "taintctl watch (pid $pid) holds /proc/sys/kernel/taint_log open" \
	eval "ls -l /proc/$pid/fd | grep -q /proc/sys/kernel/taint_log"
sleep 1

# --- the events -----------------------------------------------------------------
reason1="e2e: deployed by apt, marked with taintctl"
reason2="e2e: set with procps sysctl -w"
t "taintctl mark REASON exits 0" taintctl mark "$reason1"
t "insmod ut_taint.ko (O)" insmod "$G/ut_taint.ko"
t "W set from an NMI (ut_taint: nmi 9)" sh -c 'echo "nmi 9" > /sys/kernel/debug/ut_taint/set'
t "sysctl -w kernel.taint_reason=... (procps) exits 0" sysctl -w kernel.taint_reason="$reason2"
t "the reason reads back through sysctl -n" test "$(sysctl -n kernel.taint_reason)" = "$reason2"
before_oops=$(cat /proc/sys/kernel/tainted)
# An oops in a child shell (LKDTM BUG): its report prints a Taint line for
# every flag set; the shell dies, the system goes on.
sh -c 'echo BUG > /sys/kernel/debug/provoke-crash/DIRECT' > /dev/null 2>&1
sleep 2
tainted=$(cat /proc/sys/kernel/tainted)
cat /proc/sys/kernel/taint_log > "$O/taint_log"
diag "tainted: $before_oops before the oops, $tainted after"
t "the oops set D (tainted $tainted)" test $(( tainted & 128 )) -ne 0
t "the log has U (2 reasons), O, W and D events ($(wc -l < "$O/taint_log") lines)" eval '
	grep -q "origin=user .* reason=\"$reason1\"\$" "$O/taint_log" &&
	grep -q "origin=user .* reason=\"$reason2\"\$" "$O/taint_log" &&
	grep -q "origin=kernel flags=O new=O .* module=ut_taint\$" "$O/taint_log" &&
	grep -q "origin=kernel flags=W new=W .* module=ut_taint caller=ut_nmi_handler" "$O/taint_log" &&
	grep -q "origin=kernel flags=D new=D " "$O/taint_log"'

# --- the journal ------------------------------------------------------------------
sleep 2
journalctl -k -b -o cat --no-pager > "$O/journal-k.txt" 2>&1
for r in "$reason1" "$reason2"; do
	t "journalctl -k: the kernel's notice of the reason '$r'" \
		grep -qE "^taint: U set by pid=[0-9]+ uid=0 comm=\"[^\"]+\" reason=\"$r\"\$" "$O/journal-k.txt"
done
# every flag set before the oops: its Taint line, whole, its first event
# (the kernel's letters by bit, kernel/panic.c's taint_flags)
letters=PFSRMBUDAWCIOELKXTN
for bit in $(seq 0 18); do
	[ $(( before_oops >> bit & 1 )) = 1 ] || continue
	letter=${letters:$bit:1}
	first=$(awk -v l="$letter" '{ for (i = 1; i <= NF; i++) if ($i ~ /^new=/ && index($i, l)) { print; exit } }' "$O/taint_log")
	t "journalctl -k: Taint $letter: its first event, one whole record" \
		grep -qxF "Taint $letter: $first" "$O/journal-k.txt"
done
journalctl -u taintctl-watch -b -o json --no-pager > "$O/journal-watch.json" 2>&1
jflag() {	# jflag LETTER: the watch service's records with FLAG=LETTER
	journalctl -u taintctl-watch -b -o json --no-pager "FLAG=$1" 2>/dev/null
}
t "journalctl -u taintctl-watch: $(grep -c . "$O/journal-watch.json") records" test -s "$O/journal-watch.json"
t "journalctl -u taintctl-watch FLAG=W: the NMI's event, ORIGIN=kernel, caller in ut_taint" \
	eval 'test "$(jflag W | jq -s "[.[] | select(.ORIGIN == \"kernel\" and (.TAINT_CALLER // \"\" | startswith(\"ut_nmi_handler\")))] | length")" = 1'
t "journalctl -u taintctl-watch FLAG=O: the module's event, TAINT_MODULE=ut_taint" \
	eval 'test "$(jflag O | jq -s "[.[] | select(.ORIGIN == \"kernel\" and .TAINT_MODULE == \"ut_taint\")] | length")" = 1'
t "journalctl -u taintctl-watch FLAG=U: the first reason, ORIGIN=user" \
	eval 'test "$(jflag U | jq -s --arg r "$reason1" "[.[] | select(.ORIGIN == \"user\" and .TAINT_REASON == \$r)] | length")" = 1'
t "journalctl -u taintctl-watch FLAG=D: the oops's event" \
	eval 'test "$(jflag D | jq -s "length")" = 1'
t "journalctl -u taintctl-watch ORIGIN=user: both reasons" \
	eval 'test "$(journalctl -u taintctl-watch -b -o json ORIGIN=user | jq -s "[.[] | .TAINT_REASON] | sort" -c)" = "$(jq -nc --arg a "$reason1" --arg b "$reason2" "[\$a, \$b] | sort")"'

# --- metrics ------------------------------------------------------------------------
# the timer's next run (every 60 s) writes the new flags
prom=/var/lib/prometheus/node-exporter/taint.prom
t0=$(now)
for _ in $(seq 150); do
	grep -qE '^kernel_taint_flag\{flag="D",[^}]*\} 1$' "$prom" 2>/dev/null && break
	sleep 1
done
diag "the timer wrote the oops's D after $(since "$t0") s"
cp "$prom" "$O/taint.prom" 2>/dev/null
curl -s --max-time 20 http://127.0.0.1:9100/metrics > "$O/scrape.txt" 2>&1
grep '^kernel_taint' "$O/scrape.txt" > "$O/scrape-taint.txt"
t "node_exporter on 127.0.0.1:9100 serves kernel_taint metrics ($(wc -l < "$O/scrape-taint.txt") lines)" test -s "$O/scrape-taint.txt"
t "scrape: kernel_tainted is the live value ($tainted)" \
	grep -qE "^kernel_tainted $tainted\$" "$O/scrape-taint.txt"
for fo in U:user O:kernel W:kernel D:kernel; do
	f=${fo%:*} o=${fo#*:}
	t "scrape: flag $f is set, first set with origin $o" eval '
		grep -qE "^kernel_taint_flag\\{flag=\"$f\",[^}]*\\} 1\$" "$O/scrape-taint.txt" &&
		grep -qE "^kernel_taint_flag_first_set_timestamp_seconds\\{flag=\"$f\",origin=\"$o\"\\} [0-9]" "$O/scrape-taint.txt"'
done
t "node_exporter reports no textfile error" \
	grep -qE '^node_textfile_scrape_error 0$' "$O/scrape.txt"

# --- sysctl (procps) -------------------------------------------------------------------
rc=0
sysctl -a > "$O/sysctl-a.txt" 2> "$O/sysctl-a.err" || rc=$?
t "sysctl -a exits 0 (exit $rc)" test $rc = 0
t "sysctl -a: no error about the taint files" eval '! grep -i taint "$O/sysctl-a.err"'
t "sysctl -a: kernel.tainted = $tainted" grep -qx "kernel.tainted = $tainted" "$O/sysctl-a.txt"
# procps prints a file line by line (fgets, 1024 bytes), each line as
# "NAME = LINE": the log's lines are far shorter
t "sysctl -a: every line of the log as 'kernel.taint_log = LINE', in order" \
	eval 'sed -n "s/^kernel\.taint_log = //p" "$O/sysctl-a.txt" | cmp -s - "$O/taint_log"'
t "sysctl kernel.taint_log: 'kernel.taint_log = ' before each line of the file" \
	eval 'sed "s/^/kernel.taint_log = /" "$O/taint_log" | cmp -s - <(sysctl kernel.taint_log)'
t "sysctl -n kernel.taint_log: the file, byte for byte" eval 'sysctl -n kernel.taint_log | cmp -s - "$O/taint_log"'
t "sysctl -a: kernel.taint_reason = the last reason" grep -qxF "kernel.taint_reason = $reason2" "$O/sysctl-a.txt"

# --- kernel-chktaint and sos report, beside taintctl's live output ------------------------
sh "$G/kernel-chktaint" > "$O/chktaint.txt" 2>&1
t "kernel-chktaint: the raw value is the live one" grep -q "^Raw taint value as int/string: $tainted/" "$O/chktaint.txt"
t "kernel-chktaint: names the module with taint (ut_taint(O))" grep -q '^Modules with taint:.* ut_taint(O)' "$O/chktaint.txt"
t "kernel-chktaint: the taint log, every line" \
	eval 'sed -n "/^Taint log (/,\$p" "$O/chktaint.txt" | tail -n +2 | sed "s/^ //" | cmp -s - "$O/taint_log"'
for c in status log; do
	taintctl "$c" > "$O/live-$c.txt" 2>&1; echo $? > "$O/live-$c.rc"
	taintctl --json "$c" > "$O/live-$c.json" 2>&1
done
taintctl check --deny W > "$O/live-check.txt" 2>&1; echo $? > "$O/live-check.rc"
cat /proc/sys/kernel/tainted > "$O/tainted-live"
t0=$(now)
rm -rf "$O/sos"
mkdir -p "$O/sos"
rc=0
sos report --batch --quiet --only-plugins kernel --label e2e --tmp-dir "$O/sos" > "$O/sos.log" 2>&1 || rc=$?
diag "sos report: $(since "$t0") s"
tarball=$(ls "$O"/sos/sosreport-*.tar.xz 2>/dev/null | head -n 1)
t "sos report --only-plugins kernel exits 0 and writes a tarball (exit $rc)" test $rc = 0 -a -n "$tarball"
[ -z "$tarball" ] || mv "$tarball" "$O/sosreport.tar.xz"
t "the live state did not change while sos ran" eval \
	'test "$(cat /proc/sys/kernel/taint_log)" = "$(cat "$O/taint_log")" && test "$(cat /proc/sys/kernel/tainted)" = "$(cat "$O/tainted-live")"'
tap_done
