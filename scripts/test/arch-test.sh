#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guest suite on another architecture: i386 (a 32-bit
# kernel) or arm64 (weakly ordered; qemu-system-aarch64 -M virt -cpu max).
# Builds that architecture's kernel (tinyconfig + configs/usertaint.config +
# configs/ARCH.config, in build/kbuild-ARCH) and initramfs
# (build/initramfs-ARCH: Debian's static busybox for ARCH, the kselftests
# and the reliability tests cross-built static), and runs, through
# scripts/test/test.sh (variant ARCH, UT_ARCH=ARCH), in QEMU (TCG):
#   kunit               the KUnit suite taint_log (kunit.enable=1), and
#                       exactly the three WARNINGs of its bounds checks
#   test                sysctl-cli and the kselftests twice on one boot;
#                       taintctl-guest is skipped (taintctl is not cross-built)
#   reliability-stress  taint_stress, 4 writers x 10,000 requests, 6 readers,
#                       4 vCPUs; without the ut_taint module (x86_64 only), so
#                       its two hard-IRQ/NMI results are skips
# and checks every console for kernel reports no test asked for.
# Ends with "ARCH: N passed, N failed, N skipped"; exits non-zero on any
# failure, a guest that hangs (killed at its timeout) or such a report.
#
# Usage: arch-test.sh i386|arm64
# UT_ONLY narrows the suites further (scripts/test/test.sh); logs: build/logs/ARCH/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"

arch=${1:-}
case $arch in
i386|arm64) ;;
*) die "usage: arch-test.sh i386|arm64" ;;
esac
"$ROOT/scripts/build/deps.sh" arch
export UT_ARCH=$arch
# The suites of scripts/test/suites that run on these architectures: not the
# scenario boots, the other reliability boots (forgery, fuzzer: the same
# code paths as x86_64; NMI recording: ut_taint) or the host tests.
export UT_ONLY=${UT_ONLY:-kunit test reliability-stress}
mkdir -p "$BUILD/logs"
out=$BUILD/logs/arch-test-$arch.log
start=$(date +%s)
rc=0
"$ROOT/scripts/test/test.sh" "$arch" | tee "$out" || rc=$?
if ! summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$out" | tail -n 1); then
	summary="no summary from scripts/test/test.sh (exit $rc)"
	rc=1
fi
say "$arch: $(( $(date +%s) - start )) s in all; log $out, logs in $BUILD/logs/$arch"
echo "$arch: $summary"
exit $rc
