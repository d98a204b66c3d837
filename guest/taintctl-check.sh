# SPDX-License-Identifier: GPL-2.0
# In the guest: the static taintctl against the patched kernel. TAP on
# stdout. Runs before the kselftests, while the taint log has free slots.
. /guest/tap.sh
json_ws='[[:space:]]*'

# The flags the kernel came up with (T with RANDSTRUCT, the check-matrix
# entry randstruct), as letters: check --allow must allow them too.
letters=PFSRMBUDAWCIOELKXTN	# bits 0-18, kernel/panic.c
before=$(cat /proc/sys/kernel/tainted) pre="" b=0
while [ $b -lt ${#letters} ]; do
	[ $(( (before >> b) & 1 )) = 0 ] || pre=$pre$(echo "$letters" | cut -c$((b + 1)))
	b=$((b + 1))
done
reason='guest check: taintctl "mark" \ works'
t "taintctl mark exits 0" taintctl mark "$reason"
mask=$(cat /proc/sys/kernel/tainted)
t "mark set U in the kernel's mask" test $((mask & 64)) -eq 64
t "taint_reason holds the reason" test "$(cat /proc/sys/kernel/taint_reason)" = "$reason"

status=$(taintctl status --json); rc=$?
printf '%s\n' "$status" | sed 's/^/# status --json: /'
t "status --json exits 0" test $rc -eq 0
t "status --json: mask is the kernel's" has "$status" "\"mask\":$json_ws$mask[,}]"
t "status --json: U flag listed" has "$status" "\"letter\":$json_ws\"U\",$json_ws\"bit\":${json_ws}6"
t "status --json: the event carries the reason, unescaped" \
	has "$status" "\"reason\":$json_ws\"guest check: taintctl \\\\\"mark\\\\\" \\\\\\\\ works\""

log=$(taintctl log --json); rc=$?
printf '%s\n' "$log" | sed 's/^/# log --json: /'
t "log --json exits 0" test $rc -eq 0
t "log --json: a user event from taintctl" has "$log" "\"comm\":$json_ws\"taintctl\""
t "log --json: dropped is 0" has "$log" "\"dropped\":${json_ws}0"

taintctl check --deny U >/dev/null; rc=$?
t "check --deny U exits 1 (U is set)" test $rc -eq 1
taintctl check --allow "U$pre" >/dev/null; rc=$?
t "check --allow U$pre exits 0 (only U${pre:+ and $pre, set at boot,} is set)" test $rc -eq 0
tap_done
