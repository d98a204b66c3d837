# SPDX-License-Identifier: GPL-2.0
# In the guest: the sysctl(8) command line (busybox) sets a reason, and
# reads the files back. TAP on stdout.
. /guest/tap.sh
echo "TAP version 13"
echo "1..3"
out=$(sysctl -w kernel.taint_reason="set with sysctl -w" 2>&1)
ok "sysctl -w kernel.taint_reason=... exits 0 ($out)" test $? -eq 0
got=$(cat /proc/sys/kernel/taint_reason)
ok "the reason reads back (got '$got')" test "$got" = "set with sysctl -w"
ok "the taint log records it" grep -q ' reason="set with sysctl -w"$' /proc/sys/kernel/taint_log
[ $fails -eq 0 ]
