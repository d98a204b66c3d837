# SPDX-License-Identifier: GPL-2.0
# Scenario boots, sourced by test.sh: each provokes one report in the guest
# (guest/scenario.sh) and checks the console here. A check that a stock
# kernel passes too (make stock-scenarios, docs/stock-scenarios.txt) says
# "sanity:" in its name; every scenario also has checks that only the
# patched kernel passes.

# section LOG START-RE END-RE: the lines of the first report from START to
# END (or to the end of the log).
# (awk reads on to the end: an exit would kill plain with SIGPIPE.)
section() { plain "$1" | awk -v s="$2" -v e="$3" 'f==0 && $0 ~ s {f=1} f==1 {print} f==1 && $0 ~ e {f=2}'; }

# With panic=-1 the guest resets right after the panic notifiers, before
# vpanic() prints its "end Kernel panic" line: a panic report ends there.
PANIC_END='end Kernel panic|Kernel Offset:|Rebooting in'


# The reason the guest wrote, as the kernel escapes it in reports.
escaped_reason() { sed -n 's/^reason=//p' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'; }
writer_pid() { sed -n 's/^writer pid=//p' "$1"; }

# taint_u_line SECTION-FILE RESULTS: the report names the writer and reason.
taint_u_line() {
	local sec=$1 res=$2 pid reason
	pid=$(writer_pid "$res")
	reason=$(escaped_reason "$res")
	[ -n "$pid" ] && [ -n "$reason" ] || return 1
	[ "$(grep -F "Taint U: " "$sec" | grep -F " pid=$pid " | grep -F ' comm="sh" ' |
		grep -cF "reason=\"$reason\"")" -gt 0 ]
}

# The reports an oops scenario asks for: one oops (a NULL write in LKDTM),
# which the debug kernel's KASAN reports first, and the REPORT=N given
# besides (a panic after it dumps no stack: D is set).
expect_oops_reports() {	# expect_oops_reports NAME LOG [REPORT=N...]
	local name=$1 log=$2
	shift 2
	if [ "$variant" = debug ]; then
		expect_reports "$name" "$log" "BUG:=2" "Oops:=1" "Call Trace:=2" "$@"
	else
		expect_reports "$name" "$log" "BUG:=1" "Oops:=1" "Call Trace:=1" "$@"
	fi
}

# Console lines that start with forged text, and Taint lines of a report
# that show a raw kernel address: each check wants none, and prints them.
lines_starting() { plain "$1" | grep -n "^$2"; }	# lines_starting LOG TEXT
raw_address_lines() { grep -E '^Taint [A-Z]:' "$1" | grep -E 'ffff[0-9a-f]{12}|0x[0-9a-f]{16}'; }
none() { ! "$@" > /dev/null; }	# none COMMAND...: COMMAND prints nothing it finds
# forged_writer_line PID REASON FILE: the writer's line, comm and reason escaped.
forged_writer_line() {
	[ "$(grep -F " pid=$1 uid=0 auid=" "$3" | grep -cF " comm=\"s\\x0aTaint W: fake\" reason=\"$2\"")" -gt 0 ]
}

scenario_run() {	# scenario_run NAME [APPEND]
	boot "scenario-$1" scenario 120 "ut.scenario=$1 ${2:-}"
}

scenario_warn() {
	local c=$LOGS/scenario-warn.console r=$LOGS/scenario-warn.results sec=$LOGS/scenario-warn.report
	scenario_run warn || return
	section "$c" 'cut here' 'end trace' > "$sec"
	check "scenario warn: sanity: a WARNING report" "no WARNING in $c" grep -q '^WARNING:' "$sec"
	# The seed's promise: U shows in the Tainted: line of the WARN report.
	check "scenario warn: sanity: U in the report's Tainted: line" "$(grep -o 'Tainted:.*' "$sec")" \
		grep -qE 'Tainted: [A-Z ]*U' "$sec"
	local n
	n=$(grep -c '^Taint [A-Z]:' "$sec")
	check "scenario warn: sanity: O was set too before the WARN" "$(grep '^before warn' "$r")" \
		eval "[ \$(( \$(sed -n 's/^before warn: mask=//p' '$r') & 4096 )) -ne 0 ]"
	check "scenario warn: one Taint line, U, though O is set too" "$(grep '^Taint' "$sec")" \
		test "$n" = 1 -a "$(grep -c '^Taint U:' "$sec")" = 1
	check "scenario warn: Taint U: line names writer and reason" "$(grep '^Taint' "$sec")" \
		taint_u_line "$sec" "$r"
	check "scenario warn: utc= is the guest's date once its clock is set" \
		"$(grep -E '^(date|taint_log):' "$r")" utc_is_date "$r"
	expect_reports "scenario warn" "$c" "WARNING:=1" "Call Trace:=1"
}

# utc_is_date RESULTS: the writer's line has a utc= of the guest's date
# (the date line) within a minute, and that date is this year's or later
# (the clock was set: QEMU's RTC gives the host's time).
utc_is_date() {
	local res=$1 now utc t0 t1
	now=$(sed -n 's/^date: //p' "$res")
	utc=$(sed -n 's/^taint_log: .* utc=\([^ ]*\) origin=user .*/\1/p' "$res")
	utc=${utc%%$'\n'*}	# the first user line's
	[ -n "$now" ] && [ -n "$utc" ] && [ "$utc" != - ] || return 1
	t0=$(date -u -d "$now" +%s) && t1=$(date -u -d "$utc" +%s) || return 1
	[ $((t0 - t1)) -ge 0 ] && [ $((t0 - t1)) -le 60 ] &&
		[ "${now%%-*}" -ge 2025 ]
}

scenario_oops() {
	local c=$LOGS/scenario-oops.console r=$LOGS/scenario-oops.results sec=$LOGS/scenario-oops.report
	scenario_run oops || return
	section "$c" 'Oops:' 'end trace' > "$sec"
	check "scenario oops: sanity: an Oops report" "no Oops in $c" grep -q 'Oops:' "$sec"
	check "scenario oops: Taint U: line names writer and reason" "$(grep '^Taint' "$sec")" \
		taint_u_line "$sec" "$r"
	check "scenario oops: sanity: guest survived the oops" "see $r" grep -q '^survived oops' "$r"
	if [ "$variant" = debug ]; then
		# KASAN catches LKDTM's NULL write first: that report was asked
		# for too, and it must be the only KASAN report.
		check "scenario oops: KASAN reports only the provoked NULL write" \
			"$(grep -o 'BUG: KASAN: .*' "$c")" \
			test "$(grep -c 'BUG: KASAN: ' "$c")" = 1 -a \
			"$(grep -c 'BUG: KASAN: null-ptr-deref in lkdtm_EXCEPTION' "$c")" = 1
	fi
	expect_oops_reports "scenario oops" "$c"
}

# A writer with comm "s\nTaint W: fake": the report escapes it, nothing in
# the console starts with the forged text, and no report line shows a raw
# kernel address.
scenario_oops_forged() {
	local c=$LOGS/scenario-oops-forged.console r=$LOGS/scenario-oops-forged.results
	local sec=$LOGS/scenario-oops-forged.report pid reason
	scenario_run oops-forged || return
	section "$c" 'Oops:' 'end trace' > "$sec"
	pid=$(writer_pid "$r")
	reason=$(escaped_reason "$r")
	check "scenario oops-forged: an Oops report with a Taint U: line" "$(grep '^Taint' "$sec")" \
		grep -q '^Taint U: ts=' "$sec"
	check "scenario oops-forged: comm and reason escaped on one line" "$(grep '^Taint U' "$sec")" \
		forged_writer_line "$pid" "$reason" "$sec"
	check "scenario oops-forged: sanity: no forged line anywhere on the console" \
		"$(lines_starting "$c" 'Taint W: fake')" \
		none lines_starting "$c" 'Taint W: fake'
	check "scenario oops-forged: sanity: no raw kernel address in Taint lines" \
		"$(raw_address_lines "$sec")" \
		none raw_address_lines "$sec"
	expect_oops_reports "scenario oops-forged" "$c"
}

scenario_panic() {
	local c=$LOGS/scenario-panic.console r=$LOGS/scenario-panic.results sec=$LOGS/scenario-panic.report
	scenario_run panic || return
	section "$c" 'Kernel panic - not syncing' "$PANIC_END" > "$sec"
	check "scenario panic: sanity: a panic report" "no panic in $c" grep -q 'Kernel panic - not syncing: dumptest' "$sec"
	check "scenario panic: Taint U: line names writer and reason" "$(grep '^Taint' "$sec")" \
		taint_u_line "$sec" "$r"
	expect_reports "scenario panic" "$c" "Kernel panic=1" "Call Trace:=1"
}

# A panic after an oops that the system survived: D stays set, and the
# panic report must still say where each flag came from (the oops's own
# lines are not enough: they may have scrolled away or missed pstore).
scenario_oops_then_panic() {
	local c=$LOGS/scenario-oops-then-panic.console r=$LOGS/scenario-oops-then-panic.results
	local sec=$LOGS/scenario-oops-then-panic.report
	scenario_run oops-then-panic || return
	section "$c" 'Kernel panic - not syncing' "$PANIC_END" > "$sec"
	check "scenario oops-then-panic: sanity: the guest survived the oops, then panicked" \
		"$(grep '^survived' "$r"); $(grep -c 'Kernel panic - not syncing: dumptest' "$sec") panics" \
		test "$(grep -c '^survived oops' "$r")" = 1 -a \
		"$(grep -c 'Kernel panic - not syncing: dumptest' "$sec")" = 1
	check "scenario oops-then-panic: the panic's Taint U: line names writer and reason" \
		"$(grep '^Taint' "$sec")" taint_u_line "$sec" "$r"
	check "scenario oops-then-panic: the panic's Taint D: line names the oops" \
		"$(grep '^Taint' "$sec")" \
		grep -qE '^Taint D: ts=[0-9.]+ .* origin=kernel flags=D new=D .* comm="sh"' "$sec"
	expect_oops_reports "scenario oops-then-panic" "$c" "Kernel panic=1"
}

scenario_panic_on_taint() {
	local c=$LOGS/scenario-panic-on-taint.console r=$LOGS/scenario-panic-on-taint.results
	local sec=$LOGS/scenario-panic-on-taint.report
	scenario_run panic-on-taint "panic_on_taint=0x40" || return
	section "$c" 'Kernel panic - not syncing: panic_on_taint' "$PANIC_END" > "$sec"
	check "scenario panic-on-taint: sanity: the write panicked" "no panic_on_taint panic in $c" \
		grep -q 'Kernel panic - not syncing: panic_on_taint set' "$sec"
	# Recorded first, then panicked: the panic report already has the reason.
	check "scenario panic-on-taint: the panic names writer and reason" "$(grep '^Taint' "$sec")" \
		taint_u_line "$sec" "$r"
	expect_reports "scenario panic-on-taint" "$c" "Kernel panic=1" "Call Trace:=1"
}

# oops=panic: the oops report prints the Taint lines, and the panic that
# follows does not print them again.
scenario_oops_panic() {
	local c=$LOGS/scenario-oops-panic.console r=$LOGS/scenario-oops-panic.results
	local sec=$LOGS/scenario-oops-panic.report n dup
	scenario_run oops-panic "oops=panic" || return
	section "$c" 'Oops:' "$PANIC_END" > "$sec"
	check "scenario oops-panic: sanity: the oops turned into a panic" "no 'Fatal exception' panic in $c" \
		grep -q 'Kernel panic - not syncing: Fatal exception' "$sec"
	check "scenario oops-panic: Taint U: line names writer and reason" "$(grep '^Taint' "$sec")" \
		taint_u_line "$sec" "$r"
	n=$(plain "$c" | grep -c '^Taint U: ')
	dup=$(plain "$c" | grep -o '^Taint [A-Z]:' | sort | uniq -d | tr '\n' ' ')
	check "scenario oops-panic: each Taint line printed once ($n Taint U: lines)" \
		"printed more than once: ${dup:-none}, Taint U: $n times" \
		test "$n" = 1 -a -z "$dup"
	expect_oops_reports "scenario oops-panic" "$c" "Kernel panic=1"
}

# taint_log.report=0: reports carry no Taint lines; the log still has all.
scenario_report_off() {
	local c=$LOGS/scenario-report-off.console r=$LOGS/scenario-report-off.results
	local sec=$LOGS/scenario-report-off.report
	scenario_run report-off "taint_log.report=0" || return
	section "$c" 'Oops:' 'end trace' > "$sec"
	check "scenario report-off: sanity: an Oops report with U in Tainted:" \
		"$(grep -o 'Tainted:.*' "$sec")" grep -qE 'Tainted: [A-Z ]*U' "$sec"
	check "scenario report-off: the parameter reads N" "$(grep '^report param' "$r")" \
		grep -qx 'report param=N' "$r"
	check "scenario report-off: sanity: no Taint lines in the oops report" "$(grep '^Taint [A-Z]:' "$sec")" \
		none grep '^Taint [A-Z]:' "$sec"
	check "scenario report-off: the log still names the writer" "$(grep '^taint_log:' "$r")" \
		grep -q "^taint_log: .* origin=user flags=U .* pid=$(writer_pid "$r") " "$r"
	# Written at run time, the parameter takes effect: the WARN after it
	# has its Taint U: line.
	check "scenario report-off: the parameter written 1 at run time reads Y" \
		"$(grep '^report param now' "$r")" grep -qx 'report param now=Y' "$r"
	section "$c" 'cut here' 'end trace' > "$sec.warn"
	check "scenario report-off: after it, the WARN report has its Taint U: line" \
		"$(grep '^Taint' "$sec.warn")" taint_u_line "$sec.warn" "$r"
	if [ "$variant" = debug ]; then
		expect_reports "scenario report-off" "$c" "BUG:=2" "Oops:=1" "WARNING:=1" "Call Trace:=3"
	else
		expect_reports "scenario report-off" "$c" "BUG:=1" "Oops:=1" "WARNING:=1" "Call Trace:=2"
	fi
}

# The test module: module= for its load (O) and its WARN (W), a caller
# while it is loaded, and after it is unloaded and ut_other took its
# memory, neither ut_other's code nor a raw address, in the log and in the
# oops report.
scenario_module() {
	local c=$LOGS/scenario-module.console r=$LOGS/scenario-module.results
	local sec=$LOGS/scenario-module.report t1 t2 t3 stage
	scenario_run module || return
	section "$c" 'Oops:' 'end trace' > "$sec"
	check "scenario module: ut_taint loaded, unloaded, ut_other loaded" "$(grep -E '^(un)?loaded ut_' "$r")" \
		test "$(grep -cE '^(loaded ut_taint|unloaded ut_taint|loaded ut_other)$' "$r")" = 3
	check "scenario module: O from loading it: module=ut_taint, no caller" "$(grep '^loaded: .*flags=O ' "$r")" \
		grep -qE '^loaded: .* origin=kernel flags=O new=O .* module=ut_taint$' "$r"
	check "scenario module: W from its WARN: module=ut_taint and its caller" "$(grep '^loaded: .*flags=W ' "$r")" \
		grep -qE '^loaded: .* origin=kernel flags=W new=W .* module=ut_taint caller=ut_warn_here\+0x[0-9a-f]+/0x[0-9a-f]+$' "$r"
	check "scenario module: kernel-chktaint names ut_taint as the module with O" "$(grep '^chktaint:' "$r")" \
		grep -qE '^chktaint: Modules with taint:( [^ ]+)* ut_taint\(O\)( |$)' "$r"
	for stage in unloaded other; do
		check "scenario module: $stage: W still module=ut_taint, no caller" "$(grep "^$stage: .*flags=W " "$r")" \
			grep -qE "^$stage: .* origin=kernel flags=W new=W .* module=ut_taint\$" "$r"
		check "scenario module: $stage: sanity: no ut_other code, no raw address in the log" \
			"$(grep -E "^$stage: .*(ut_other|caller=0x|ffff[0-9a-f]{12})" "$r")" \
			none grep -E "^$stage: .*(ut_other|caller=0x|ffff[0-9a-f]{12})" "$r"
	done
	check "scenario module: P from loading ndiswrapper: module=ndiswrapper, no caller" \
		"$(grep '^ndiswrapper:' "$r")" \
		grep -qE '^ndiswrapper: .* origin=kernel flags=P new=P .* module=ndiswrapper$' "$r"
	t3=$(sed -n 's/^rebuilt text=//p' "$r")
	check "scenario module: sanity: the rebuilt ut_taint was loaded where the first was (text $t3)" \
		"$(grep -E '^(loaded rebuilt|rebuilt text)' "$r")" \
		test -n "$t3" -a "$t3" = "$(sed -n 's/^ut_taint text=//p' "$r")"
	check "scenario module: rebuilt ut_taint reloaded: W still module=ut_taint, no caller" \
		"$(grep '^rebuilt: .*flags=W ' "$r")" \
		grep -qE '^rebuilt: .* origin=kernel flags=W new=W .* module=ut_taint$' "$r"
	t1=$(sed -n 's/^ut_taint text=//p' "$r"); t2=$(sed -n 's/^ut_other text=//p' "$r")
	check "scenario module: ut_other took ut_taint's memory (text $t2 = $t1)" "ut_taint $t1, ut_other $t2" \
		test -n "$t1" -a "$t1" = "$t2"
	check "scenario module: oops report: Taint W: and Taint O: name ut_taint, no caller" "$(grep '^Taint [WO]:' "$sec")" \
		test "$(grep -cE '^Taint [WO]: .* module=ut_taint$' "$sec")" = 2
	check "scenario module: sanity: no raw kernel address in Taint lines" "$(raw_address_lines "$sec")" \
		none raw_address_lines "$sec"
	expect_reports "scenario module" "$c" "WARNING:=1" "Oops:=1" \
		"Call Trace:=$([ "$variant" = debug ] && echo 3 || echo 2)" \
		"$([ "$variant" = debug ] && echo "BUG:=2" || echo "BUG:=1")"
}

# panic_on_taint=0x40,nousertaint: writes that would set U are refused by
# both files, set and record nothing, and do not panic.
scenario_nousertaint() {
	local c=$LOGS/scenario-nousertaint.console r=$LOGS/scenario-nousertaint.results
	scenario_run nousertaint "panic_on_taint=0x40,nousertaint" || return
	check "scenario nousertaint: sanity: the tainted write is refused" "$(grep '^tainted write' "$r")" \
		grep -qx 'tainted write rc=1' "$r"
	check "scenario nousertaint: sanity: the taint_reason write is refused" "$(grep '^taint_reason write' "$r")" \
		grep -qx 'taint_reason write rc=1' "$r"
	check "scenario nousertaint: sanity: the mask did not change" "$(grep '^mask' "$r")" \
		test "$(sed -n 's/^mask before=//p' "$r")" = "$(sed -n 's/^mask after=//p' "$r")"
	check "scenario nousertaint: nothing recorded, no reason" "$(grep -E '^(log lines|reason)' "$r")" \
		test -n "$(sed -n 's/^log lines before=//p' "$r")" -a \
		"$(sed -n 's/^log lines before=//p' "$r")" = "$(sed -n 's/^log lines after=//p' "$r")" -a \
		"$(grep -c '^reason after=$' "$r")" = 1
	expect_reports "scenario nousertaint" "$c"
}

# Post-mortem: the guest tainted the kernel (reasons, a tainted write, a
# module's O, a core-kernel WARN, an NMI in the module), printed its log
# with taintctl, and panicked (panic=0); QEMU then dumped its memory with
# VMCOREINFO (boot.sh -d). taintctl log --vmcore must print from the dump
# the text and JSON the guest printed live, byte for byte, but for caller=
# of module code, which a dump cannot name (documented: taintctl(1)).
live_block() {	# live_block RESULTS text|json: what the guest printed
	sed -n "/^##LIVE-$2-BEGIN\$/,/^##LIVE-$2-END/p" "$1" | sed '1d;$d'
}
# same_json TEXT-EVENTS JSON-EVENTS WANT GOT: the live JSON holds the text's
# events (at least one), and the dump's JSON is the same
same_json() { [ "$1" -gt 0 ] && [ "$2" = "$1" ] && [ -s "$3" ] && cmp -s "$3" "$4"; }
scenario_dump() {
	local c=$LOGS/scenario-dump.console r=$LOGS/scenario-dump.results
	local d=$BUILD/dump/scenario-dump-$variant.elf out=$LOGS/scenario-dump
	local tctl=$ROOT/taintctl/build/taintctl rc f0=$FAIL nt nj
	mkdir -p "$BUILD/dump"
	make -s -C "$ROOT/taintctl" >&2 || { record fail "scenario dump: build taintctl" "make -C taintctl failed"; return; }
	UT_DUMP_FORMAT=elf,kdump-zlib boot scenario-dump scenario 180 "ut.scenario=dump" 2 "$d" || return
	check "scenario dump: sanity: the guest panicked" "no dumptest panic in $c" \
		grep -q 'Kernel panic - not syncing: dumptest' "$c"
	check "scenario dump: sanity: the guest printed its log live (text and JSON)" "$(grep '^##LIVE' "$r")" \
		test "$(grep -cE '^##LIVE-(text|json)-END rc=0$' "$r")" = 2
	check "scenario dump: sanity: QEMU wrote an ELF dump with a VMCOREINFO note" \
		"$(ls -l "$d" 2>&1; readelf -n "$d" 2>&1 | grep -c VMCOREINFO) VMCOREINFO notes" \
		test "$(readelf -n "$d" 2>/dev/null | grep -c VMCOREINFO)" -ge 1
	live_block "$r" text | sed '/ module=/s/ caller=[^ ]*$//' > "$out.want.txt"
	live_block "$r" json | jq -c '.events |= map(if has("module") then del(.caller) else . end)' > "$out.want.json" 2> "$out.want.err"
	rc=0; "$tctl" log --vmcore "$d" > "$out.txt" 2> "$out.err" || rc=$?
	check "scenario dump: taintctl log --vmcore: the live text, byte for byte ($(grep -c '^\[' "$out.txt") events)" \
		"exit $rc, $(head -c 300 "$out.err"); $(diff "$out.want.txt" "$out.txt" > "$out.txt.diff"; head -n 20 "$out.txt.diff")" \
		cmp -s "$out.want.txt" "$out.txt"
	rc=0; "$tctl" log --vmcore "$d" --json | jq -c . > "$out.json" 2> "$out.err" || rc=$?
	# Two empty files are equal: the live JSON must parse and hold as many
	# events as the live text, at least one.
	nt=$(grep -c '^\[' "$out.want.txt") nj=$(jq '.events | length' "$out.want.json" 2>/dev/null)
	check "scenario dump: taintctl log --vmcore --json: the live JSON ($nj events, as the text)" \
		"exit $rc, $(head -c 300 "$out.err"); live: $nt text events, JSON ${nj:-unparsed} $(head -c 300 "$out.want.err"); $(diff "$out.want.json" "$out.json" > "$out.json.diff"; head -c 600 "$out.json.diff")" \
		same_json "$nt" "$nj" "$out.want.json" "$out.json"
	check "scenario dump: a core-kernel caller named from the dump (lkdtm_WARNING)" \
		"$(grep ' kernel W ' "$out.txt")" grep -qE ' kernel W +new=W .* caller=lkdtm_WARNING\+0x[0-9a-f]+/0x[0-9a-f]+$' "$out.txt"
	check "scenario dump: sanity: the live log has every kind of event" "$(cat "$out.want.txt")" \
		test "$(grep -cE ' user +U .* reason=| user +N +new=N | kernel O +new=O .* module=ut_taint$| kernel W +new=W .* caller=| kernel C +new=C .* module=ut_taint$' "$out.want.txt")" = 6
	check "scenario dump: sanity: live, the NMI event in the module has a caller (the dump leaves it out)" \
		"$(grep ' kernel C ' "$r")" grep -qE ' kernel C +new=C .* module=ut_taint caller=ut_' "$r"
	# QEMU's kdump-compressed format of the same memory: not read (convert
	# it with makedumpfile -E), but said so on one line, exit 5.
	rc=0; "$tctl" log --vmcore "$d.kdump-zlib" > "$out.kdump.txt" 2> "$out.kdump.err" || rc=$?
	check "scenario dump: sanity: a kdump-compressed dump: one error line that says so, exit 5" \
		"exit $rc: $(head -c 300 "$out.kdump.err")" \
		test "$rc" = 5 -a "$(wc -l < "$out.kdump.err")" = 1 -a ! -s "$out.kdump.txt" -a \
		"$(grep -ci 'kdump' "$out.kdump.err")" = 1
	# The dumps are as large as the guest's memory: kept only when a check failed.
	[ "$FAIL" = "$f0" ] && rm -f "$d" "$d.kdump-zlib"
	expect_reports "scenario dump" "$c" "WARNING:=1" "Kernel panic=1" "Call Trace:=2"
}
