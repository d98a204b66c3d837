# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Post-mortem: the guest tainted the kernel (reasons, a tainted write, a
# module's O, a core-kernel WARN, an NMI in the module), printed its log
# with taintctl, and panicked (panic=0); QEMU then dumped its memory with
# VMCOREINFO (boot.sh -d). taintctl log --vmcore must print from the dump
# the text and JSON the guest printed live, byte for byte, but for caller=
# of module code, which a dump cannot name (documented: taintctl(1)).
# suite: scenario-dump 9 0 scenario default,debug usr/bin/taintctl warn=1,panic=1,trace=2

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	# Post-mortem: booted with panic=0, and dumped by the host after the
	# panic (boot.sh -d). Two reasons (one with quotes and a backslash),
	# N set by a tainted write, O from loading the test module, W
	# from a WARN in core kernel code (LKDTM is built in: its caller is
	# named from the dump's kallsyms), C from an NMI in the module (no
	# caller in the dump: module code); then the log as taintctl prints
	# it live, text and JSON, for the host to compare with the dump.
	mods=/lib/modules/$(arg variant)
	taint_with_reason
	printf '%s\n' 'dump: second "reason" \ with quotes' > /proc/sys/kernel/taint_reason
	echo 262144 > /proc/sys/kernel/tainted
	insmod "$mods/ut_taint.ko" && echo "loaded ut_taint" >&3
	echo WARNING > $crash
	echo "nmi 10" > /sys/kernel/debug/ut_taint/set && echo "set C from NMI" >&3
	for f in text json; do
		echo "##LIVE-$f-BEGIN" >&3
		if [ $f = json ]; then taintctl log --json >&3; else taintctl log >&3; fi
		echo "##LIVE-$f-END rc=$?" >&3
	done
	# the kernel's own text, for make kdump-witness (drgn's lines must
	# be these, byte for byte)
	echo "##LIVE-raw-BEGIN" >&3
	cat /proc/sys/kernel/taint_log >&3 2>&1
	echo "##LIVE-raw-END rc=$?" >&3
	# The panic stops the guest at once: give ttyS1 the time to send the
	# lines above first (as oops-then-panic does).
	sleep 1
	echo PANIC > $crash
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-dump.console r=$LOGS/scenario-dump.results
	local d=$BUILD/dump/scenario-dump-$variant.elf out=$LOGS/scenario-dump
	local tctl=$ROOT/taintctl/build/taintctl rc f0=$FAIL nt nj
	mkdir -p "$BUILD/dump"
	make -s -C "$ROOT/taintctl" >&2 || { check "build taintctl" "make -C taintctl failed" false; return; }
	UT_DUMP_FORMAT=elf,kdump-zlib boot scenario-dump scenario 180 "ut.scenario=dump" 2 "$d" || return
	check "sanity: the guest panicked" "no dumptest panic in $c" \
		grep -q 'Kernel panic - not syncing: dumptest' "$c"
	check "sanity: the guest printed its log live (text and JSON)" "$(grep '^##LIVE' "$r")" \
		test "$(grep -cE '^##LIVE-(text|json)-END rc=0$' "$r")" = 2
	check "sanity: QEMU wrote an ELF dump with a VMCOREINFO note" \
		"$(ls -l "$d" 2>&1; readelf -n "$d" 2>&1 | grep -c VMCOREINFO) VMCOREINFO notes" \
		test "$(readelf -n "$d" 2>/dev/null | grep -c VMCOREINFO)" -ge 1
	live_block "$r" text | sed '/ module=/s/ caller=[^ ]*$//' > "$out.want.txt"
	live_block "$r" json | jq -c '.events |= map(if has("module") then del(.caller) else . end)' > "$out.want.json" 2> "$out.want.err"
	rc=0; "$tctl" log --vmcore "$d" > "$out.txt" 2> "$out.err" || rc=$?
	check "taintctl log --vmcore: the live text, byte for byte ($(grep -c '^\[' "$out.txt") events)" \
		"exit $rc, $(head -c 300 "$out.err"); $(diff "$out.want.txt" "$out.txt" > "$out.txt.diff"; head -n 20 "$out.txt.diff")" \
		cmp -s "$out.want.txt" "$out.txt"
	rc=0; "$tctl" log --vmcore "$d" --json | jq -c . > "$out.json" 2> "$out.err" || rc=$?
	# Two empty files are equal: the live JSON must parse and hold as many
	# events as the live text, at least one.
	nt=$(grep -c '^\[' "$out.want.txt") nj=$(jq '.events | length' "$out.want.json" 2>/dev/null)
	check "taintctl log --vmcore --json: the live JSON ($nj events, as the text)" \
		"exit $rc, $(head -c 300 "$out.err"); live: $nt text events, JSON ${nj:-unparsed} $(head -c 300 "$out.want.err"); $(diff "$out.want.json" "$out.json" > "$out.json.diff"; head -c 600 "$out.json.diff")" \
		same_json "$nt" "$nj" "$out.want.json" "$out.json"
	check "a core-kernel caller named from the dump (lkdtm_WARNING)" \
		"$(grep ' kernel W ' "$out.txt")" grep -qE ' kernel W +new=W .* caller=lkdtm_WARNING\+0x[0-9a-f]+/0x[0-9a-f]+$' "$out.txt"
	check "sanity: the live log has every kind of event" "$(cat "$out.want.txt")" \
		test "$(grep -cE ' user +U .* reason=| user +N +new=N | kernel O +new=O .* module=ut_taint$| kernel W +new=W .* caller=| kernel C +new=C .* module=ut_taint$' "$out.want.txt")" = 6
	check "sanity: live, the NMI event in the module has a caller (the dump leaves it out)" \
		"$(grep ' kernel C ' "$r")" grep -qE ' kernel C +new=C .* module=ut_taint caller=ut_' "$r"
	# QEMU's kdump-zlib format of the same memory (QEMU 7.2 writes it
	# flattened, zlib pages, its own writer, not makedumpfile's): the same
	# text. (scenario-kdump reads makedumpfile's.)
	rc=0; "$tctl" log --vmcore "$d.kdump-zlib" > "$out.kdump.txt" 2> "$out.kdump.err" || rc=$?
	check "QEMU's kdump-zlib dump (flattened): taintctl log --vmcore: the live text, byte for byte" \
		"exit $rc, $(head -c 300 "$out.kdump.err"); $(od -A n -c -N 12 "$d.kdump-zlib" 2>&1); $(diff "$out.want.txt" "$out.kdump.txt" > "$out.kdump.diff"; head -n 20 "$out.kdump.diff")" \
		same_text "$out.want.txt" "$out.kdump.txt"
	# The dumps are as large as the guest's memory: kept only when a check failed.
	[ "$FAIL" = "$f0" ] && rm -f "$d" "$d.kdump-zlib"
}

live_block() {	# live_block RESULTS text|json: what the guest printed
	sed -n "/^##LIVE-$2-BEGIN\$/,/^##LIVE-$2-END/p" "$1" | sed '1d;$d'
}
# same_json TEXT-EVENTS JSON-EVENTS WANT GOT: the live JSON holds the text's
# events (at least one), and the dump's JSON is the same
# same_text WANT GOT: at least one event, and the same text
same_text() { [ "$(grep -c '^\[' "$1")" -gt 0 ] && cmp -s "$1" "$2"; }
same_json() { [ "$1" -gt 0 ] && [ "$2" = "$1" ] && [ -s "$3" ] && cmp -s "$3" "$4"; }
