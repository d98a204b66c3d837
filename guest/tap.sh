# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest's shell checks: TAP results, one line each.
n=0 fails=0
ok() {	# ok DESCRIPTION COMMAND...: "ok N DESCRIPTION" if COMMAND succeeds
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc"
		fails=$((fails + 1))
	fi
}
has() { printf '%s' "$1" | grep -qE -- "$2"; }	# has TEXT ERE
