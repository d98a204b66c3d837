#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make fresh-check: the README's set-up and test commands on a fresh Debian
# bookworm machine, as root: a clean root made with debootstrap, a clone of
# this repository's HEAD in it, and there, through chroot with an empty
# environment (no CI, no ccache, no build directory of this machine):
#
#   apt-get update && apt-get install -y git make    (the README's set-up)
#   make run
#   bash .ci/run      (what CI runs: make check-matrix-ci, make test-debug,
#                     make test; each part's time, then make test's summary)
#
# Prints each command's summary line, exit code and time, .ci/run's parts'
# times, and the total; exits 0 only if all passed. Not run by CI (it is
# CI's run, cold, and more).
#
# The root: debootstrap --variant=minbase from the mirror that this
# machine's APT configuration names for bookworm main (lib.sh apt_mirror),
# cached as build/fresh/base.tar.zst and reused; each run unpacks a new
# copy in build/fresh/root. The root gets this machine's APT source files
# (and the keyrings they name), /etc/resolv.conf and APT's HTTP proxy, if
# any. /proc, /sys, /dev and /dev/pts are mounted in a mount namespace of
# its own (unshare -m), so they vanish with it; the EXIT trap also ends
# what still runs in the root and unmounts anything left, and nothing is
# deleted while something is mounted under it. The root is kept after a
# failure (to look into) and removed after a pass.
#
# Environment: UT_FRESH=DIR (default build/fresh), UT_FRESH_REBASE=1 (make
# the base again), UT_FRESH_KEEP=1 (keep the root after a pass too).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"

[ "$(id -u)" -eq 0 ] || die "fresh-check: needs root (debootstrap, chroot, mounts)"
FRESH=${UT_FRESH:-$BUILD/fresh}
BASE=$FRESH/base.tar.zst
R=$FRESH/root
LOGDIR=$FRESH/logs
SUITE=bookworm

# mounts_under DIR: the mount points at or under DIR, deepest first.
mounts_under() {
	local d
	d=$(realpath -m "$1")
	awk -v d="$d" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}
# kill_in_root DIR: end the processes whose root directory is DIR (what
# the chroot started and left running, e.g. a QEMU).
kill_in_root() {
	local d p pids=()
	d=$(realpath -m "$1")
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$d" ] && pids+=("${p#/proc/}")
	done
	[ ${#pids[@]} -eq 0 ] && return 0
	say "fresh-check: ending what still runs in $d: ${pids[*]}"
	kill "${pids[@]}" 2>/dev/null || true
	sleep 2
	kill -9 "${pids[@]}" 2>/dev/null || true
}
unmount_under() {	# unmount_under DIR: nothing stays mounted under DIR
	local m
	for m in $(mounts_under "$1"); do
		umount "$m" 2>/dev/null || umount -l "$m" || true
	done
	[ -z "$(mounts_under "$1")" ] || die "fresh-check: still mounted under $1: $(mounts_under "$1" | tr '\n' ' ')"
}
safe_rm() {	# safe_rm DIR: remove DIR, never while anything is mounted under it
	[ -e "$1" ] || return 0
	kill_in_root "$1"
	unmount_under "$1"
	rm -rf --one-file-system "$1"
}
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	kill_in_root "$R" || true
	unmount_under "$R" || rc=1
	unmount_under "$FRESH/base.tmp" 2>/dev/null || true
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# What fresh-check itself needs on this machine (debootstrap, zstd, git).
"$ROOT/scripts/build/deps.sh" fresh

mirror=$(apt_mirror "$SUITE") || exit 1
proxy=$(apt_proxy)
[ -z "$proxy" ] || export http_proxy=${http_proxy:-$proxy}
mkdir -p "$FRESH"

# The base root, made once.
if [ ! -f "$BASE" ] || [ "${UT_FRESH_REBASE:-}" = 1 ]; then
	safe_rm "$FRESH/base.tmp"
	say "fresh-check: debootstrap --variant=minbase $SUITE from $mirror (cached as $BASE)"
	t0=$(date +%s)
	debootstrap --variant=minbase "$SUITE" "$FRESH/base.tmp" "$mirror" > "$FRESH/debootstrap.log" 2>&1 ||
		die "fresh-check: debootstrap failed (see $FRESH/debootstrap.log)"
	unmount_under "$FRESH/base.tmp"
	tar -C "$FRESH/base.tmp" --numeric-owner -I 'zstd -T0 -3' -cf "$BASE.tmp" . && mv "$BASE.tmp" "$BASE"
	safe_rm "$FRESH/base.tmp"
	say "fresh-check: base root made in $(($(date +%s) - t0)) s: $(du -h "$BASE" | cut -f1)"
fi

# A new copy of it.
safe_rm "$R"
mkdir -p "$R"
tar -C "$R" --numeric-owner -I zstd -xf "$BASE"

# This machine's network and package sources: resolv.conf, the APT source
# files (a fresh install has bookworm, -updates and -security; the root of
# debootstrap only the first) with the keyrings they name, and APT's proxy.
cp -L /etc/resolv.conf "$R/etc/resolv.conf"
rm -f "$R/etc/apt/sources.list"
mkdir -p "$R/etc/apt/sources.list.d" "$R/etc/apt/apt.conf.d"
while IFS= read -r f; do
	case $f in
	*.list|*.sources) cp "$f" "$R/etc/apt/sources.list.d/" ;;
	*) cp "$f" "$R/etc/apt/sources.list" ;;
	esac
	while IFS= read -r k; do
		[ -f "$k" ] && [ ! -e "$R$k" ] && mkdir -p "$R$(dirname "$k")" && cp "$k" "$R$k"
	done < <(grep -oiE 'signed-by[=:][[:space:]]*[^] [:space:]]+' "$f" | sed -E 's/^[^=:]*[=:][[:space:]]*//')
done < <(apt_sources)
[ -z "$proxy" ] || printf 'Acquire::http::Proxy "%s";\n' "$proxy" > "$R/etc/apt/apt.conf.d/01proxy"

# The repository: a clone of HEAD (what is committed), nothing beside it.
[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no)" ] ||
	say "fresh-check: warning: uncommitted changes are not in the clone"
head=$(git -C "$ROOT" rev-parse --short HEAD)
git clone -q "$ROOT" "$R/root/usertaint"
say "fresh-check: cloned $(git -C "$ROOT" rev-parse --abbrev-ref HEAD) at $head into $R/root/usertaint"

# in_root LOGNAME COMMAND: COMMAND in the root, in a mount namespace of its
# own, as root with an empty environment, in the clone; output to
# $LOGDIR/LOGNAME.log. Sets RC and SECS.
mkdir -p "$LOGDIR"
rm -f "$LOGDIR"/*.log
in_root() {
	local name=$1 cmd=$2 t0
	t0=$(date +%s)
	RC=0
	unshare -m --propagation private /bin/bash -c '
		set -e
		R=$1
		# the root a mount point, as / is on a machine: unshare -m
		# in it (taintctl journal_test.sh) makes / private, which
		# fails (EINVAL) where / is not a mount point
		mount --bind "$R" "$R"
		mount -t proc proc "$R/proc"
		mount -t sysfs sysfs "$R/sys"
		mount --bind /dev "$R/dev"
		mount --bind /dev/pts "$R/dev/pts"
		exec chroot "$R" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			/bin/bash -c "cd /root/usertaint && $2"' fresh-check "$R" "$cmd" \
		< /dev/null > "$LOGDIR/$name.log" 2>&1 || RC=$?
	SECS=$(($(date +%s) - t0))
}

summary=()
report() {	# report LABEL COMMAND SUMMARY-LINE
	summary+=("$(printf '%-44s exit %3s  %5d s  %s' "$2" "$RC" "$SECS" "$3")")
	say "fresh-check: $2: exit $RC in $SECS s: $3"
}
T0=$(date +%s)
say "fresh-check: the README's set-up (logs: $LOGDIR)"
in_root setup "apt-get update && apt-get install -y git make"
report setup "apt-get update && apt-get install -y git make" \
	"$(grep -E '^[0-9]+ upgraded, ' "$LOGDIR/setup.log" | tail -n 1)"
rc_all=$RC
if [ "$RC" = 0 ]; then
	say "fresh-check: make run (a cold kernel build; this takes a while)"
	in_root run "make run"
	report run "make run" "$(grep -E 'usertaint: (guest done|demo did not finish|error: )' "$LOGDIR/run.log" | tail -n 1)"
	[ "$RC" = 0 ] || rc_all=$RC
	say "fresh-check: .ci/run (cold: every kernel CI needs)"
	in_root ci "bash .ci/run"
	report ci "bash .ci/run" "$(tail -n 1 "$LOGDIR/ci.log")"
	[ "$RC" = 0 ] || rc_all=$RC
fi
echo "fresh-check: $SUITE root from $mirror, clone of $head, $(($(date +%s) - T0)) s in all:"
printf '  %s\n' "${summary[@]}"
grep '^ci: ' "$LOGDIR/ci.log" 2>/dev/null | sed 's/^/    /' || true
if [ "$rc_all" = 0 ] && [ "${UT_FRESH_KEEP:-}" != 1 ]; then
	kill_in_root "$R"
	safe_rm "$R"
else
	say "fresh-check: the root is kept in $R (logs in $LOGDIR)"
fi
exit "$rc_all"
