#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# metrics.sh - taintctl metrics: the Prometheus text (values, labels,
# unknown bits, stock, unreadable and malformed logs) and --output by the
# kind of file; TAP on stdout.  tests/metrics_test.sh checks the same
# output with promtool and node_exporter.

. "$(dirname "$0")/lib.sh"

run --root "$V2" metrics
cp "$T/out" "$T/m.prom"
t "metrics: exit 0, mask as kernel_tainted" sh -c "[ $rc -eq 0 ] && grep -qx 'kernel_tainted 4673' '$T/m.prom'"
t "metrics: one kernel_taint_flag per known flag, 0 or 1" sh -c "[ \$(grep -c '^kernel_taint_flag{' '$T/m.prom') -eq 20 ] && grep -qx 'kernel_taint_flag{flag=\"W\",name=\"WARN\"} 1' '$T/m.prom' && grep -qx 'kernel_taint_flag{flag=\"D\",name=\"DIE\"} 0' '$T/m.prom' && grep -qx 'kernel_taint_flag{flag=\"O\",name=\"OOT_MODULE\"} 1' '$T/m.prom'"
t "metrics: first-set time and origin of set flags with a dated event" sh -c "grep -qx 'kernel_taint_flag_first_set_timestamp_seconds{flag=\"U\",origin=\"user\"} 1796284800' '$T/m.prom' && grep -qx 'kernel_taint_flag_first_set_timestamp_seconds{flag=\"P\",origin=\"user\"} 1796284801' '$T/m.prom' && [ \$(grep -c '^kernel_taint_flag_first_set_timestamp_seconds{' '$T/m.prom') -eq 2 ]"
t "metrics: dropped counter" grep -qx 'kernel_taint_log_dropped_total 2' "$T/m.prom"
t "metrics: HELP and TYPE for each family" sh -c "[ \$(grep -c '^# HELP ' '$T/m.prom') -eq 4 ] && grep -qx '# TYPE kernel_taint_log_dropped_total counter' '$T/m.prom' && grep -qx '# TYPE kernel_tainted gauge' '$T/m.prom'"
t "metrics: no reason, comm or pid in any label" sh -c "! grep -E 'reason|comm|pid|sudo|lkdtm|quoted' '$T/m.prom'"
run --root "$UNK" metrics
t "metrics: a set unknown bit is flag=\"bit40\", name=\"\"" sh -c "[ $rc -eq 0 ] && grep -qx 'kernel_taint_flag{flag=\"bit40\",name=\"\"} 1' '$T/out' && [ \$(grep -c '^kernel_taint_flag{' '$T/out') -eq 21 ]"
t "metrics on a stock kernel: no first-set or dropped series" sh -c "! grep -q 'first_set\|dropped' '$T/out' && grep -qx 'kernel_tainted 1099511628288' '$T/out'"
M=$T/textfile; mkdir "$M"
run --root "$V2" metrics --output "$M/taint.prom"
t "metrics --output: the file holds what stdout would, mode 0644, no temporary file left" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/out' ] && cmp -s '$M/taint.prom' '$T/m.prom' && [ \$(stat -c %a '$M/taint.prom') = 644 ] && [ \$(ls -A '$M' | wc -l) -eq 1 ]"
ino=$(stat -c %i "$M/taint.prom")
run --root "$PATCHED" metrics -o "$M/taint.prom"
t "metrics --output replaces the file by rename (a new inode), never in place" sh -c "[ $rc -eq 0 ] && [ \$(stat -c %i '$M/taint.prom') != $ino ] && grep -qx 'kernel_taint_log_dropped_total 5' '$M/taint.prom' && [ \$(ls -A '$M' | wc -l) -eq 1 ]"
(cd "$M" && "$TAINTCTL" --root "$V2" metrics --output rel.prom) >"$T/out" 2>"$T/err"; rc=$?
t "metrics --output with a relative name" sh -c "[ $rc -eq 0 ] && cmp -s '$M/rel.prom' '$T/m.prom'"
run --root "$V2" metrics --output "$T/nodir/taint.prom"
t "metrics --output in a missing directory: exit 3, one line" sh -c "[ $rc -eq 3 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'nodir' '$T/err'"
# --output by the kind of file, each in its own directory
# of $T (never on /dev, but /dev/null written through and checked after)
MK=$T/kinds; mkdir "$MK"
only() { [ "$(ls -A "$1" | tr '\n' ' ')" = "$2 " ]; }	# DIR holds just NAME
mkdir "$MK/reg"; echo old >"$MK/reg/t.prom"; chmod 600 "$MK/reg/t.prom"
ino=$(stat -c %i "$MK/reg/t.prom")
run --root "$V2" metrics -o "$MK/reg/t.prom"
t "metrics -o a regular file of mode 0600: replaced (new inode), mode kept, nothing left over" eval '[ $rc -eq 0 ] && cmp -s "$MK/reg/t.prom" "$T/m.prom" && [ $(stat -c %i "$MK/reg/t.prom") != $ino ] && [ $(stat -c %a "$MK/reg/t.prom") = 600 ] && only "$MK/reg" t.prom'
mkdir "$MK/fifo"; mkfifo "$MK/fifo/t.prom"
cat "$MK/fifo/t.prom" >"$T/fifo.out" &
reader=$!
run --root "$V2" metrics -o "$MK/fifo/t.prom"
# (a FIFO renamed over leaves the reader waiting for a writer: not forever)
i=0
while [ $i -lt 50 ] && kill -0 $reader 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill $reader 2>/dev/null
wait $reader
through=no
[ $rc -eq 0 ] && [ "$(stat -c %F "$MK/fifo/t.prom")" = fifo ] && through=yes
t "metrics -o a FIFO with a reader: written through, the FIFO stays, nothing left over" eval '[ $through = yes ] && cmp -s "$T/fifo.out" "$T/m.prom" && only "$MK/fifo" t.prom'
mkdir "$MK/link" "$MK/target"; echo old >"$MK/target/t.prom"; chmod 640 "$MK/target/t.prom"
ln -s ../target/t.prom "$MK/link/l.prom"
ino=$(stat -c %i "$MK/target/t.prom")
run --root "$V2" metrics -o "$MK/link/l.prom"
t "metrics -o a symlink to a regular file: the link stays, its target replaced (new inode, mode kept) in the target's directory" eval '[ $rc -eq 0 ] && [ -L "$MK/link/l.prom" ] && [ "$(readlink "$MK/link/l.prom")" = ../target/t.prom ] && cmp -s "$MK/target/t.prom" "$T/m.prom" && [ $(stat -c %i "$MK/target/t.prom") != $ino ] && [ $(stat -c %a "$MK/target/t.prom") = 640 ] && only "$MK/link" l.prom && only "$MK/target" t.prom'
mkdir "$MK/dangling"; ln -s nowhere.prom "$MK/dangling/l.prom"
run --root "$V2" metrics -o "$MK/dangling/l.prom"
t "metrics -o a dangling symlink: exit 2, one line naming it, the link kept, nothing created" eval '[ $rc -eq 2 ] && err_one_line && grep -q "'"'"'$MK/dangling/l.prom'"'"': a symlink to a file that does not exist" "$T/err" && [ -L "$MK/dangling/l.prom" ] && only "$MK/dangling" l.prom'
mkdir -p "$MK/dir/t.prom"
run --root "$V2" metrics -o "$MK/dir/t.prom"
t "metrics -o a directory: exit 2, one line, the directory kept" eval '[ $rc -eq 2 ] && err_is "taintctl: invalid output file '"'"'$MK/dir/t.prom'"'"': a directory" && [ -d "$MK/dir/t.prom" ] && only "$MK/dir" t.prom'
# (only if a FIFO was written through: a build that replaces what it is
# given must not replace this machine's /dev/null, the tests run as root)
if [ $through = yes ]; then
	run --root "$V2" metrics -o /dev/null
	t "metrics -o /dev/null: exit 0, written through: still a character device" eval '[ $rc -eq 0 ] && [ ! -s "$T/err" ] && [ "$(stat -c %F /dev/null)" = "character special file" ]'
	mkdir "$MK/devlink"; ln -s /dev/null "$MK/devlink/l.prom"
	run --root "$V2" metrics -o "$MK/devlink/l.prom"
	t "metrics -o a symlink to /dev/null: written through, the link kept" eval '[ $rc -eq 0 ] && [ "$(readlink "$MK/devlink/l.prom")" = /dev/null ] && [ "$(stat -c %F /dev/null)" = "character special file" ] && only "$MK/devlink" l.prom'
else
	not_ok "metrics -o /dev/null: not run, the FIFO was not written through"
	not_ok "metrics -o a symlink to /dev/null: not run, the FIFO was not written through"
fi
"$TAINTCTL" --root "$V2" metrics -o /dev/stdout </dev/null 2>"$T/err" | cat >"$T/out"
t "metrics -o /dev/stdout (a pipe): the metrics on standard output" eval 'cmp -s "$T/out" "$T/m.prom" && [ ! -s "$T/err" ]'
(echo "# head"; "$TAINTCTL" --root "$V2" metrics -o /dev/stdout 2>"$T/err"; echo "# tail") >"$MK/stdout.prom"
t "metrics -o /dev/stdout (a regular file): written at the open descriptor's offset, not renamed over" eval '{ echo "# head"; cat "$T/m.prom"; echo "# tail"; } | cmp -s - "$MK/stdout.prom" && [ ! -s "$T/err" ]'
run --root "$V2" metrics --json
t "metrics --json: exit 2 (the output is the Prometheus format)" sh -c "[ $rc -eq 2 ] && [ ! -s '$T/out' ]"
run --root "$UNREAD" metrics
t "metrics with an unreadable taint_log: warning, no first-set or dropped series, exit 0" sh -c "[ $rc -eq 0 ] && grep -q 'warning: cannot read' '$T/err' && grep -qx 'kernel_tainted 512' '$T/out' && ! grep -q 'first_set\|dropped' '$T/out'"
run --root "$MAL" metrics
t "metrics with a malformed taint_log line: reported, series still written, exit 3" sh -c "[ $rc -eq 3 ] && grep -q 'taint_log:2: malformed line' '$T/err' && grep -qx 'kernel_taint_log_dropped_total 0' '$T/out'"
run --root "$T/nonexistent" metrics
t "metrics without a tainted file: exit 3" rc_is 3
run_full --root "$V2" metrics
t "metrics >/dev/full: exit 3, write error" write_error
gone --root "$V2" metrics
t "metrics into a gone reader: exit 0, nothing on stderr" epipe_ok
gone --root "$V2" metrics -o /dev/stdout
t "metrics -o /dev/stdout into a gone reader: exit 0, nothing on stderr" epipe_ok

tap_done
