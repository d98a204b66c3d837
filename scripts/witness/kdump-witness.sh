#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make kdump-witness: the dump tools no one here wrote, on real kdump dumps
# of a stock kernel and of the patched one. Not part of
# make test: it builds two kernels with DWARF debug info and boots each.
#
#   1. capture: the kdump variant with debug info (configs/kdump.config +
#      configs/kdump-debug.config), patched and stock (Debian's 6.12 without
#      the series, as make stock-scenarios), each booted through
#      scenario-kdump: kexec -p, the same events, the panic, and Debian's
#      makedumpfile in the crash kernel writing kdump-tools' default
#      (-F -c -d 31), zlib, lzo, ELF and flattened ELF dumps. All of it in
#      build/witness (its own UT_BUILD: the debug kernels, their
#      initramfs, logs), the dumps kept in build/witness/dumps/SIDE.
#   2. witnesses, on every dump of both sides:
#      - makedumpfile --dump-dmesg (after -R for a flattened dump): the
#        panic's log, with the WARN's Taint U: line;
#      - crash (Debian's 8.0.2) with the vmlinux, non-interactively:
#        sys, sys -t, log; the same commands work (or fail, with the same
#        error) on both sides;
#      - drgn (python3-drgn) with the vmlinux's DWARF: taint_events read
#        through the debug info (scripts/witness/drgn.py) equals
#        taintctl log --vmcore (VMCOREINFO only), text and JSON; on stock,
#        both say there is no taint log.
# UT_WITNESS_SIDES="patched stock" (the default) picks the sides;
# UT_WITNESS_NO_CAPTURE=1 checks the dumps already in build/witness/dumps;
# UT_WITNESS_TOOLS="dmesg crash drgn" (the default) picks the witnesses.
# Builds run at nice 19 with JOBS (lib.sh: nproc) jobs.
# Prints PASS/FAIL lines and ends with "N passed, N failed"; the run's
# record (times, results, the tools' errors) goes to
# build/witness/kdump-witness.txt.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/test/count.sh
. "$ROOT/scripts/test/count.sh"

W=$BUILD/witness
sides=${UT_WITNESS_SIDES:-patched stock}
formats=default,zlib,lzo,elf,flatelf
rec=$W/kdump-witness.txt
tools=" ${UT_WITNESS_TOOLS:-dmesg crash drgn} "
uses() { [[ $tools == *" $1 "* ]]; }
PY=/usr/bin/python3	# Debian's, which python3-drgn installs into
# shellcheck disable=SC2034	# count.sh's record counts them
PASS=0 FAIL=0 SKIP=0 FAILED=()

"$ROOT/scripts/build/deps.sh" witness >&2
mkdir -p "$W/dumps" "$W/logs"
# The trees and kexec-tools are the main build's (read only here).
"$ROOT/scripts/build/tree.sh" prepare >&2
"$ROOT/scripts/build/kdump-tools.sh" > /dev/null
for d in linux kdump-tools; do ln -sfn "$BUILD/$d" "$W/$d"; done
: > "$rec"
note() { printf '%s\n' "$*" | tee -a "$rec" >&2; }
secs() { echo $(( $(date +%s) - $1 )); }

# capture SIDE: its kdump-debug kernel and initramfs, and scenario-kdump
# booted with them; the dumps and the vmlinux into $W/dumps/SIDE
capture() {
	local side=$1 t0 k i env=() dir=$W/dumps/$1
	t0=$(date +%s)
	if [ "$side" = stock ]; then
		local stock=$BUILD/linux-stock
		# the pristine checkout, as stock_tree makes it (not touched if
		# it is there already, at the pristine commit)
		[ -d "$stock" ] && [ "$(git -C "$stock" rev-parse HEAD)" = "$(git -C "$KSRC" rev-parse pristine)" ] ||
			stock=$(stock_tree)
		ln -sfn "$stock" "$W/linux-stock"
		env=(UT_KSRC="$W/linux-stock" UT_LAX_CONFIG=1 UT_VARIANT_DIR=kdump-stock)
	fi
	k=$(nice -n 19 env UT_BUILD="$W" UT_EXTRA_CONFIG="$ROOT/configs/kdump-debug.config" "${env[@]}" \
		"$ROOT/scripts/build/kernel.sh" kdump) || { record fail "witness: $side: build the kdump-debug kernel"; return 1; }
	note "witness: $side: kdump-debug kernel built ($(secs "$t0") s): $k, vmlinux $(stat -c %s "${k%/arch/*}/vmlinux") bytes"
	# the initramfs: the patched kdump-debug kernel's module and config,
	# this side's kernel as the crash kernel (as make stock-scenarios)
	[ "$side" = patched ] || nice -n 19 env UT_BUILD="$W" UT_EXTRA_CONFIG="$ROOT/configs/kdump-debug.config" \
		"$ROOT/scripts/build/kernel.sh" kdump > /dev/null
	i=$(nice -n 19 env UT_BUILD="$W" UT_KDUMP_IMAGE="$k" "$ROOT/scripts/build/initramfs.sh" kdump) ||
		{ record fail "witness: $side: build the kdump initramfs"; return 1; }
	cp "$i" "$W/initramfs-$side.cpio.gz"
	t0=$(date +%s)
	UT_BUILD="$W" UT_ONLY=scenario-kdump UT_KERNEL="$k" UT_INITRD="$W/initramfs-$side.cpio.gz" \
		UT_KDUMP_KERNEL="$k" UT_KDUMP_INITRD="$W/initramfs-$side.cpio.gz" UT_LOGS="$W/logs/$side" \
		UT_KDUMP_FORMATS=zlib,lzo,elf,flatelf "$ROOT/scripts/test/test.sh" default > "$W/logs/$side.out" 2>&1 || true
	note "witness: $side: scenario-kdump ($(secs "$t0") s): $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$W/logs/$side.out" | tail -1)"
	grep -E '^usertaint: scenario kdump: (crash kernel up|step)' "$W/logs/$side.out" | sed 's/^usertaint: //' | tee -a "$rec" >&2 || true
	rm -rf "$dir"
	mv "$W/kdump/kdump" "$dir" || { record fail "witness: $side: scenario-kdump left no dumps" "$(tail -n 5 "$W/logs/$side.out")"; return 1; }
	cp "${k%/arch/*}/vmlinux" "$dir/vmlinux"
	# what the guest printed live (patched: the log to compare with)
	cp "$W/logs/$side/scenario-kdump.results" "$dir/results"
	plain "$W/logs/$side/scenario-kdump.console" | grep '^Taint U: ' > "$dir/taintu" || true
}

# crash 8.0.2 (Debian's) is older than the kernel: it cannot open these
# dumps with its defaults. Each dump goes through a ladder of crash's own
# options, each rung recording how its commands ended; the rungs must end
# the same way on stock and patched (the series changes none of what
# crash reads), and the last, --minimal, must read the log on both.
CRASH_RUNGS=("" "--kaslr=auto" "--kaslr=auto --no_kmem_cache"
	"--kaslr=auto --no_kmem_cache --no_modules" "--kaslr=auto --minimal")
# crash_run VMLINUX DUMP OUT OPTIONS: crash -s with sys, sys -t and log
# (--minimal: log and rd tainted_mask, the commands it has), each
# command's output after a marker line; 10 minutes at most, and no core
# file when crash aborts (it does, with --no_modules)
crash_run() {
	local rc=0 cmds=(sys 'sys -t' log) c opts
	case $4 in *--minimal*) cmds=(log 'rd tainted_mask') ;; esac
	read -ra opts <<< "$4"
	for c in "${cmds[@]}"; do printf '!echo @@%s\n%s\n' "${c// /-}" "$c"; done |
		{ cat; printf '!echo @@end\nq\n'; } |
		# a session takes seconds; one that corrupted its heap
		# (--no_modules on 6.12) may wait on a futex for ever, deaf
		# to SIGTERM: KILL 10 s after the TERM
		( ulimit -c 0; timeout -k 10 120 crash -s "${opts[@]}" "$1" "$2" ) > "$3" 2>&1 || rc=$?
	echo "$rc" > "$3.rc"
}
# crash_part OUT NAME: one command's output
crash_part() { sed -n "/^@@$2\$/,/^@@/p" "$1" | sed '1d;$d'; }
# crash_state OUT: how the session ended: its exit status, then for a
# failed one its first error line, else each command's end, one line
# each: ok, empty, or the first error line crash printed (addresses
# masked, so that two kernels' runs compare)
crash_state() {
	local c o err='^(crash|gdb|bt|log|sys|rd): |invalid|cannot|not supported|no such|malloc|Aborted'
	echo "exit $(cat "$1.rc")"
	# a session that crash aborted: the signal (what it printed before
	# depends on its buffering); one that failed: its first error
	if [ "$(cat "$1.rc")" -gt 128 ]; then
		echo "killed by signal $(( $(cat "$1.rc") - 128 ))"
		return
	elif [ "$(cat "$1.rc")" != 0 ]; then
		{ grep -m1 -E "$err" "$1" || echo 'no message'; } | sed -E 's/^/first error: /; s/\b[0-9a-f]{12,16}\b/ADDR/g'
		return
	fi
	{ grep -o '^@@[a-z_-]*' "$1" || true; } | sed 's/^@@//' | { grep -vx end || true; } | while read -r c; do
		o=$(crash_part "$1" "$c")
		if grep -qE "$err" <<< "$o"; then
			echo "$c: $(grep -m1 -E "$err" <<< "$o")"
		elif [ -n "$o" ]; then
			echo "$c: ok"
		else
			echo "$c: empty"
		fi
	done | sed -E 's/\b[0-9a-f]{12,16}\b/ADDR/g' || true
}

# crash_flat SIDE DUMP WHOLE VMLINUX PREFIX: crash 8.0.2 reads a
# flattened file's chunks through a sorted array and a binary search that,
# of two chunks at one offset, reads whichever it lands on: with -F -E,
# makedumpfile writes the program headers twice (zeros, then filled in),
# and for some chunk counts crash reads the zeros and refuses the file
# ("cannot realloc resized ELF header buffer"; docs/crash-flat.md).
# scripts/witness/crash-flat.py replays that reading (PREFIX.cf). A file it says
# crash refuses is re-chunked (the same bytes: its makedumpfile -R copy
# must equal WHOLE) to a count whose leading bits are 11, where crash's
# search finds the filled-in copy, and that copy goes through the rungs.
crash_flat() {
	local side=$1 d=$2 whole=$3 v=$4 o=$5 nc b t n r
	"$PY" "$ROOT/scripts/witness/crash-flat.py" check "$d" > "$o.cf" 2>&1 || true
	note "witness: $side: flatelf: crash-flat.py: $(paste -sd';' "$o.cf")"
	rm -f "$o.rechunk" "$o.rechunk.whole" "$o.rechunk".crash*
	grep -q ' verdict=refused$' "$o.cf" || return 0
	nc=$(sed -n 's/^chunks=\([0-9]*\) .*/\1/p' "$o.cf")
	b=0
	while [ $(( nc >> b )) -gt 1 ]; do b=$((b + 1)); done
	t=$(( 3 << (b - 1) ))
	"$PY" "$ROOT/scripts/witness/crash-flat.py" rechunk "$d" "$o.rechunk" --chunks "$t" > /dev/null 2> "$o.rechunk.err" || true
	makedumpfile -R "$o.rechunk.whole" < "$o.rechunk" > /dev/null 2>&1 || true
	"$PY" "$ROOT/scripts/witness/crash-flat.py" check "$o.rechunk" > "$o.rechunk.cf" 2>&1 || true
	note "witness: $side: flatelf re-chunked: crash-flat.py: $(paste -sd';' "$o.rechunk.cf" "$o.rechunk.err"); makedumpfile -R copy $(cmp -s "$o.rechunk.whole" "$whole" && echo "= the file's" || echo "DIFFERS from the file's")"
	n=0
	for r in "${CRASH_RUNGS[@]}"; do
		n=$((n + 1))
		t=$(date +%s)
		crash_run "$v" "$o.rechunk" "$o.rechunk.crash$n" "$r"
		crash_state "$o.rechunk.crash$n" > "$o.rechunk.crash$n.state"
		note "witness: $side: flatelf (re-chunked): crash -s $r ($(secs "$t") s): $(paste -sd';' "$o.rechunk.crash$n.state")"
	done
}

# witness SIDE: the three tools on each of its dumps
witness() {
	local side=$1 dir=$W/dumps/$1 f d src o rc t0 tctl=$ROOT/taintctl/build/taintctl
	local v=$dir/vmlinux
	[ -f "$v" ] || { record fail "witness: $side: no dumps in $dir"; return; }
	o=$W/logs/$side-w
	for f in ${formats//,/ }; do
		d=$dir/dump.$f src=$d
		[ -f "$d" ] || { record fail "witness: $side: $f: no dump.$f"; continue; }
		# makedumpfile and crash want the flattened format made whole
		case $f in default|flatelf)
			src=$o.$f.whole
			rm -f "$src"
			makedumpfile -R "$src" < "$d" > "$o.$f.R.log" 2>&1 || true ;;
		esac
		if uses dmesg; then
		# makedumpfile --dump-dmesg
		rc=0
		rm -f "$o.$f.dmesg"
		makedumpfile --dump-dmesg "$src" "$o.$f.dmesg" > "$o.$f.dmesg.log" 2>&1 || rc=$?
		check "witness: $side: $f: makedumpfile --dump-dmesg reads the panic's log" \
			"exit $rc: $(tr '\r' '\n' < "$o.$f.dmesg.log" | tail -n 2)" \
			grep -q 'Kernel panic - not syncing: dumptest' "$o.$f.dmesg"
		[ "$side" != patched ] || check "witness: $side: $f: makedumpfile --dump-dmesg has the WARN's Taint U: line" \
			"$(cat "$dir/taintu")" grep -qF -f "$dir/taintu" "$o.$f.dmesg"
		fi
		if uses crash; then
		# crash: each rung on the file as given, and (flattened) on
		# the -R copy
		local r n x in
		for x in "" .whole; do
			in=$d
			[ -z "$x" ] || in=$src
			[ -z "$x" ] || [ "$src" != "$d" ] || continue
			n=0
			for r in "${CRASH_RUNGS[@]}"; do
				n=$((n + 1))
				t0=$(date +%s)
				crash_run "$v" "$in" "$o.$f$x.crash$n" "$r"
				crash_state "$o.$f$x.crash$n" > "$o.$f$x.crash$n.state"
				note "witness: $side: $f${x:+ (makedumpfile -R)}: crash -s $r ($(secs "$t0") s): $(paste -sd';' "$o.$f$x.crash$n.state")"
			done
		done
		[ "$f" != flatelf ] || crash_flat "$side" "$d" "$src" "$v" "$o.$f"
		# the last rung (--minimal) reads the log: the panic, and on
		# the patched kernel the WARN's Taint U: line
		in=$d
		[ "$src" = "$d" ] || in=$src
		x=''
		[ "$src" = "$d" ] || x=.whole
		check "witness: $side: $f${x:+ (makedumpfile -R)}: crash --minimal: log has the panic" \
			"$(paste -sd';' "$o.$f$x.crash$n.state")" \
			grep -q 'Kernel panic - not syncing: dumptest' "$o.$f$x.crash$n"
		[ "$side" != patched ] || check "witness: $side: $f${x:+ (makedumpfile -R)}: crash --minimal: log has the WARN's Taint U: line" \
			"$(cat "$dir/taintu")" grep -qF -f "$dir/taintu" "$o.$f$x.crash$n"
		fi
		if uses drgn; then
		# drgn through DWARF against taintctl through VMCOREINFO.
		# drgn 0.0.22 (libkdumpfile 0.5) reads kdump-compressed and ELF
		# dumps, not the flattened format: a limit of the tool, shown
		# here, and drgn reads the makedumpfile -R copy instead.
		if [ "$src" != "$d" ]; then
			rc=0
			"$PY" "$ROOT/scripts/witness/drgn.py" "$v" "$d" > /dev/null 2> "$o.$f.drgn.flat.err" || rc=$?
			note "witness: $side: $f: drgn on the flattened file as given: exit $rc: $(grep -v '^drgn: opened' "$o.$f.drgn.flat.err" | paste -sd';')"
			check "witness: $side: $f: drgn refuses the flattened file as given (not an ELF core file; drgn reads the makedumpfile -R copy)" \
				"exit $rc: $(cat "$o.$f.drgn.flat.err")" \
				grep -q 'error: ValueError: not an ELF core file' "$o.$f.drgn.flat.err"
		fi
		t0=$(date +%s) rc=0
		"$PY" "$ROOT/scripts/witness/drgn.py" "$v" "$src" > "$o.$f.drgn" 2> "$o.$f.drgn.err" || rc=$?
		echo "$rc" > "$o.$f.drgn.rc"
		note "witness: $side: $f: drgn (exit $rc, $(secs "$t0") s): $(grep -v '^drgn: opened' "$o.$f.drgn.err" | paste -sd';')"
		rc=0
		"$tctl" log --vmcore "$d" > "$o.$f.tc.txt" 2> "$o.$f.tc.err" || rc=$?
		echo "$rc" > "$o.$f.tc.rc"
		"$tctl" log --vmcore "$d" --json > "$o.$f.tc.json" 2>> "$o.$f.tc.err" || true
		if [ "$side" = patched ]; then
			check "witness: $side: $f: drgn reads taint_events through DWARF" \
				"exit $(cat "$o.$f.drgn.rc"): $(tail -n 2 "$o.$f.drgn.err")" \
				test "$(cat "$o.$f.drgn.rc")" = 0 -a "$(grep -c '^ts=' "$o.$f.drgn")" -ge 5
			"$tctl" log "$o.$f.drgn" > "$o.$f.drgn.txt" 2>&1 || true
			"$tctl" log "$o.$f.drgn" --json > "$o.$f.drgn.json" 2>&1 || true
			check "witness: $side: $f: drgn's log (DWARF) = taintctl log --vmcore (VMCOREINFO), text" \
				"taintctl exit $(cat "$o.$f.tc.rc"): $(head -c 300 "$o.$f.tc.err"); $(diff "$o.$f.drgn.txt" "$o.$f.tc.txt" > "$o.$f.txt.diff"; head -n 12 "$o.$f.txt.diff")" \
				same_log "$o.$f.drgn.txt" "$o.$f.tc.txt"
			check "witness: $side: $f: drgn's log (DWARF) = taintctl log --vmcore (VMCOREINFO), JSON" \
				"$(diff "$o.$f.drgn.json" "$o.$f.tc.json" > "$o.$f.json.diff"; head -c 600 "$o.$f.json.diff")" \
				same_log "$o.$f.drgn.json" "$o.$f.tc.json"
			# drgn's lines are the kernel's own text: what the guest
			# read from /proc/sys/kernel/taint_log before the panic,
			# byte for byte, less caller= of module code (the rule
			# above); through no parser, so escapes count too
			sed -n '/^##LIVE-raw-BEGIN$/,/^##LIVE-raw-END/p' "$dir/results" | sed '1d;$d' |
				sed '/ module=/s/ caller=[^ ]*$//' > "$o.$f.live-raw"
			check "witness: $side: $f: drgn's lines (DWARF) = the live /proc/sys/kernel/taint_log, byte for byte" \
				"$(diff "$o.$f.live-raw" "$o.$f.drgn" > "$o.$f.raw.diff"; head -n 8 "$o.$f.raw.diff")" \
				same_log "$o.$f.live-raw" "$o.$f.drgn"
			# what taintctl leaves out (docs/module-callers.md): drgn
			# names the module caller as the live log did
			sed -n '/^##LIVE-text-BEGIN$/,/^##LIVE-text-END/p' "$dir/results" |
				sed -n 's/^.* module=\([^ ]*\) caller=\([^ ]*\)$/module \1 caller \2/p' > "$o.$f.live-mod"
			check "witness: $side: $f: drgn names the module caller through struct module and the module's kallsyms, as the live log" \
				"live: $(cat "$o.$f.live-mod"); drgn: $(grep ': module ' "$o.$f.drgn.err")" \
				same_module_callers "$o.$f.live-mod" "$o.$f.drgn.err"
		else
			check "witness: $side: $f: drgn finds no taint_events (a kernel without the series)" \
				"exit $(cat "$o.$f.drgn.rc"): $(tail -n 2 "$o.$f.drgn.err")" \
				grep -qE "error: (KeyError|LookupError): .*taint_events" "$o.$f.drgn.err"
			check "witness: $side: $f: taintctl log --vmcore: a kernel without the taint log, exit 5" \
				"exit $(cat "$o.$f.tc.rc"): $(head -c 300 "$o.$f.tc.err")" \
				test "$(cat "$o.$f.tc.rc")" = 5
		fi
		fi
	done
}
# same_crash PATCHED STOCK: each command ended the same way (ok, or the
# same error line)
same_crash() { [ -s "$1" ] && cmp -s "$1" "$2"; }
# replay_agrees PREFIX: crash-flat.py's verdict on the file as given is
# what crash did on every rung: "refused", each failed with "cannot
# realloc resized ELF header buffer"; "opens", none did
replay_agrees() {
	local n hits=0
	for n in 1 2 3 4 5; do
		! grep -q 'cannot realloc resized ELF header buffer' "$1.crash$n.state" || hits=$((hits + 1))
	done
	case $(sed -n 's/.* verdict=//p' "$1.cf") in
	refused) [ $hits = 5 ] ;;
	opens) [ $hits = 0 ] ;;
	*) false ;;
	esac
}
# rechunk_read PREFIX: the re-chunked copy holds the file's bytes (its
# -R copy equals the file's), crash-flat.py says crash reads it, and
# crash --minimal read the panic's log from it
rechunk_read() {
	cmp -s "$1.rechunk.whole" "$1.whole" && grep -q ' verdict=opens$' "$1.rechunk.cf" &&
		grep -q 'Kernel panic - not syncing: dumptest' "$1.rechunk.crash5"
}
# same_module_callers LIVE DRGN-ERR: the live log's module callers, in
# order, are those drgn named (at least one)
same_module_callers() {
	[ -s "$1" ] && cmp -s "$1" <(sed -n 's/^drgn: event [0-9]*: //p' "$2" | grep '^module ')
}
same_log() { [ -s "$1" ] && [ "$(grep -c . "$1")" -ge 1 ] && cmp -s "$1" "$2"; }

start=$(date +%s)
for s in $sides; do
	[ -n "${UT_WITNESS_NO_CAPTURE:-}" ] || capture "$s" || true
	witness "$s"
done
# crash: every rung ends the same way on both sides
if [ "$sides" = "patched stock" ] && uses crash; then
	for f in ${formats//,/ }; do
		for x in "" .whole; do
			[ -f "$W/logs/patched-w.$f$x.crash1.state" ] || continue
			n=0
			for r in "${CRASH_RUNGS[@]}"; do
				n=$((n + 1))
				# rungs 3 and 4 are recorded, not compared: past
				# --no_kmem_cache crash reads struct module for each
				# loaded module (none on stock: ut_taint needs the
				# series' taint_log_record) and fails on 6.4's
				# module_memory, and with --no_modules its sessions
				# abort at random (SIGABRT, heap corruption after
				# "bt: invalid size request: 0") on either kernel
				case $n in 3|4) continue ;; esac
				# a -F -E file as given that crash refuses (crash_flat):
				# through its re-chunked copy, the same bytes
				p=$W/logs/patched-w.$f$x s=$W/logs/stock-w.$f$x lbl=$f${x:+ (makedumpfile -R)}
				if [ "$f$x" = flatelf ]; then
					[ ! -f "$p.rechunk.crash1.state" ] || { p=$p.rechunk; lbl="$lbl (patched re-chunked, $(sed -n 's/^chunks=\([0-9]*\) .*/\1/p' "$p.cf") chunks)"; }
					[ ! -f "$s.rechunk.crash1.state" ] || { s=$s.rechunk; lbl="$lbl (stock re-chunked, $(sed -n 's/^chunks=\([0-9]*\) .*/\1/p' "$s.cf") chunks)"; }
				fi
				p=$p.crash$n.state s=$s.crash$n.state
				# without options crash reads the banner at the
				# unrelocated address: what it finds there (nothing,
				# or "do not match!") depends on KASLR; the exit only
				if [ "$n" = 1 ]; then
					check "witness: $lbl: crash -s (no option): fails the same on stock and patched (exit 1, KASLR not applied)" \
						"patched: $(paste -sd';' "$p"); stock: $(paste -sd';' "$s" 2>&1)" \
						test "$(head -n 1 "$p")" = "exit 1" -a "$(head -n 1 "$s")" = "exit 1"
					continue
				fi
				check "witness: $lbl: crash -s $r: ends the same on stock and patched" \
					"patched: $(paste -sd';' "$p"); stock: $(paste -sd';' "$s" 2>&1)" \
					same_crash "$p" "$s"
			done
		done
	done
fi
# crash 8.0.2 and the flattened ELF file (-F -E): whether crash reads it
# as given depends on its number of chunks, not on the kernel
# (crash_flat, docs/crash-flat.md). On each side crash-flat.py's replay
# must say what crash did on the file as given; a file crash refuses must
# hold the same bytes re-chunked, which crash reads (compared above).
if uses crash; then
	for s in $sides; do
		p=$W/logs/$s-w.flatelf
		[ -f "$p.cf" ] || continue
		check "witness: $s: flatelf: crash 8.0.2 $(sed -n 's/.* verdict=\(refused\)$/\1 (cannot realloc resized ELF header buffer)/p; s/.* verdict=\(opens\)$/\1/p' "$p.cf") the file as given, as crash-flat.py's replay of its reader says: $(sed -n 's/^chunks=\([0-9]*\) .* crash-reads=\([a-z-]*\) .*/\1 chunks, the \2 copy of the program headers/p' "$p.cf")" \
			"replay: $(paste -sd';' "$p.cf"); crash: $(cat "$p".crash[1-5].state | paste -sd';')" \
			replay_agrees "$p"
		[ -f "$p.rechunk" ] || continue
		check "witness: $s: flatelf: re-chunked ($(sed -n 's/^chunks=\([0-9]*\) .*/\1/p' "$p.rechunk.cf") chunks), the same bytes (makedumpfile -R), crash reads it: log has the panic" \
			"$(paste -sd';' "$p.rechunk.cf" "$p.rechunk.err"); --minimal: $(paste -sd';' "$p.rechunk.crash5.state")" \
			rechunk_read "$p"
	done
fi
note "witness: $(secs "$start") s in all"
note "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
