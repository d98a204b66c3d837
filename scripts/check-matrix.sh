#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series on the configs and architectures a kernel build robot tries.
#
#   check-matrix.sh [all|ci|NAME...]   (default: all)
#
# Runs each entry of the table below, one after the other, and prints one
# line per entry:   ok|FAIL  NAME  SECONDS s  [first error]
# then "check-matrix: N passed, N failed". Exit status 1 if any failed.
# "ci" runs the entries marked ci (what .ci/run runs); NAME... runs those.
# Each entry's whole output: build/logs/matrix/NAME.log. Each config builds
# in its own directory (build/kbuild-matrix/NAME, or the variant's own),
# incrementally, through the shared ccache.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# name            ci  what it runs (a function below and its arguments)
TABLE="
no-taint-log      ci  tiny   CONFIG_TAINT_LOG=n
no-sysctl         ci  tiny   CONFIG_PROC_SYSCTL=n
no-printk         ci  tiny   CONFIG_PRINTK=n
no-kallsyms       -   tiny   CONFIG_KALLSYMS=n
no-smp            -   tiny   CONFIG_SMP=n
no-modules        -   tiny   CONFIG_MODULES=n
modules           -   default CONFIG_MODULES=y
allnoconfig       -   base   allnoconfig
defconfig         -   base   x86_64_defconfig
debian-objects    -   objects debian
clang-objects     -   objects clang
i386              -   arch   i386
arm64             -   arch   arm64
kcsan             -   kcsan  -
"

LOGS=$BUILD/logs/matrix
mkdir -p "$LOGS"

# has_config OBJDIR SYM=VAL: the built .config says so (=n: not set).
has_config() {
	local sym=${2%%=*} val=${2#*=}
	if [ "$val" = n ]; then
		! grep -q "^$sym=" "$1/.config"
	else
		grep -qx "$2" "$1/.config"
	fi
}

# The C files the series touches, outside tools/ (as scripts/check-objects.sh).
touched_c() { git -C "$KSRC" diff --name-only pristine..HEAD -- '*.c' | grep -v '^tools/'; }

# build VARIANT [VAR=VALUE...]: scripts/build-kernel.sh VARIANT with those
# variables. The objects of the touched files are deleted first, so that an
# incremental run compiles them again and prints their warnings too; a
# compiler warning in one of them fails the entry, as a build robot reports
# it (the build's output is the entry's log, $log).
build() {
	local v=$1 f files w
	shift
	mapfile -t files < <(touched_c)
	for f in "${files[@]}"; do rm -f "$(kobj "$v")/${f%.c}.o"; done
	env "$@" "$ROOT/scripts/build-kernel.sh" "$v" >/dev/null || return 1
	w=$(printf '%s\n' "${files[@]}" | sed 's/[.]/[.]/g' | paste -sd'|')
	w=$(grep -m1 -E "(^|/)($w):[0-9]+(:[0-9]+)?: warning:" "$log") || return 0
	echo "new warning in a file the series touches: ${w##*/../}"
	return 1
}

# tiny SYM=VAL: tinyconfig + configs/usertaint.config + configs/matrix/NAME.config.
# The fragment's own line must hold in the result; lines of usertaint.config
# that depend on what it turns off may drop (UT_LAX_CONFIG).
run_tiny() {
	build "matrix/$name" UT_LAX_CONFIG=1 || return 1
	has_config "$(kobj "matrix/$name")" "$1" ||
		{ echo "error: $1 did not stick in $(kobj "matrix/$name")/.config"; return 1; }
}

# default SYM=VAL: the test kernel itself (make test builds it too).
run_default() {
	build default || return 1
	has_config "$(kobj default)" "$1" || { echo "error: the test kernel lacks $1"; return 1; }
}

# base CONFIG: another base config, with the series' log on (TAINT_LOG=y).
# x86_64_defconfig shares its build with scripts/bloat.sh defconfig.
run_base() {
	local v=matrix/$name
	[ "$1" = x86_64_defconfig ] && v=bloat-defconfig
	build "$v" "UT_BASE=$1" || return 1
	has_config "$(kobj "$v")" CONFIG_TAINT_LOG=y ||
		{ echo "error: CONFIG_TAINT_LOG=y not in $1"; return 1; }
}

run_objects() { "$ROOT/scripts/check-objects.sh" "$1"; }
run_arch() { "$ROOT/scripts/arch-test.sh" "$1"; }

# kcsan: the stress test on the KCSAN kernel; test.sh fails on any KCSAN
# report on the console.
run_kcsan() { UT_ONLY=reliability-stress "$ROOT/scripts/test.sh" kcsan; }

sel=("$@")
[ ${#sel[@]} -gt 0 ] || sel=(all)
declare -A known=()
while read -r n _ _ _; do [ -n "$n" ] && known[$n]=1; done <<< "$TABLE"
for s in "${sel[@]}"; do
	case $s in all|ci) ;; *) [ -n "${known[$s]:-}" ] || die "check-matrix: no entry '$s'" ;; esac
done

PASS=0 FAIL=0
T0=$(date +%s)
while read -r name ci kind arg; do
	[ -n "$name" ] || continue
	want=0
	for s in "${sel[@]}"; do
		{ [ "$s" = all ] || { [ "$s" = ci ] && [ "$ci" = ci ]; } || [ "$s" = "$name" ]; } && want=1
	done
	[ $want = 1 ] || continue
	log=$LOGS/$name.log
	t=$(date +%s)
	"run_$kind" "$arg" > "$log" 2>&1 < /dev/null
	rc=$?
	secs=$(( $(date +%s) - t ))
	if [ $rc = 0 ]; then
		PASS=$((PASS + 1))
		printf 'ok    %-16s %5d s\n' "$name" "$secs"
	else
		FAIL=$((FAIL + 1))
		err=$(grep -m1 -E 'error:|Error [0-9]|undefined reference|^not ok|FAIL|new warning' "$log" ||
		      tail -n 1 "$log")
		printf 'FAIL  %-16s %5d s  %s (%s)\n' "$name" "$secs" "${err:0:160}" "${log#"$ROOT"/}"
	fi
done <<< "$TABLE"
echo "check-matrix: $PASS passed, $FAIL failed ($(( $(date +%s) - T0 )) s)"
[ $FAIL = 0 ]
