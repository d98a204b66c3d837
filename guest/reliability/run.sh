#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run one reliability test of the taint ABI inside the guest, TAP on stdout.
#   run.sh stress [WRITERS [REQUESTS]]   taint_stress (fresh boot, 4 vCPUs)
#   run.sh fuzz [SEED [COUNT]]           taint_fuzz (fresh boot)
#   run.sh forgery                       taint_forgery (fresh boot, first)
#   run.sh perm                          taint_perm (after forgery is fine)
#   run.sh forgery+perm                  both, as one TAP stream each
# Binaries are looked up in $UT_RELBIN, then /usr/bin, then next to run.sh.
# Exit status: the test's (0 = all ok).
bindir=${UT_RELBIN:-}
for d in $bindir /usr/bin "$(dirname "$0")"; do
	if [ -x "$d/taint_stress" ]; then bindir=$d; break; fi
done
t=$1
[ $# -gt 0 ] && shift
case "$t" in
stress)
	exec "$bindir/taint_stress" ${1:+-w "$1"} ${2:+-n "$2"} ;;
fuzz)
	seed=${1:-$(( $(date +%s) % 1000000 ))}
	exec "$bindir/taint_fuzz" "$seed" ${2:+"$2"} ;;
forgery)
	exec "$bindir/taint_forgery" ;;
perm)
	exec "$bindir/taint_perm" -H "$bindir/taint_suid_helper" ;;
forgery+perm)
	rc=0
	"$bindir/taint_forgery" || rc=1
	"$bindir/taint_perm" -H "$bindir/taint_suid_helper" || rc=1
	exit $rc ;;
*)
	echo "usage: run.sh stress|fuzz|forgery|perm|forgery+perm [ARGS]" >&2
	echo "1..0 # SKIP unknown test '$t'"
	exit 2 ;;
esac
