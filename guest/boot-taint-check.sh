# SPDX-License-Identifier: GPL-2.0
# In the guest, on the test boot before any test: every taint flag the
# kernel came up with has its first event in the taint log, from the
# kernel. A flag set without add_taint() (T with RANDSTRUCT, in the mask
# from the start) gets one from the series' early initcall:
# "origin=kernel flags=T new=T". guest/test.sh runs this only when the
# mask is not 0. TAP on stdout; the log as it was, as comments.
. /guest/tap.sh
letters=PFSRMBUDAWCIOELKXTN	# bits 0-18, kernel/panic.c
mask=$(cat /proc/sys/kernel/tainted)
log=$(cat /proc/sys/kernel/taint_log)
echo "# tainted=$mask at boot; taint_log:"
printf '%s\n' "$log" | sed 's/^/# /'
set=""
b=0
while [ $b -lt ${#letters} ]; do
	[ $(( (mask >> b) & 1 )) = 1 ] && set="$set $b"
	b=$((b + 1))
done
[ -n "$set" ] || tap_skip_all "no flag set at boot"
for b in $set; do
	l=$(echo "$letters" | cut -c$((b + 1)))
	t "$l (bit $b), set at boot, has its first event from the kernel" \
		has "$log" " origin=kernel flags=[A-Z]+ new=[A-Z]*${l}[A-Z]*( |$)"
done
tap_done
