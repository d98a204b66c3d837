#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series on the configs and architectures a kernel build robot tries.
#
#   matrix.sh [all|ci|NAME...]   (default: all)
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
. "$(dirname "$0")/../lib.sh"

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
kunit-module      -   kunit_module -
randstruct        -   randstruct -
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

# The C files the series touches, outside tools/ (as scripts/check/objects.sh).
touched_c() { git -C "$KSRC" diff --name-only pristine..HEAD -- '*.c' | grep -v '^tools/'; }

# build VARIANT [VAR=VALUE...]: scripts/build/kernel.sh VARIANT with those
# variables. The objects of the touched files are deleted first, so that an
# incremental run compiles them again and prints their warnings too; a
# compiler warning in one of them fails the entry, as a build robot reports
# it (the build's output is the entry's log, $log).
build() {
	local v=$1 f files w
	shift
	mapfile -t files < <(touched_c)
	for f in "${files[@]}"; do rm -f "$(kobj "$v")/${f%.c}.o"; done
	env "$@" "$ROOT/scripts/build/kernel.sh" "$v" >/dev/null || return 1
	w=$(printf '%s\n' "${files[@]}" | sed 's/[.]/[.]/g' | paste -sd'|')
	w=$(grep -m1 -E "(^|/)($w):[0-9]+(:[0-9]+)?: warning:" "$log") || return 0
	echo "new warning in a file the series touches: ${w##*/../}"
	return 1
}

# tiny SYM=VAL: tinyconfig + configs/usertaint.config + configs/matrix/NAME.config.
# The fragment's own line must hold in the result; lines of usertaint.config
# that depend on what it turns off may drop (UT_LAX_CONFIG). Its first
# build starts from a copy of the test kernel's, when that is built
# (UT_FROM_BUILD, scripts/build/kernel.sh): only what the config changes is
# compiled again.
run_tiny() {
	build "matrix/$name" UT_LAX_CONFIG=1 UT_FROM_BUILD=default || return 1
	has_config "$(kobj "matrix/$name")" "$1" ||
		{ echo "error: $1 did not stick in $(kobj "matrix/$name")/.config"; return 1; }
}

# default SYM=VAL: the test kernel itself (make test builds it too).
run_default() {
	build default || return 1
	has_config "$(kobj default)" "$1" || { echo "error: the test kernel lacks $1"; return 1; }
}

# base CONFIG: another base config, with the series' log on (TAINT_LOG=y).
# x86_64_defconfig shares its build with scripts/check/bloat.sh defconfig.
run_base() {
	local v=matrix/$name
	[ "$1" = x86_64_defconfig ] && v=bloat-defconfig
	build "$v" "UT_BASE=$1" || return 1
	has_config "$(kobj "$v")" CONFIG_TAINT_LOG=y ||
		{ echo "error: CONFIG_TAINT_LOG=y not in $1"; return 1; }
}

run_objects() { "$ROOT/scripts/check/objects.sh" "$1"; }
run_arch() { "$ROOT/scripts/test/arch-test.sh" "$1"; }

# kcsan: the stress test on the KCSAN kernel; test.sh fails on any KCSAN
# report on the console.
run_kcsan() { UT_ONLY=reliability-stress "$ROOT/scripts/test/test.sh" kcsan; }

# ktap_cases KTAP: the names of the KUnit cases in it (the lines
# "    ok N name" and "    not ok N name" of a suite), in order.
ktap_cases() { sed -nE 's/^    (not )?ok [0-9]+ ([^ ]+).*/\2/p' "$1"; }

# kunit_module: the series' KUnit test built as a module
# (configs/matrix/kunit-module.config, CONFIG_TAINT_LOG_KUNIT_TEST=m): it
# must link (modpost: what it calls is exported to KUnit tests), load in
# the guest on the KUnit boot (scripts/test/test.sh, suite kunit-module), pass,
# warn only the three bounds-check WARNINGs, and run the cases the
# built-in KUnit boot of the test kernel runs (make test's suite kunit,
# booted again here), less those only a built-in test has: the KUNIT_CASE
# lines under "#if IS_BUILTIN(CONFIG_TAINT_LOG_KUNIT_TEST)" in
# kernel/taint_log_kunit.c.
run_kunit_module() {
	local v=matrix/kunit-module rc=0 got want only c n=0
	local mlog=$BUILD/logs/matrix/kunit-module/kunit-module.ktap blog=$LOGS/kunit-builtin
	build "$v" || return 1
	has_config "$(kobj "$v")" CONFIG_TAINT_LOG_KUNIT_TEST=m ||
		{ echo "error: CONFIG_TAINT_LOG_KUNIT_TEST=m did not stick"; return 1; }
	echo "== the KUnit test as a module ($v)"
	UT_ONLY=kunit-module "$ROOT/scripts/test/test.sh" "$v" || rc=1
	echo "== the built-in KUnit boot of the test kernel (logs: $blog)"
	UT_ONLY=kunit UT_LOGS=$blog "$ROOT/scripts/test/test.sh" default || rc=1
	only=$(awk '/^#if .*IS_BUILTIN\(CONFIG_TAINT_LOG_KUNIT_TEST\)/ { d = 1; next }
		d && /^#if/ { d++ } d && /^#endif/ { d--; next }
		d && match($0, /KUNIT_CASE(_SLOW)?\([a-z0-9_]+/) {
			c = substr($0, RSTART, RLENGTH); sub(/.*\(/, "", c); print c }' \
		"$KSRC/kernel/taint_log_kunit.c")
	[ -n "$only" ] || { echo "error: no built-in-only KUNIT_CASE found in kernel/taint_log_kunit.c"; return 1; }
	for c in $only; do
		grep -qx "$c" <<< "$(ktap_cases "$blog/kunit.ktap")" ||
			{ echo "error: the built-in-only case $c did not run on the built-in boot"; rc=1; }
	done
	got=$(ktap_cases "$mlog" 2>/dev/null)
	want=$(ktap_cases "$blog/kunit.ktap" 2>/dev/null | grep -vxF "$only")
	if [ -n "$got" ] && [ "$got" = "$want" ]; then
		n=$(printf '%s\n' "$got" | wc -l)
		echo "kunit-module: the module ran the built-in boot's cases ($(ktap_cases "$blog/kunit.ktap" | wc -l)) less the built-in-only ${only//$'\n'/ }: $n"
	else
		echo "error: the module's KUnit cases are not the built-in boot's less the built-in-only (${only//$'\n'/ }):"
		diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | sed -n 's/^[<>]/  &/p'
		rc=1
	fi
	return $rc
}

# randstruct: the test kernel with CONFIG_RANDSTRUCT_FULL=y (GCC plugin,
# configs/matrix/randstruct.config), booted with the KUnit suite and the
# test boot (the kselftests twice). Its taint mask starts with T set,
# without add_taint(): the series must give T its first event at boot,
# "origin=kernel flags=T new=T" (the test boot's suite boot-taint prints
# the log as it was at boot), and the kselftest
# first_set_of_every_flag_is_kept must pass on that boot.
run_randstruct() {
	local v=matrix/randstruct rc=0 sym logs=$BUILD/logs/matrix/randstruct
	"$ROOT/scripts/build/deps.sh" plugins || return 1
	build "$v" || return 1
	for sym in CONFIG_GCC_PLUGINS=y CONFIG_RANDSTRUCT_FULL=y CONFIG_GCC_PLUGIN_RANDSTRUCT=y; do
		has_config "$(kobj "$v")" "$sym" || { echo "error: $sym did not stick"; return 1; }
	done
	UT_ONLY='kunit test' "$ROOT/scripts/test/test.sh" "$v" || rc=1
	if grep -qE '^# .* origin=kernel flags=T new=T( |$)' "$logs/boot-taint.tap" 2>/dev/null; then
		echo "randstruct: taint_log at boot: $(grep -m1 -E 'origin=kernel flags=T new=T( |$)' "$logs/boot-taint.tap")"
	else
		echo "error: no 'origin=kernel flags=T new=T' line in the taint log at boot ($logs/boot-taint.tap)"
		rc=1
	fi
	# The first run comes in two parts (guest/test.sh): kselftest-taint_test.tap
	# and kselftest-taint_test.2.tap; the case is in one of them.
	grep -qE '^ok [0-9]+ taint_log[.]first_set_of_every_flag_is_kept$' "$logs"/kselftest-taint_test.tap "$logs"/kselftest-taint_test.[0-9].tap 2>/dev/null ||
		{ echo "error: the kselftest first_set_of_every_flag_is_kept did not pass ($logs/kselftest-taint_test*.tap)"; rc=1; }
	return $rc
}

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
		# modpost's ERROR first: the build's "error: kernel build
		# failed" can reach the log before make's own output.
		err=$(grep -m1 'ERROR: modpost' "$log" ||
		      grep -m1 -E 'error:|Error [0-9]|undefined reference|^not ok|FAIL|new warning' "$log" ||
		      tail -n 1 "$log")
		printf 'FAIL  %-16s %5d s  %s (%s)\n' "$name" "$secs" "${err:0:160}" "${log#"$ROOT"/}"
	fi
done <<< "$TABLE"
echo "check-matrix: $PASS passed, $FAIL failed ($(( $(date +%s) - T0 )) s)"
[ $FAIL = 0 ]
