# SPDX-License-Identifier: GPL-2.0
# In the guest: the sysctl(8) command line (busybox) sets a reason, and
# reads the files back. TAP on stdout.
. /guest/tap.sh
out=$(sysctl -w kernel.taint_reason="set with sysctl -w" 2>&1)
t "sysctl -w kernel.taint_reason=... exits 0 ($out)" test $? -eq 0
got=$(cat /proc/sys/kernel/taint_reason)
t "the reason reads back (got '$got')" test "$got" = "set with sysctl -w"
t "the taint log records it" grep -q ' reason="set with sysctl -w"$' /proc/sys/kernel/taint_log
# One write(2) a reason: the second on the same open file is at a non-zero
# offset, and is refused.
exec 5>/proc/sys/kernel/taint_reason
echo "first write on one fd" >&5
t "a write on a fresh fd sets the reason" grep -qx "first write on one fd" /proc/sys/kernel/taint_reason
if echo "second write on the same fd" >&5 2>/dev/null; then second=accepted; else second=refused; fi
exec 5>&-
t "a second write() on the same taint_reason fd is refused ($second), the reason unchanged" \
	eval 'test "$second" = refused && grep -qx "first write on one fd" /proc/sys/kernel/taint_reason'
tap_done
