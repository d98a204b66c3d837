# SPDX-License-Identifier: GPL-2.0
# In the guest: the sysctl(8) command line (busybox) sets a reason, and
# reads the files back. TAP on stdout.
echo "TAP version 13"
echo "1..3"
out=$(sysctl -w kernel.taint_reason="set with sysctl -w" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "ok 1 sysctl -w kernel.taint_reason=... exits 0" ||
	echo "not ok 1 sysctl -w kernel.taint_reason=... exits 0 (rc $rc: $out)"
got=$(cat /proc/sys/kernel/taint_reason)
[ "$got" = "set with sysctl -w" ] && echo "ok 2 the reason reads back" ||
	echo "not ok 2 the reason reads back (got '$got')"
grep -q ' reason="set with sysctl -w"$' /proc/sys/kernel/taint_log &&
	echo "ok 3 the taint log records it" ||
	echo "not ok 3 the taint log records it"
