#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# usage.sh - the command line as a whole: --help and --version, unknown
# commands and options, where an option may stand, an option outside its
# command, --root, each command's --help; TAP on stdout.

. "$(dirname "$0")/lib.sh"

# --- --help, --version, unknown commands and options -------------------------
run --help
t "--help exits 0 and documents exit codes" sh -c "[ $rc -eq 0 ] && grep -q 'Exit status' '$T/out' && grep -q '3  permission or system error' '$T/out'"
run --version
t "--version" sh -c "[ $rc -eq 0 ] && grep -q '^taintctl from usertaint ' '$T/out'"
run frobnicate
t "unknown command: exit 2, one-line message" sh -c "[ $rc -eq 2 ] && grep -q \"^taintctl: unknown command 'frobnicate'\" '$T/err'"
run --bogus
t "unknown option: exit 2" rc_is 2
# an option of one command given to another: exit 2
run --deny W status
t "--deny outside check: exit 2" rc_is 2
run decode --value 5
t "--value outside check: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'options of the check command' '$T/err'"
run --root "$STOCK" status --once
t "--once outside watch: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'options of the watch command' '$T/err'"
run --root "$STOCK" log --interval 1
t "--interval outside watch: exit 2" rc_is 2
run --root "$V2" status --output x
t "--output outside metrics and record: exit 2, both named" sh -c "[ $rc -eq 2 ] && grep -q 'option of the metrics and record commands' '$T/err'"
run --root "$CUR" --since x status
t "--since outside check: exit 2" rc_is 2
# each command parses its own options, and the command line as a whole:
# an option before the command's name, long options abbreviated as
# getopt_long() allows against every command's options, options after
# operands, "--"
run --allow W --root "$CLEAN" check
t "a command's option before its name: --allow W check" sh -c "[ $rc -eq 0 ] && grep -qx 'ok: no disallowed taint (mask 0)' '$T/out'"
run --root "$CLEAN" check --al W --json
t "a long option's unique prefix: check --al W" jq_out '.ok == true'
run --root "$T/nonexistent" watch --o	# (were it --once: exit 3, no wait)
t "a prefix of two commands' options is ambiguous for each: watch --o (--once, --output)" sh -c "[ $rc -eq 2 ] && [ \"\$(head -1 '$T/err')\" = \"taintctl: unrecognized option '--o'\" ]"
run decode --vmcore x
t "an option of other commands names them all: decode --vmcore" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = 'taintctl: --vmcore is an option of the status and log commands' ]"
run decode 4609 -j
t "an option after the operands: decode 4609 -j" jq_out '.mask == 4609'
run decode -- -j
t "after --, -j is an operand: decode -- -j" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = \"taintctl: invalid taint value: '-j' (negative: the kernel refuses it too)\" ]"
run -J decode 4609
t "-J is --json" jq_out '.mask == 4609'
run --root "$STOCK" status -J
t "-J after the command" jq_out '.mask == 576'

# --- --root ------------------------------------------------------------------
run --root "$LONGROOT" status
t "--root DIR longer than PATH_MAX: exit 2" sh -c "[ $rc -eq 2 ] && grep -q '^taintctl: root directory name too long' '$T/err'"
TAINTCTL_PROC=$CLEAN/proc run --root "$STOCK" status --json
t "--root wins, TAINTCTL_PROC is not read any more" jq_out '.mask == 576'
TAINTCTL_PROC=$STOCK/proc run status --root
t "--root without DIR: exit 2" sh -c "[ $rc -eq 2 ] && grep -q \"option '--root' requires an argument\" '$T/err'"

# --- standard output full, or a reader gone ----------------------------------
run_full --help
t "--help >/dev/full: exit 3" write_error
run_full --version
t "--version >/dev/full: exit 3" write_error
gone --help
t "--help into a gone reader: exit 0, nothing on stderr" epipe_ok

# --- per-command help --------------------------------------------------------
for c in status decode scan mark log check watch metrics cursor; do
	run "$c" --help
	t "$c --help: that command's usage, exit 0" sh -c "[ $rc -eq 0 ] && grep -q '^ taintctl .*$c' '$T/out' && [ \$(grep -c '^ taintctl ' '$T/out') -le 2 ] && grep -q 'taintctl(1)' '$T/out'"
done
# the overview names every option that a command's --help names (it
# lacked watch's --journal)
run --help; cp "$T/out" "$T/top"
for c in status decode scan mark log check watch metrics cursor; do
	"$TAINTCTL" "$c" --help
done | grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/cmd_opts"
t "the commands' --help texts name options" test -s "$T/cmd_opts"
while read -r o; do
	t "taintctl --help names $o (a command's --help does)" grep -qF -- "$o" "$T/top"
done <"$T/cmd_opts"
# the list of compressed formats (libtaint's table, help.c) in the texts
# that name it: bzip2 and lz4 too, and it fits their lines
for c in "" scan log check; do
	run $c --help
	t "${c:-taintctl} --help lists bzip2 and lz4 among the formats read, lines of 80 columns at most" sh -c "grep -q 'gzip, xz, zstd, bzip2 and lz4' '$T/out' && [ -z \"\$(grep 'bzip2' '$T/out' | awk 'length > 80')\" ]"
done
run --help
t "--help: --vmcore reads kdump-compressed dumps too, not only ELF cores" sh -c "tr -s ' \n' '  ' <'$T/out' | grep -q -- \"--vmcore FILE log, status: read an x86_64 kernel's crash dump: an ELF core .* or makedumpfile's kdump-compressed format (zlib, lzo, zstd or snappy pages), flattened (-F) or not\" && ! grep -q 'an x86_64 ELF core' '$T/out'"
run log --help
t "log --help: --vmcore reads kdump-compressed dumps too, not a compressed file" sh -c "tr -s ' \n' '  ' <'$T/out' | grep -q \"makedumpfile's kdump-compressed format (zlib, lzo, zstd or snappy pages), flattened (-F) or not; not a compressed file\" && ! grep -q 'x86_64 ELF$' '$T/out'"
run decode --help
t "decode --help is about decode (stdin, octal), not scan" sh -c "grep -q 'standard input' '$T/out' && grep -q 'octal' '$T/out' && ! grep -q 'scan FILE' '$T/out'"
run check --help
t "check --help lists the flag names FLAGS may use" sh -c "grep -q '^   P  PROPRIETARY_MODULE ' '$T/out' && grep -q '^   J  FWCTL ' '$T/out' && grep -q -- '--value VALUE' '$T/out'"
run --help status
t "--help before the command: that command's help too" sh -c "[ $rc -eq 0 ] && grep -q '^ taintctl \[options\] \[status\] \[--vmcore FILE\]\$' '$T/out' && ! grep -q 'decode' '$T/out'"

tap_done
