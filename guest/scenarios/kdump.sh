# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Post-mortem the way a Debian system takes it: a real kdump. The kdump
# variant of the kernel (configs/kdump.config) boots with crashkernel=,
# loads itself as its crash kernel with Debian's kexec (kexec -p), taints
# the kernel as scenario-dump does (the same guest part: reasons, N, O, W,
# C from an NMI in a module), prints its log live and panics. The crash
# kernel (same image, same initramfs: /proc/vmcore tells it apart) runs
# Debian's makedumpfile on /proc/vmcore with kdump-tools' own arguments
# (its kdump-config: "-F -c -d 31", the flattened kdump-compressed format
# that /var/crash/<date>/dump.<date> holds) and with the other formats
# that ut.kdump= names (zlib: -c -d 31 into a file, lzo: -l -d 31, elf:
# -E -d 31, flatelf: -F -E -d 31), times each step and writes them as a tar stream onto a
# virtio disk (/dev/vda) that the host unpacks (build/kdump/).
# The host checks each file's format, and makedumpfile --dump-dmesg on it
# (this machine's, Debian's) for the WARN's Taint U: line and the panic.
# suite: scenario-kdump 34 0 scenario default usr/bin/taintctl warn=1,panic=1,trace=2

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	if [ -e /proc/vmcore ]; then
		kdump_capture
		return
	fi
	# The crash kernel's initramfs: this one, as it is now (the root
	# file system, without the mounts on it).
	t0=$(kdump_now)
	cmdline=$(sed 's/crashkernel=[^ ]*//' /proc/cmdline)
	(cd / && find . -xdev | cpio -o -H newc > /tmp/crash-initrd.cpio 2>/dev/null)
	# kdump-tools' KDUMP_CMDLINE_APPEND, less what is for systemd and USB.
	rc=0
	kexec -p /boot/vmlinuz --initrd=/tmp/crash-initrd.cpio \
		--append="$cmdline reset_devices nr_cpus=1 irqpoll" > /tmp/kexec.log 2>&1 || rc=$?
	echo "kdump: step load rc=$rc secs=$(kdump_since "$t0") bytes=$(wc -c < /tmp/crash-initrd.cpio)" >&3
	echo "kdump: kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded) crash_size=$(cat /sys/kernel/kexec_crash_size)" >&3
	[ $rc = 0 ] || sed 's/^/kdump: kexec: /' /tmp/kexec.log >&3
	rm -f /tmp/crash-initrd.cpio
	# The same events, live log and panic as scenario-dump.
	. /guest/scenarios/dump.sh
	scenario_guest
}

kdump_now() { cut -d' ' -f1 /proc/uptime; }
kdump_since() { awk -v a="$1" -v b="$(kdump_now)" 'BEGIN { printf "%.2f", b - a }'; }

# kdump_step NAME COMMAND...: run it, its output in /tmp/kdump/NAME.log;
# one result line with its exit status, time and the size of its dump.
kdump_step() {
	name=$1 t0=$(kdump_now) rc=0
	shift
	"$@" > "/tmp/kdump/$name.log" 2>&1 || rc=$?
	size=-
	[ -f "/tmp/kdump/dump.$name" ] && size=$(stat -c %s "/tmp/kdump/dump.$name")
	echo "kdump: step $name rc=$rc secs=$(kdump_since "$t0") bytes=$size" >&3
	[ $rc = 0 ] || tr '\r' '\n' < "/tmp/kdump/$name.log" | tail -n 5 | sed "s/^/kdump: $name: /" >&3
	[ "$name" = dmesg ] || kdump_save "kdump/dump.$name" "kdump/$name.log"
}

# In the crash kernel.
kdump_capture() {
	echo "kdump: crash kernel up: $(uname -r), $(kdump_now) s after its start, /proc/vmcore $(stat -c %s /proc/vmcore) bytes, $(sed -n 's/^MemTotal: *//p' /proc/meminfo)" >&3
	# The dumps stay in memory until they are saved: more than tmpfs's
	# default half of it.
	mount -o remount,size=80% /tmp
	# shellcheck disable=SC2016	# kdump-config's own text, not expanded
	args=$(sed -n 's/^MAKEDUMP_ARGS=${MAKEDUMP_ARGS:="\(.*\)"}$/\1/p' /usr/share/kdump-tools/kdump-config)
	echo "kdump: kdump-tools' MAKEDUMP_ARGS=\"$args\"" >&3
	mkdir -p /tmp/kdump
	echo "$args" > /tmp/kdump/makedump-args
	# kdump-config's own order: the log first, then the dump.
	kdump_step dmesg makedumpfile --dump-dmesg /proc/vmcore /tmp/kdump/dmesg.txt
	kdump_step default sh -c "makedumpfile $args /proc/vmcore > /tmp/kdump/dump.default"
	for f in $(arg kdump | tr , ' '); do
		case $f in
		zlib) kdump_step zlib makedumpfile -c -d 31 /proc/vmcore /tmp/kdump/dump.zlib ;;
		lzo)  kdump_step lzo makedumpfile -l -d 31 /proc/vmcore /tmp/kdump/dump.lzo ;;
		elf)  kdump_step elf makedumpfile -E -d 31 /proc/vmcore /tmp/kdump/dump.elf ;;
		flatelf) kdump_step flatelf sh -c "makedumpfile -F -E -d 31 /proc/vmcore > /tmp/kdump/dump.flatelf" ;;
		*)    echo "kdump: unknown format '$f' (ut.kdump=)" >&3 ;;
		esac
	done
	kdump_save kdump/dmesg.txt kdump/dmesg.log kdump/makedump-args
	echo "kdump: done" >&3
}

# kdump_save FILE...: append them (paths under /tmp) to the tar stream on
# /dev/vda and delete them: each dump leaves the crash kernel's memory as
# soon as it is made. Each member is a 512-byte header and its data in
# 512-byte blocks; the next one overwrites the two zero blocks that end
# the stream, so the disk holds one archive, which the host unpacks.
kdump_off=0
kdump_save() {
	t0=$(kdump_now) rc=0 bytes=0
	(cd /tmp && tar -cf - "$@") | dd of=/dev/vda bs=1M iflag=fullblock oflag=seek_bytes seek=$((kdump_off * 512)) conv=notrunc 2>/dev/null || rc=$?
	sync
	for f; do
		size=$(stat -c %s "/tmp/$f")
		bytes=$((bytes + size))
		kdump_off=$((kdump_off + 1 + (size + 511) / 512))
		rm -f "/tmp/$f"
		echo "kdump: saved $f $size" >&3
	done
	echo "kdump: step save rc=$rc secs=$(kdump_since "$t0") bytes=$bytes" >&3
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-kdump.console r=$LOGS/scenario-kdump.results
	local dir=$BUILD/kdump out=$LOGS/scenario-kdump f0=$FAIL
	local formats=${UT_KDUMP_FORMATS:-zlib,lzo,elf,flatelf} k i f rc
	mkdir -p "$dir"
	make -s -C "$ROOT/taintctl" >&2 || { check "build taintctl" "make -C taintctl failed" false; return; }
	# Its own kernel, the kdump variant, whatever UT_KERNEL says (that
	# kernel cannot take a dump): UT_KDUMP_KERNEL and UT_KDUMP_INITRD
	# boot others.
	k=${UT_KDUMP_KERNEL:-} i=${UT_KDUMP_INITRD:-}
	[ -n "$k" ] || k=$("$ROOT/scripts/build/kernel.sh" kdump) || { check "build the kdump kernel" "" false; return; }
	[ -n "$i" ] || i=$("$ROOT/scripts/build/initramfs.sh" kdump) || { check "build the kdump initramfs" "" false; return; }
	[ -z "${UT_KERNEL:-}" ] || [ -n "${UT_KDUMP_KERNEL:-}" ] || say "scenario kdump: the kdump kernel $k, not UT_KERNEL"
	rm -rf "$dir/kdump" "$dir/disk.img"
	truncate -s 512M "$dir/disk.img"
	KERNEL=$k INITRD=$i UT_MEM=1024 UT_DISK=$dir/disk.img \
		boot scenario-kdump scenario 300 "ut.scenario=kdump ut.variant=kdump crashkernel=256M ut.kdump=$formats" || return
	tar -xf "$dir/disk.img" -C "$dir" 2> "$out.tar.err" || true
	rm -f "$dir/disk.img"
	say "scenario kdump: $(grep -E '^kdump: (step|crash kernel up)' "$r" | sed 's/^kdump: //' | paste -sd';')"
	check "sanity: kexec -p loaded the crash kernel" "$(grep -m 5 '^kdump: ' "$r")" \
		grep -q '^kdump: kexec_crash_loaded=1 ' "$r"
	check "sanity: the guest panicked" "no dumptest panic in $c" \
		grep -q 'Kernel panic - not syncing: dumptest' "$c"
	check "sanity: the guest printed its log live (text and JSON)" "$(grep '^##LIVE' "$r")" \
		test "$(grep -cE '^##LIVE-(text|json)-END rc=0$' "$r")" = 2
	check "sanity: the crash kernel booted with /proc/vmcore" "$(tail -n 5 "$c")" \
		grep -q '^kdump: crash kernel up' "$r"
	check "sanity: the crash kernel saved the dumps onto its disk" \
		"$(grep -E '^kdump: (saved|step save|done)' "$r"); $(ls -l "$dir/kdump" 2>&1); $(head -c 300 "$out.tar.err")" \
		kdump_saved "$r" "$dir/kdump"
	check "sanity: kdump-tools' arguments are -F -c -d 31 (the flattened format)" \
		"$(grep MAKEDUMP_ARGS "$r")" grep -qx 'kdump: kdump-tools'"'"' MAKEDUMP_ARGS="-F -c -d 31"' "$r"
	# The WARN's Taint U: line, as the first kernel printed it.
	plain "$c" | grep '^Taint U: ' > "$out.taintu"
	check "the WARN printed its Taint U: line" "$(cat "$out.taintu")" \
		test "$(wc -l < "$out.taintu")" = 1
	check "the crash kernel's makedumpfile --dump-dmesg has the Taint U: line and the panic" \
		"$(grep '^kdump: step dmesg' "$r"); $(grep -cF -f "$out.taintu" "$dir/kdump/dmesg.txt" 2>&1) Taint U" \
		kdump_log_ok "$dir/kdump/dmesg.txt" "$out.taintu"
	# What taintctl log --vmcore must print: the live log, less caller=
	# of module code (as scenario-dump).
	kdump_live "$r" text | sed '/ module=/s/ caller=[^ ]*$//' > "$out.want.txt"
	kdump_live "$r" json | jq -c '.events |= map(if has("module") then del(.caller) else . end)' > "$out.want.json" 2> "$out.want.err"
	for f in default ${formats//,/ }; do
		kdump_check_format "$f" "$dir/kdump/dump.$f" "$out"
		kdump_check_taintctl "$f" "$dir/kdump/dump.$f" "$out"
	done
	kdump_check_filtered "$dir/kdump/dump.zlib" "$out"
	[ "$FAIL" = "$f0" ] || say "scenario kdump: the dumps are in $dir/kdump"
}

kdump_live() {	# kdump_live RESULTS text|json: what the guest printed
	sed -n "/^##LIVE-$2-BEGIN\$/,/^##LIVE-$2-END/p" "$1" | sed '1d;$d'
}

# kdump_check_taintctl NAME DUMP OUT: taintctl log --vmcore prints the live
# log from it, text and JSON, byte for byte
kdump_check_taintctl() {
	local f=$1 d=$2 o=$3.$1 tctl=$ROOT/taintctl/build/taintctl rc=0 nt nj
	"$tctl" log --vmcore "$d" > "$o.txt" 2> "$o.err" || rc=$?
	check "$f: taintctl log --vmcore: the live text, byte for byte ($(grep -c '^\[' "$o.txt") events)" \
		"exit $rc, $(head -c 300 "$o.err"); $(diff "$3.want.txt" "$o.txt" > "$o.txt.diff"; head -n 20 "$o.txt.diff")" \
		kdump_same_text "$3.want.txt" "$o.txt"
	rc=0
	"$tctl" log --vmcore "$d" --json | jq -c . > "$o.json" 2> "$o.err" || rc=$?
	nt=$(grep -c '^\[' "$3.want.txt") nj=$(jq '.events | length' "$3.want.json" 2>/dev/null)
	check "$f: taintctl log --vmcore --json: the live JSON ($nj events, as the text)" \
		"exit $rc, $(head -c 300 "$o.err"); live: $nt text events, JSON ${nj:-unparsed}; $(diff "$3.want.json" "$o.json" > "$o.json.diff"; head -c 600 "$o.json.diff")" \
		kdump_same_json "$nt" "$nj" "$3.want.json" "$o.json"
}
kdump_same_text() { [ "$(grep -c '^\[' "$1")" -ge 5 ] && cmp -s "$1" "$2"; }
kdump_same_json() { [ "$1" -gt 0 ] && [ "$2" = "$1" ] && [ -s "$3" ] && cmp -s "$3" "$4"; }

# kdump_check_filtered DUMP OUT: the kdump-compressed DUMP with the page of
# the taint log marked as filtered out (its bit in the bitmap of dumped
# pages cleared, as makedumpfile -d leaves a page it excludes): one error
# line that says so, exit 5, no log
kdump_check_filtered() {
	local d=$1 o=$2.filtered rc=0
	python3 - "$d" "$o.dump" > "$o.how" 2>&1 <<-'PY' || rc=$?
	import re, struct, sys
	src, dst = sys.argv[1], sys.argv[2]
	b = bytearray(open(src, "rb").read())
	assert b[:8] == b"KDUMP   ", "not kdump-compressed"
	blk, sub, bmb = struct.unpack_from("<iiI", b, 428)
	info_at, info_len = struct.unpack_from("<qQ", b, blk + 32)
	info = bytes(b[info_at:info_at + info_len]).decode()
	sym = int(re.search(r"^SYMBOL\(taint_events\)=([0-9a-f]+)$", info, re.M).group(1), 16)
	pb = int(re.search(r"^NUMBER\(phys_base\)=(-?[0-9]+)$", info, re.M).group(1))
	pfn = (sym - 0xffffffff80000000 + pb) // blk
	at = (1 + sub) * blk + bmb // 2 * blk + pfn // 8
	assert b[at] >> (pfn % 8) & 1, "the log's page is not dumped"
	b[at] &= ~(1 << (pfn % 8)) & 0xff
	open(dst, "wb").write(b)
	print("cleared page 0x%x (taint_events 0x%x)" % (pfn, sym))
	PY
	[ $rc = 0 ] || { check "a dump without the taint log's page: make it" "$(cat " false$o.how")"; return; }
	rc=0
	"$ROOT/taintctl/build/taintctl" log --vmcore "$o.dump" > "$o.txt" 2> "$o.err" || rc=$?
	check "a dump whose taint log page was filtered out: one error line that says so, exit 5" \
		"$(cat "$o.how"); exit $rc: $(head -c 300 "$o.err")" \
		test "$rc" = 5 -a "$(wc -l < "$o.err")" = 1 -a ! -s "$o.txt" -a "$(grep -c 'filtered out' "$o.err")" = 1
	rm -f "$o.dump"
}

# kdump_saved RESULTS DIR: every save went well, the last one too, and
# each file saved is in DIR (the disk unpacked) with the guest's size
kdump_saved() {
	local f n
	[ "$(grep -c '^kdump: done$' "$1")" = 1 ] &&
		[ "$(grep -c '^kdump: saved ' "$1")" -ge 6 ] &&
		[ "$(grep '^kdump: step save ' "$1" | grep -cv ' rc=0 ')" = 0 ] || return 1
	while read -r f n; do
		[ "$(stat -c %s "$2/${f#kdump/}" 2>/dev/null)" = "$n" ] || return 1
	done < <(sed -n 's/^kdump: saved //p' "$1")
}

# kdump_check_format NAME DUMP OUT: the dump exists, its format's magic,
# and makedumpfile --dump-dmesg on this machine reads the panic's log from
# it (a flattened dump after makedumpfile -R, as its manual says).
kdump_check_format() {
	local f=$1 d=$2 out=$3 magic want rc=0 src=$2
	case $f in
	default|flatelf) want=flattened magic=$(head -c 12 "$d" 2>/dev/null | tr -d '\0') ;;
	zlib|lzo) want=kdump magic=$(head -c 8 "$d" 2>/dev/null) ;;
	elf) want=elf magic=$(head -c 4 "$d" 2>/dev/null | tail -c 3) ;;
	esac
	check "sanity: $f: the crash kernel's makedumpfile wrote it" \
		"$(grep "^kdump: step $f\b" "$LOGS/scenario-kdump.results"; grep "^kdump: $f:" "$LOGS/scenario-kdump.results")" \
		grep -qE "^kdump: step $f rc=0 .* bytes=[0-9]+$" "$LOGS/scenario-kdump.results"
	case $want in
	flattened) check "sanity: $f: the flattened format (\"makedumpfile\" signature)" "magic '$magic'" test "$magic" = makedumpfile ;;
	kdump) check "sanity: $f: the kdump-compressed format (\"KDUMP   \" signature)" "magic '$magic'" test "$magic" = "KDUMP   " ;;
	elf) check "sanity: $f: an ELF file" "magic '$magic'" test "$magic" = ELF ;;
	esac
	if [ $want = flattened ]; then
		src=$out.$f.reassembled
		rm -f "$src"
		makedumpfile -R "$src" < "$d" > "$out.$f.R.log" 2>&1 || rc=$?
	fi
	rm -f "$out.$f.dmesg"
	[ $rc != 0 ] || makedumpfile --dump-dmesg "$src" "$out.$f.dmesg" > "$out.$f.dmesg.log" 2>&1 || rc=$?
	check "$f: makedumpfile --dump-dmesg (host) reads the Taint U: line and the panic" \
		"exit $rc: $(tr '\r' '\n' < "$out.$f.dmesg.log" 2>/dev/null | tail -n 3)" \
		kdump_log_ok "$out.$f.dmesg" "$out.taintu"
	[ "$src" = "$d" ] || rm -f "$src"
}

# kdump_log_ok LOG TAINTU: the log has the first kernel's Taint U: line(s)
# and its panic
kdump_log_ok() {
	[ -s "$1" ] && [ -s "$2" ] && grep -qF -f "$2" "$1" &&
		grep -q 'Kernel panic - not syncing: dumptest' "$1"
}
