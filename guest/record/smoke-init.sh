#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /init of scripts/e2e/record-smoke.sh's guest: a busybox initramfs on one
# of Debian's own kernels (no Debian root).  taintctl record runs, a shell
# writes 64 to kernel.tainted, the recorder is killed (-9) and started
# again (a gap), and the log and the results go to the console between
# markers, which the host checks.  Powers off.
export PATH=/bin:/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs run /run
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /run/taintctl
# smoke.kprobes=1 on the command line: the recorder's fallback programs
grep -q 'smoke.kprobes=1' /proc/cmdline && export TAINTCTL_RECORD_KPROBES=1
echo "SMOKE: kernel $(uname -r) btf=$([ -e /sys/kernel/btf/vmlinux ] && echo yes || echo no) mask=$(cat /proc/sys/kernel/tainted)"

start() {
	taintctl record 2>>/run/record.err &
	REC=$!
	i=0
	until grep -q 'recording to' /run/record.err 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 600 ] || ! kill -0 $REC 2>/dev/null; then
			echo "SMOKE: recorder did not start"
			sed 's/^/SMOKE-ERR: /' /run/record.err
			return 1
		fi
		sleep 0.2
	done
	return 0
}

if start; then
	echo "SMOKE: started: $(grep -o 'recording to.*' /run/record.err | tail -1)"
	# a user request from a shell of its own: its pid is the event's; its
	# login uid set as pam_loginuid sets it at a login
	sh -c 'echo 1000 > /proc/self/loginuid; echo "SMOKE: writer pid $$"; echo 64 > /proc/sys/kernel/tainted'
	# the test module (built against this kernel's headers): O and E, then
	# a WARN from one of its functions
	if [ -f /lib/ut_record.ko ]; then
		insmod /lib/ut_record.ko && echo "SMOKE: insmod ok"
		sh -c 'echo 1 > /sys/module/ut_record/parameters/warn'
		echo "SMOKE: warned"
	fi
	# a reason through the recorder: taintctl mark on a stock kernel
	taintctl mark smoke test reason && echo "SMOKE: marked"
	sleep 3
	# lost events: the recorder stopped, 2000 requests (368 bytes each)
	# overflow its 256 KiB ring buffer
	kill -STOP $REC
	i=0
	while [ $i -lt 2000 ]; do echo 64 > /proc/sys/kernel/tainted; i=$((i + 1)); done
	kill -CONT $REC
	sleep 3
	kill -9 $REC
	wait $REC 2>/dev/null
	: >/run/record.err
	if start; then
		echo "SMOKE: restarted"
		sh -c 'echo "SMOKE: writer2 pid $$"; echo 1 > /proc/sys/kernel/tainted'
		sleep 3
		kill -TERM $REC
		wait $REC
		echo "SMOKE: recorder exit $?"
	fi
fi
sed 's/^/SMOKE-ERR: /' /run/record.err
echo "SMOKE-LOG-BEGIN"
cat /run/taintctl/taint_log
echo "SMOKE-LOG-END"
echo "SMOKE-STATUS-BEGIN"
taintctl status
echo "SMOKE-STATUS-END"
echo "SMOKE: done"
poweroff -f
