#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# rules_test.sh - contrib/prometheus/taint.rules.yml checked by promtool on
# series that `taintctl metrics` printed (tests/rules_input.py: fake --root
# trees, one a node and state, a sample a minute): TAP on stdout.
#   promtool check rules; promtool test rules on five nodes (clean then an
#   oops and a user taint, tainted at boot, a reboot that clears its taint,
#   allowed flags only, a stock kernel), the expected alerts written by
#   hand; then the same test must fail on rules broken three ways (O
#   denied too, no "unknown" origin fallback, no origin copied): the test
#   can tell.
# Never touches /proc or /sys.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TAINTCTL=${TAINTCTL:-$HERE/../build/taintctl}
RULES=${RULES:-$HERE/../contrib/prometheus/taint.rules.yml}
. "$HERE/tap.sh"
tap_need promtool:prometheus python3:python3
tap_init rules
TAP_LOG=$T/log
tap_diag() { [ -s "$T/log" ] && sed 's/^/# /' "$T/log" | tail -12; }

t "promtool check rules: $(basename "$RULES")" promtool check rules "$RULES"
mkdir "$T/trees"
t "rules_input.py: the input series from taintctl metrics of 5 nodes' trees" sh -c "
	python3 '$HERE/rules_input.py' '$TAINTCTL' '$T/trees' '$RULES' > '$T/test.yml'"
t "the input: 5 instances, the reboot's stale markers, a stock kernel without first-set series" sh -c "
	[ \$(grep -o 'instance=\"[a-z-]*\"' '$T/test.yml' | sort -u | wc -l) -eq 5 ] &&
	grep -q 'instance=\"reboots\".*' '$T/test.yml' && grep -q ' stale ' '$T/test.yml' &&
	! grep -q 'first_set.*instance=\"stock\"' '$T/test.yml'"
t "promtool test rules: the expected KernelTaintDeniedFlag alerts at 8 times, the denied set recorded" \
	promtool test rules "$T/test.yml"

# mutant NAME SED: the rules edited by SED must fail the same test
mutant() {
	sed "$2" "$RULES" > "$T/mutant.yml"
	if cmp -s "$RULES" "$T/mutant.yml"; then
		not_ok "a broken rule file fails the test: $1 (the edit changed nothing)"
		return
	fi
	sed "s|^rule_files: .*|rule_files: [$T/mutant.yml]|" "$T/test.yml" > "$T/mutant-test.yml"
	t "a broken rule file fails the test: $1" sh -c "
		promtool check rules '$T/mutant.yml' && ! promtool test rules '$T/mutant-test.yml'"
}
mutant "O (allowed) added to the denied flags" 's/flag=~"D|W|/flag=~"O|D|W|/'
mutant "no origin=\"unknown\" fallback (stock kernels, utc=- events)" '/or ignoring(origin)/,/label_replace/d'
mutant "origin not copied into the alert" 's/group_left(origin)/group_left()/'
tap_done
