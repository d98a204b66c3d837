#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The recorder's check on a Debian machine (scripts/e2e/record-debian.sh):
# Debian's kernel booted with its own initramfs, systemd, and the taintctl
# package's taintctl-record.service from early boot.  A login (login -f
# root, through script for a terminal: pam_loginuid sets the login uid)
# writes 64 to kernel.tainted; the test module loads (O, E) and WARNs; the
# recorder is killed and systemd restarts it (a gap).  Everything goes to
# the console between markers, for the host to check.  Powers off.
out() { echo "$*" >/dev/ttyS0; }
out "DCHECK: kernel $(uname -r)"
out "DCHECK: record unit $(systemctl is-active taintctl-record.service) since $(systemctl show -p ActiveEnterTimestampMonotonic --value taintctl-record.service)"
out "DCHECK: udevd started at $(systemctl show -p ExecMainStartTimestampMonotonic --value systemd-udevd.service)"
printf 'echo "DCHECK: login pid $$ auid $(cat /proc/self/loginuid)" >/dev/ttyS0; echo 64 > /proc/sys/kernel/tainted; exit\n' |
	script -qfc 'login -f root' /dev/null >/dev/null 2>&1
insmod /usr/local/lib/ut_record.ko && out "DCHECK: insmod ok"
sh -c 'echo 1 > /sys/module/ut_record/parameters/warn'
sleep 3
pid=$(systemctl show -p MainPID --value taintctl-record.service)
systemctl kill -s KILL taintctl-record.service
sleep 5
out "DCHECK: record unit after kill $(systemctl is-active taintctl-record.service) pid $pid -> $(systemctl show -p MainPID --value taintctl-record.service)"
sh -c 'echo 1 > /proc/sys/kernel/tainted'
sleep 3
out "DCHECK-LOG-BEGIN"
cat /run/taintctl/taint_log >/dev/ttyS0
out "DCHECK-LOG-END"
out "DCHECK-STATUS-BEGIN"
taintctl status >/dev/ttyS0 2>&1
out "DCHECK-STATUS-END"
journalctl -b -u taintctl-record.service --no-pager 2>&1 | sed 's/^/DCHECK-J: /' >/dev/ttyS0
out "DCHECK: done"
systemctl poweroff
