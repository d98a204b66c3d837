#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the scenario checks against a stock kernel: Debian's linux-source-6.12
# without the series, built with the configuration of the test kernel
# (tinyconfig + configs/usertaint.config + configs/bloat.config, i.e.
# without KUnit; the series' own symbols do not exist there). A check that passes here cannot tell the series from stock:
# guest/scenarios/*.sh label such checks "sanity", and every scenario must
# also carry a check that only the patched kernel passes. The scenario
# suites are expected to fail here; this prints which checks pass, and
# writes the list to docs/stock-scenarios.txt.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

"$ROOT/scripts/build/tree.sh" prepare >&2
stock=$(stock_tree)
# The stock side of make bloat (configs/bloat.config on top: no KUnit,
# which no scenario uses), so that one build serves both.
kernel=$(UT_KSRC=$stock UT_LAX_CONFIG=1 UT_VARIANT_DIR=bloat-stock "$ROOT/scripts/build/kernel.sh" bloat)
initrd=$("$ROOT/scripts/build/initramfs.sh" default)
# scenario-kdump boots a kernel that can take a dump, its own kdump
# variant: here the stock tree's, which it loads as its crash kernel.
kkernel=$(UT_KSRC=$stock UT_LAX_CONFIG=1 UT_VARIANT_DIR=kdump-stock "$ROOT/scripts/build/kernel.sh" kdump)
"$ROOT/scripts/build/kernel.sh" kdump > /dev/null	# the initramfs's module and config
kinitrd=$(UT_KDUMP_IMAGE=$kkernel "$ROOT/scripts/build/initramfs.sh" kdump)
logs=$BUILD/logs/stock
UT_ONLY='scenario-*' UT_KERNEL=$kernel UT_INITRD=$initrd UT_LOGS=$logs \
	UT_KDUMP_KERNEL=$kkernel UT_KDUMP_INITRD=$kinitrd \
	"$ROOT/scripts/test/test.sh" default > "$logs.out" 2>&1 || true
out=$ROOT/docs/stock-scenarios.txt
{
	echo "# Scenario checks on a stock 6.12 kernel (no series), same config."
	echo "# Made by scripts/witness/stock-scenarios.sh (make stock-scenarios)."
	echo "# $(grep -c '^PASS scenario' "$logs.out") checks pass on stock, $(grep -c '^FAIL scenario' "$logs.out") fail."
	echo "# Every check that passes here is labelled \"sanity\" in guest/scenarios/*.sh."
	# PASS lines whole; FAIL lines without the detail after the name.
	grep -E '^(PASS|FAIL) scenario' "$logs.out" | cut -c1-160
} | tee "$out"
# A check that passes on stock but is not labelled sanity (or the other
# way round) is a labelling error.
bad=$(grep '^PASS scenario' "$out" | grep -v -e 'sanity' -e 'no unexpected kernel reports' || true)
[ -z "$bad" ] || { say "passes on stock but not labelled sanity:"; echo "$bad" >&2; exit 1; }
