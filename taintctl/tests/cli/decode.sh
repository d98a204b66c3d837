#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# decode.sh - taintctl decode: numbers, fields, letters, flag names, from
# operands or standard input, unknown letters and bits; TAP on stdout.

. "$(dirname "$0")/lib.sh"

run decode 4609 --json
t "decode 4609: P W O" jq_out '[.flags[].letter] == ["P","W","O"] and .mask == 4609'
run -j decode 0x80000
t "decode 0x80000: J = FWCTL" jq_out '.flags[0].letter == "J" and .flags[0].bit == 19 and .flags[0].name == "FWCTL" and .flags[0].description == "userspace used a mutating debug operation in fwctl"'
run -j decode 0x10000000200
t "decode with bit 40: unknown bit, not an error" sh -c "[ $rc -eq 0 ] && [ -s '$T/out' ] && jq -e '.unknown_bits == [40] and ([.flags[].letter] == [\"W\"])' '$T/out'"
run -j decode 18446744073709551615
t "decode 2^64-1: 20 flags and 44 unknown bits" jq_out '(.flags | length) == 20 and (.unknown_bits | length) == 44 and .mask == 18446744073709551615'
run -j decode 'CPU: 0 PID: 4424 Comm: insmod Tainted: P        W  O      4.20.0-0.rc6.fc30 #1'
t "decode a whole CPU: line" jq_out '.mask == 4609'
run -j decode -- Tainted: G        W  OE    --------  ---
t "decode RHEL dashes field given as several operands after --" jq_out '.mask == 12800'
run -j decode '[U]=USER, [W]=WARN'
t "decode verbose list" jq_out '.mask == 576 and .tainted'
run -j decode 'Not tainted'
t "decode Not tainted" jq_out '.mask == 0 and .tainted == false'
run -j decode PWO
t "decode bare letters" jq_out '.mask == 4609'
run decode garbage
t "decode garbage: exit 2, message names input" sh -c "[ $rc -eq 2 ] && grep -q \"'garbage'\" '$T/err' && [ \$(wc -l <'$T/err') -eq 1 ]"
run decode -- -5
t "decode negative: exit 2" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = \"taintctl: invalid taint value: '-5' (negative: the kernel refuses it too)\" ]"
run decode 18446744073709551616
t "decode overflow: exit 2, out of range" sh -c "[ $rc -eq 2 ] && grep -q 'out of range' '$T/err'"
run decode 12abc
t "decode 12abc: exit 2" rc_is 2
# unknown letters (a newer kernel's V) are shown as unknown, never an error
run -j decode 'Tainted: [W]=WARN, [V]=UNSAFE_BPF'
t "decode verbose unknown letter V: exit 0, W known, V unknown with its name" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '.mask == 512 and ([.flags[].letter] == [\"W\"]) and .unknown_letters == [{\"letter\": \"V\", \"name\": \"UNSAFE_BPF\"}] and .unknown_bits == []' '$T/out'"
run decode 'Tainted: [W]=WARN, [V]=UNSAFE_BPF'
t "decode verbose unknown letter: text names V and UNSAFE_BPF" sh -c "[ $rc -eq 0 ] && grep -q '^Tainted: W + unknown letters V (V=UNSAFE_BPF)' '$T/out' && grep -q '^  V  bit ?   UNSAFE_BPF ' '$T/out'"
run decode 'Tainted: G W V'
t "decode fixed unknown letter V: exit 0, shown as unknown" sh -c "[ $rc -eq 0 ] && grep -q '^Tainted: W + unknown letters V ' '$T/out' && grep -q '^  V  bit ?   (unknown) ' '$T/out'"
run -j decode 'Tainted: G    Q'
t "decode --json fixed unknown letter: unknown_letters, name null" jq_out '.unknown_letters == [{"letter": "Q", "name": null}] and .mask == 0 and .tainted'
run -j decode 4609
t "decode a number: unknown_letters is an empty array" jq_out '.unknown_letters == [] and .mask == 4609'
# prose is not a field
for p in "Tainted: I didn't know" 'The report said Tainted: P but the log was cut' 'Tainted: yes'; do
	run decode "$p"
	t "decode prose '$p': exit 2, not decoded" sh -c "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && grep -q 'not a kernel' '$T/err'"
done
run decode
t "decode without operand: exit 2" rc_is 2
run decode "  "
t "decode blank operand: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'empty' '$T/err'"
run decode "$(printf 'a\001b')"
t "decode with control byte: message stays one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ]"

# flag names as check takes them; a line mixing numbers
# and words is read word by word, only the wrong word refused
run -j decode PROPRIETARY_MODULE,WARN
t "decode PROPRIETARY_MODULE,WARN: P and W, exit 0" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '.mask == 513 and ([.flags[].letter] == [\"P\",\"W\"])' '$T/out' >/dev/null"
run -j decode proprietary_module taint_warn
t "decode names in any case, TAINT_ prefix, blank-separated operands: one value" jq_out '.mask == 513 and .input == "proprietary_module taint_warn"'
run -j decode DIE
t "decode DIE: the flag D (a name is read as the name, as check does)" jq_out '.mask == 128'
run -j decode P,W
t "decode P,W: letters in check's comma list" jq_out '.mask == 513'
run decode WARN,xyz
t "decode WARN,xyz: exit 2, the wrong item and its offset named, nothing decoded" sh -c "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot decode 'xyz' in 'WARN,xyz' (at offset 5): not a number, a flag name or flag letters\" ]"
run -j decode 0x40 xyz
t "decode 0x40 xyz: exit 2, only xyz refused, at offset 5" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot decode 'xyz' in '0x40 xyz' (at offset 5): not a number, a flag name or flag letters\" ]"
t "decode 0x40 xyz: 0x40 still decoded (U)" jq_out '.mask == 64 and .input == "0x40"'
run -j decode 0x40 WARN PWO
t "decode 0x40 WARN PWO: one value per word" jq_out -s '[.[].mask] == [64, 512, 4609] and [.[].input] == ["0x40", "WARN", "PWO"]'
run decode 0x40 PWQ
t "decode 0x40 PWQ: an unknown letter in a word is shown, not refused" sh -c "[ $rc -eq 0 ] && grep -q '^Tainted: PW + unknown letters Q ' '$T/out'"
printf '4609\nWARN,DIE\nbogus\n' | "$TAINTCTL" -j decode >"$T/out" 2>"$T/err"; rc=$?
t "decode from stdin: a value per line; the wrong one named with its line" sh -c "[ $rc -eq 2 ] && jq -s -e '[.[].mask] == [4609, 640] and [.[].line] == [1, 2]' '$T/out' >/dev/null && [ \"\$(cat '$T/err')\" = \"taintctl: (standard input):3: cannot decode 'bogus': not a number, a Tainted: field or flag letters (at offset 0)\" ]"

# --- standard input, several values, kernel numbers, -1 ----------------------
run_in '4609\n' decode --json
t "decode reads standard input without an operand" jq_out '.mask == 4609 and .input == "4609" and .line == 1'
run_in '576' decode - --json
t "decode - reads standard input" jq_out '.mask == 576'
run -J decode 4609 512
t "decode 4609 512: one JSON object per value (JSON Lines)" jq_out -s '[.[].mask] == [4609, 512] and [.[].input] == ["4609", "512"] and all(.[]; has("line") | not)'
run decode 4609 512
t "decode 4609 512: text, one block per value after an Input: line" sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^Input: ' '$T/out') -eq 2 ] && grep -q '^Tainted: PWO (mask 4609' '$T/out' && grep -q '^Tainted: W (mask 512' '$T/out'"
run decode 4609
t "decode of one value: no Input: line (output as before)" sh -c "[ $rc -eq 0 ] && ! grep -q '^Input' '$T/out' && [ \"\$(sed -n 1p '$T/out')\" = 'Tainted: PWO (mask 4609, 0x1201)' ]"
run -j decode 01201 0x1201 1201 00
t "decode reads numbers as the kernel does: 01201 is octal" jq_out -s '[.[].mask] == [641, 4609, 1201, 0]'
run decode 08
t "decode 08: exit 2, says a leading 0 is octal" sh -c "[ $rc -eq 2 ] && grep -q \"invalid taint value: '08' (a leading 0 means octal\" '$T/err'"
run decode 000000000000000001201
t "decode of 21 characters: exit 2, the kernel refuses it" sh -c "[ $rc -eq 2 ] && grep -q 'more than 20 characters' '$T/err'"
run decode -1
t "decode -1: a value (refused as the kernel does), not an option" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = \"taintctl: invalid taint value: '-1' (negative: the kernel refuses it too)\" ]"
run -j decode 4609 08 512
t "decode with one bad value: the others decoded, exit 2" sh -c "[ $rc -eq 2 ] && jq -e -s '[.[].mask] == [4609, 512]' '$T/out' && [ \$(wc -l <'$T/err') -eq 1 ]"
run_in 'log start\nCPU: 0 PID: 1 Comm: a Tainted: G        W          6.1.0 #1\nmore\nCPU: 1 PID: 2 Comm: b Tainted: P      D W  O      6.1.0 #1\n' -j decode
t "decode of a pasted excerpt: every field, with its line" jq_out -s '[.[].mask] == [512, 4737] and [.[].line] == [2, 4] and .[1].input == "Tainted: P      D W  O"'
run_in '4609\n\n512 0x40\n' -j decode
t "decode of stdin without a field: numbers line by line" jq_out -s '[.[].mask] == [4609, 512, 64] and [.[].line] == [1, 3, 3]'
run_in 'PWO\n[U]=USER, [W]=WARN\n' -j decode
t "decode of stdin without a field: letters and verbose lists" jq_out -s '[.[].mask] == [4609, 576]'
# unknown letters are shown, not refused, in every value's block
run_in 'Tainted: G W\ngarbage Tainted: G    Q\n' decode
t "decode of stdin: an unknown letter is shown under its line, exit 0" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && grep -q '^Tainted: W (mask 512' '$T/out' && grep -q '^Input (line 2): Tainted: G    Q\$' '$T/out' && grep -q '^Tainted: - + unknown letters Q ' '$T/out' && grep -q '^  Q  bit ?   (unknown) ' '$T/out'"
run_in 'CPU: 0 Comm: a Tainted: [W]=WARN, [V]=UNSAFE_BPF\n4609\n' -j decode
t "decode --json of stdin: unknown_letters in each object, with input and line" jq_out -s 'length == 1 and .[0].unknown_letters == [{"letter": "V", "name": "UNSAFE_BPF"}] and .[0].mask == 512 and .[0].line == 1 and .[0].input == "Tainted: [W]=WARN, [V]=UNSAFE_BPF"'
run -j decode 'Tainted: [W]=WARN, [V]=UNSAFE_BPF' 'Tainted: P        W  O'
t "decode --json of two fields: unknown_letters per value" jq_out -s '[.[].mask] == [512, 4609] and [.[].unknown_letters | length] == [1, 0]'
run_in 'PWQ\n' decode
t "decode of letters without a marker: unknown letter Q shown, exit 0" sh -c "[ $rc -eq 0 ] && grep -q '^Tainted: PW + unknown letters Q ' '$T/out'"
run_in 'Tainted: yes\n' decode
t "decode of prose on stdin: exit 6, no field found, the prose marker's line named" sh -c "[ $rc -eq 6 ] && [ ! -s '$T/out' ] && [ \"\$(cat '$T/err')\" = \"taintctl: no Tainted: field found in standard input (line 1: 'Tainted:' is followed by prose, not a kernel's taint field)\" ]"
run_in 'garbage\n' decode
t "decode of garbage on stdin: exit 2, line named" sh -c "[ $rc -eq 2 ] && grep -q \"^taintctl: (standard input):1: cannot decode 'garbage'\" '$T/err'"
run_in '' decode
t "decode of empty stdin: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'standard input is empty' '$T/err'"

# --- text without a field: no value is taken from its words ----------------
# a healthy host's dmesg: GNU, SMP and 5002 are words, not values
cat >"$T/dmesg" <<'EOF'
[    0.000000] Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)
[    0.000000] Command line: BOOT_IMAGE=/vmlinuz-6.1.0-18-amd64 root=UUID=1234 ro quiet
[    0.000000] BIOS-provided physical RAM map:
[    0.412345] virtio_vsock: listen port 5002
[    1.000000] SMP
[    1.100000] 5002
EOF
awk 'BEGIN { for (i = 0; i < 344; i++) printf "[%5d.%06d] usb 1-1: new high-speed USB device number %d using xhci_hcd GNU SMP 5002\n", i, i, i }' >>"$T/dmesg"
"$TAINTCTL" decode <"$T/dmesg" >"$T/out" 2>"$T/err"; rc=$?
t "dmesg without a field | decode: exit 6, 'no Tainted: field found', nothing decoded" sh -c "[ $rc -eq 6 ] && [ ! -s '$T/out' ] && [ \"\$(cat '$T/err')\" = 'taintctl: no Tainted: field found in standard input' ]"
"$TAINTCTL" -j decode <"$T/dmesg" >"$T/out" 2>"$T/err"; rc=$?
t "dmesg (350 lines) without a field | decode --json: exit 6, no object" sh -c "[ $rc -eq 6 ] && [ ! -s '$T/out' ] && grep -q 'no Tainted: field found' '$T/err'"
run_in 'Linux version 6.1.0 (gcc) #1 SMP PREEMPT_DYNAMIC GNU 5002\n' decode
t "one line of prose on stdin: exit 6, not word by word" sh -c "[ $rc -eq 6 ] && [ ! -s '$T/out' ] && [ \$(wc -l <'$T/err') -eq 1 ]"
run_in '4609\n0x1 bogus\n' decode
t "stdin with a line of words: not a list of values, exit 6" sh -c "[ $rc -eq 6 ] && [ ! -s '$T/out' ]"
run decode "$(printf 'GNU\n[    1.0] SMP 5002\n')"
t "an operand of several lines with prose: exit 6, nothing decoded" sh -c "[ $rc -eq 6 ] && [ ! -s '$T/out' ] && grep -q 'no Tainted: field found' '$T/err'"
run_in 'SMP\n' -j decode
t "stdin that is one token: decoded (SMP: P, S, M)" sh -c "[ $rc -eq 0 ] && jq -e '.mask == 21' '$T/out' >/dev/null"
run_in '4609\n512\n\n0x40\n' -j decode
t "several lines, each one value: several values, as before" sh -c "[ $rc -eq 0 ] && jq -s -e '[.[].mask] == [4609, 512, 64] and [.[].line] == [1, 2, 4]' '$T/out' >/dev/null"
{ cat "$T/dmesg"; printf '[    9.0] CPU: 0 PID: 1 Comm: a Tainted: G        W          6.1.0 #1\n'; } | "$TAINTCTL" -j decode >"$T/out" 2>"$T/err"; rc=$?
t "dmesg with a field | decode: that field only, exit 0" sh -c "[ $rc -eq 0 ] && jq -s -e 'length == 1 and .[0].mask == 512 and .[0].line == 351' '$T/out' >/dev/null"
run decode GNU SMP 5002
t "operands are values: decode GNU SMP 5002 as before" sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^Input: ' '$T/out') -eq 3 ]"

run_full decode 4609
t "decode >/dev/full: exit 3, write error" write_error
run_full --json decode 4609
t "decode --json >/dev/full: exit 3" write_error
# the reader gone before the write: EPIPE, not reported, as util-linux
gone trap decode 4609
t "decode into a closed pipe (EPIPE), SIGPIPE ignored: exit 0, nothing on stderr" epipe_ok
gone decode 4609
t "decode into a closed pipe (EPIPE), SIGPIPE at its default: exit 0, nothing on stderr" epipe_ok
seq 1 60000 >"$T/values"
head_1 trap decode - <"$T/values"
t "decode - | head -1 (60,000 values): exit 0, nothing on stderr" epipe_ok
run -j decode 18446744073709551615
t "decode 2^64-1 --json: mask_hex 0xffffffffffffffff (jq cannot hold the number)" jq_out '.mask_hex == "0xffffffffffffffff"'
run -j decode 0x20000000000201
t "decode 2^53+0x201 --json: mask_hex keeps the low bits" eval 'jq_out ".mask_hex == \"0x20000000000201\"" && masks_hex "$T/out" 1'

# "Tainted: G": tainted, no flag shown: the mask is not known (null)
run decode --json 'CPU: 0 PID: 1 Comm: a Tainted: G 6.1.0 #1'
t "decode --json 'Tainted: G': mask and mask_hex null, tainted" \
	jq_out '.mask == null and .mask_hex == null and .tainted == true and .flags == []'

tap_done
