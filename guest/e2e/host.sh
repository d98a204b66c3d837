# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# make e2e, on the host after both boots (sourced by scripts/e2e/e2e.sh, with
# count.sh's check/record): the failed units of the patched boot against
# the stock one's, and the guest's sosreport read with taintctl --root
# against what taintctl printed live in the guest.

units() { local u; u=$(tr '\n' ' ' < "$1"); u=${u% }; echo "${u:-none}"; }

# e2e_units: no unit failed on the patched kernel that did not also fail on
# stock (the same image and config, Debian's 6.12 without the series)
e2e_units() {
	local p=$E/out-patched/failed-units.txt s=$E/out-stock/failed-units.txt extra
	check "e2e: sanity: both boots listed their failed units" "$(ls -l "$p" "$s" 2>&1)" test -f "$p" -a -f "$s"
	[ -f "$p" ] && [ -f "$s" ] || return 0
	extra=$(comm -23 <(sort -u "$p") <(sort -u "$s"))
	check "e2e: no unit failed on the patched kernel that did not fail on stock (failed on patched: $(units "$p"); on stock: $(units "$s"))" \
		"only on patched: $extra" test -z "$extra"
	check "e2e: both boots ran the same Debian kernel release but for the series ($(cat "$E/out-patched/uname-r" 2>/dev/null) / $(cat "$E/out-stock/uname-r" 2>/dev/null))" \
		"uname -r differs" test -s "$E/out-patched/uname-r" -a -s "$E/out-stock/uname-r"
}

# e2e_sos: the sosreport, unpacked on the host, read with taintctl --root:
# status, log (text and JSON) and check --deny W give what taintctl gave
# live in the guest, byte for byte, and the same exit codes
e2e_sos() {
	local o=$E/out-patched tc=$ROOT/taintctl/build/taintctl d c rc
	check "e2e: sanity: the guest's sosreport reached the host" "$(ls -l "$o" 2>&1 | sed -n '1,20p')" test -s "$o/sosreport.tar.xz"
	[ -s "$o/sosreport.tar.xz" ] || return 0
	make -s -C "$ROOT/taintctl" >&2 || { record fail "e2e: build taintctl" "make -C taintctl failed"; return; }
	rm -rf "$E/sos"
	mkdir -p "$E/sos"
	tar -C "$E/sos" -xJf "$o/sosreport.tar.xz"
	d=$(ls -d "$E"/sos/sosreport-* 2>/dev/null | sed -n 1p)
	# sos 4.4's kernel plugin copies tainted, not the 0400 taint_log: the
	# log is in its sysctl -a output, a "kernel.taint_log = " per line
	check "e2e: the sosreport's proc/sys/kernel/tainted is the live value ($(cat "$o/tainted-live" 2>/dev/null))" \
		"$(ls -l "$d/proc/sys/kernel" 2>&1 | sed -n 1,10p)" \
		eval 'test -s "$o/tainted-live" && test "$(cat "$d/proc/sys/kernel/tainted")" = "$(cat "$o/tainted-live")"'
	check "e2e: sos copies no proc/sys/kernel/taint_log (so taintctl reads sysctl_-a)" \
		"it does now: the next check reads that file" test ! -e "$d/proc/sys/kernel/taint_log"
	check "e2e: the sosreport's sos_commands/kernel/sysctl_-a holds the live log, a 'kernel.taint_log = ' per line" \
		"$(sed -n 's/^kernel\.taint_log = //p' "$d/sos_commands/kernel/sysctl_-a" 2>&1 | diff "$o/taint_log" - | sed -n 1,5p)" \
		eval 'sed -n "s/^kernel\.taint_log = //p" "$d/sos_commands/kernel/sysctl_-a" | cmp -s "$o/taint_log" -'
	for c in status log; do
		rc=0; "$tc" --root "$d" "$c" > "$E/sos-$c.txt" 2>&1 || rc=$?
		check "e2e: taintctl --root SOSREPORT $c: the live text and exit code ($(cat "$o/live-$c.rc"))" \
			"exit $rc; $(diff "$o/live-$c.txt" "$E/sos-$c.txt" | sed -n '1,10p')" \
			eval 'cmp -s "$o/live-$c.txt" "$E/sos-$c.txt" && test "$rc" = "$(cat "$o/live-$c.rc")"'
		"$tc" --root "$d" --json "$c" > "$E/sos-$c.json" 2>&1 || true
		check "e2e: taintctl --root SOSREPORT --json $c: the live JSON" \
			"$(diff "$o/live-$c.json" "$E/sos-$c.json" | sed -n '1,10p')" cmp -s "$o/live-$c.json" "$E/sos-$c.json"
	done
	rc=0; "$tc" --root "$d" check --deny W > "$E/sos-check.txt" 2>&1 || rc=$?
	check "e2e: taintctl --root SOSREPORT check --deny W: exit 1 as live ($(cat "$o/live-check.rc")), the same message" \
		"exit $rc; $(diff "$o/live-check.txt" "$E/sos-check.txt" | sed -n '1,5p')" \
		eval 'test "$rc" = 1 && test "$(cat "$o/live-check.rc")" = 1 && cmp -s "$o/live-check.txt" "$E/sos-check.txt"'
}

e2e_host_checks() {
	e2e_units
	e2e_sos
}
