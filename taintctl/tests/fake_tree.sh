# SPDX-License-Identifier: GPL-2.0-or-later
#
# fake_tree.sh - what the shell tests that run taintctl on fake --root
# trees share (POSIX sh; sourced after tap.sh's tap_init, which sets $T):
#
#   mkproc NAME        a new tree $T/NAME with proc/sys/kernel and
#                      sys/module; prints its path
#   set_mask DIR VALUE DIR/proc/sys/kernel/tainted := VALUE, atomically (a
#                      rename): a running watch must never read it empty
#                      (`echo >` truncates first, and watch would report the
#                      empty file and exit 3: a race a loaded machine loses)
#   guard PID, unguard kill PID after 120 s if it still runs (a test must
#                      not hang); unguard ends the guard
#   started PID FILE   wait (at most 30 s) until watch PID, its stderr
#                      FILE, has read the tree: on a --root tree it says
#                      that it will re-read it ("re-reading every"), once
#                      it has read the state it compares with.  A not ok
#                      (return 1) if it does not, or exits first.

mkproc() { mkdir -p "$T/$1/proc/sys/kernel" "$T/$1/sys/module"; echo "$T/$1"; }
set_mask() { echo "$2" >"$1/proc/sys/kernel/tainted.new" && mv "$1/proc/sys/kernel/tainted.new" "$1/proc/sys/kernel/tainted"; }
guard() { (sleep 120; kill "$1" 2>/dev/null) >/dev/null 2>&1 & guard_pid=$!; }
unguard() { kill "$guard_pid" 2>/dev/null; wait "$guard_pid" 2>/dev/null; }
started() {
	i=0
	until grep -q 're-reading every' "$2" 2>/dev/null; do
		if [ $i -ge 300 ] || ! kill -0 "$1" 2>/dev/null; then
			not_ok "watch started: its notice on stderr ($2) within 30 s (exited, or too slow)"
			return 1
		fi
		sleep 0.1; i=$((i + 1))
	done
}
