#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# units_test.sh - the systemd units (systemd/*.in) as installed, checked by
# `systemd-analyze verify` inside a root: TAP on stdout.
#
# Usage: units_test.sh [ROOT [UNITDIR]]
#   ROOT holds an installed taintctl (make install DESTDIR=ROOT PREFIX=/usr,
#   or the taintctl .deb unpacked by scripts/pkg/deb-test.sh); UNITDIR (default
#   /lib/systemd/system) is where its units are.  Without ROOT (make
#   units-check) it installs into a scratch root first, as Debian lays it
#   out: ${MAKE:-make} install DESTDIR=... PREFIX=/usr
#   LIBDIR=/usr/lib/<multiarch> SYSTEMDUNITDIR=/lib/systemd/system (B and
#   CC from the Makefile; a failed install is a Bail out!).  The host's own
#   targets, slices and sockets are copied into ROOT's UNITDIR first
#   (verify needs sysinit.target and the rest); verify then checks each
#   unit's syntax, its dependencies and that ExecStart's binary exists and
#   is executable in ROOT. It must exit 0 and print nothing: an unknown
#   key or a bad value is only a warning to it (exit 0), and a warning
#   fails here.
# Skips as a whole when systemd-analyze is not installed (no systemd).

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/tap.sh"
ROOT=${1:-}
UNITDIR=${2:-/lib/systemd/system}
UNITS="taintctl-metrics.service taintctl-metrics.timer taintctl-watch.service
	taintctl-record.service"
command -v systemd-analyze >/dev/null 2>&1 ||
	tap_skip_all "systemd-analyze is not installed (package systemd)"
HOSTDIR=
for d in /lib/systemd/system /usr/lib/systemd/system; do
	[ -e "$d/sysinit.target" ] && { HOSTDIR=$d; break; }
done
[ -n "$HOSTDIR" ] || tap_skip_all "no systemd unit directory with sysinit.target on this host"
tap_init units
if [ -z "$ROOT" ]; then
	ROOT=$T/root
	MA=$(${CC:-cc} -print-multiarch 2>/dev/null)
	${MAKE:-make} -s --no-print-directory -C "$HERE/.." B="${B:-build}" install \
		DESTDIR="$ROOT" PREFIX=/usr LIBDIR="/usr/lib${MA:+/$MA}" \
		SYSTEMDUNITDIR=/lib/systemd/system >"$T/install.log" 2>&1 || {
		echo "Bail out! make install DESTDIR=$ROOT failed:"
		sed 's/^/# /' "$T/install.log"
		exit 1
	}
fi

for u in $UNITS; do
	t "$UNITDIR/$u installed, mode 0644" sh -c "
		[ -f '$ROOT$UNITDIR/$u' ] && [ \$(stat -c %a '$ROOT$UNITDIR/$u') = 644 ]"
done
for f in "$HOSTDIR"/*.target "$HOSTDIR"/*.slice "$HOSTDIR"/*.socket; do
	[ -e "$ROOT$UNITDIR/${f##*/}" ] || cp -P "$f" "$ROOT$UNITDIR/"
done
for u in $UNITS; do
	systemd-analyze verify --man=no --root="$ROOT" "$u" >"$T/$u.out" 2>&1
	rc=$?
	t "systemd-analyze verify --root: $u, exit 0 ($rc), no warning" sh -c "
		[ $rc -eq 0 ] && [ ! -s '$T/$u.out' ]"
	sed 's/^/# verify: /' "$T/$u.out" | head -5
done
# what the units run: the installed taintctl, and the textfile directory
# Debian's prometheus-node-exporter reads
for u in taintctl-metrics.service taintctl-watch.service taintctl-record.service; do
	t "$u: ExecStart is the installed /usr/bin/taintctl" \
		grep -q '^ExecStart=/usr/bin/taintctl ' "$ROOT$UNITDIR/$u"
done
t "taintctl-metrics.service writes /var/lib/prometheus/node-exporter/taint.prom" \
	grep -q -- '--output /var/lib/prometheus/node-exporter/taint.prom$' \
	"$ROOT$UNITDIR/taintctl-metrics.service"
t "taintctl-metrics.service runs at boot before node_exporter (the last boot's file is never served)" sh -c "
	grep -qx 'Before=prometheus-node-exporter.service' '$ROOT$UNITDIR/taintctl-metrics.service' &&
	grep -qx 'WantedBy=multi-user.target' '$ROOT$UNITDIR/taintctl-metrics.service'"
t "taintctl-metrics.timer is wanted by timers.target" \
	grep -qx 'WantedBy=timers.target' "$ROOT$UNITDIR/taintctl-metrics.timer"
# the recorder: from early boot, Type=notify, these capabilities and no
# others, restarted after a crash but not when the kernel cannot record
R=$ROOT$UNITDIR/taintctl-record.service
t "taintctl-record.service: early (no default dependencies, before sysinit.target and module loading), wanted by sysinit.target" sh -c "
	grep -qx 'DefaultDependencies=no' '$R' &&
	grep -q '^Before=sysinit.target systemd-modules-load.service systemd-udevd.service' '$R' &&
	grep -qx 'WantedBy=sysinit.target' '$R' && grep -qx 'Type=notify' '$R'"
t "taintctl-record.service: CAP_BPF, CAP_PERFMON and CAP_SYSLOG only, no new privileges, /proc/kallsyms not hidden" sh -c "
	[ \"\$(grep '^CapabilityBoundingSet=' '$R')\" = 'CapabilityBoundingSet=CAP_BPF CAP_PERFMON CAP_SYSLOG' ] &&
	! grep -q '^AmbientCapabilities=' '$R' && grep -qx 'NoNewPrivileges=yes' '$R' &&
	! grep -q '^ProtectKernelLogs=yes' '$R' && ! grep -q '^ProtectKernelTunables=yes' '$R'"
t "taintctl-record.service: restarted on failure, not for exit 11, its log kept across restarts" sh -c "
	grep -qx 'Restart=on-failure' '$R' && grep -qx 'RestartPreventExitStatus=11' '$R' &&
	grep -qx 'RuntimeDirectory=taintctl' '$R' && grep -qx 'RuntimeDirectoryPreserve=yes' '$R'"
tap_done
