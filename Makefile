# SPDX-License-Identifier: GPL-2.0
# usertaint: accountable user-space taint for Linux.
#   make run     build the patched kernel + initramfs, boot it in QEMU, demo
#   make test    every test; ends with "N passed, N failed, N skipped"
# The other targets: docs/hacking.md; the tests: docs/testing.md.

SHELL := /bin/bash
S := scripts

.PHONY: all run shell test test-debug test-kcsan test-x2apic tree tree-reset export kernel initramfs \
	deps taintctl deb stock-scenarios bloat bloat-defconfig bench check-series \
	check-matrix check-matrix-ci fresh-check clean

all: run

deps:
	@$(S)/build/deps.sh all

run: deps
	@k=$$($(S)/build/kernel.sh) && i=$$($(S)/build/initramfs.sh) && \
	$(S)/boot/boot.sh -o -m demo -t 300 -c build/console-demo.log "$$k" "$$i" </dev/null | \
		sed -u -E 's/\r$$//'; \
	rc=$${PIPESTATUS[0]}; \
	grep -q 'usertaint: guest done' build/console-demo.log || { echo "usertaint: demo did not finish" >&2; exit 1; }; \
	exit $$rc

shell: deps
	@k=$$($(S)/build/kernel.sh) && i=$$($(S)/build/initramfs.sh) && \
	$(S)/boot/boot.sh -i -m shell -t 86400 -c build/console-shell.log "$$k" "$$i"

test:
	@$(S)/test/test.sh default

test-debug:
	@$(S)/test/test.sh debug

test-kcsan:
	@$(S)/test/test.sh kcsan

test-x2apic:
	@$(S)/test/test.sh x2apic

# The build robot's configs and architectures (docs/matrix.md); -ci: the
# entries .ci/run runs.
check-matrix: deps
	@$(S)/check/matrix.sh all

check-matrix-ci: deps
	@$(S)/check/matrix.sh ci

tree:
	@$(S)/build/deps.sh kernel && $(S)/build/tree.sh prepare

tree-reset:
	@$(S)/build/tree.sh reset

export:
	@$(S)/build/tree.sh export

kernel: deps
	@$(S)/build/kernel.sh

initramfs: deps
	@$(S)/build/initramfs.sh

# build dependencies only: the tests' (make test, scripts/build/deps.sh host) are
# not needed to build
taintctl:
	@$(S)/build/deps.sh taintctl-build && $(MAKE) -s -C taintctl

# taintctl's Debian packages (debian/): taintctl, libtaint1, libtaint-dev,
# built with their unit and CLI tests into build/deb/ and checked
# (lintian, contents, an unpacked run, the units); make test runs the same
# with DEB_BUILD_OPTIONS=nocheck (suite taintctl-deb)
deb:
	@$(S)/pkg/deb-test.sh

check-series: deps
	@$(S)/check/series.sh --build

# The README's set-up, make run and .ci/run in a fresh Debian root, timed
# (slow; not in CI): docs/testing.md.
fresh-check:
	@$(S)/check/fresh-check.sh

# Not part of make test (slow): docs/mutate.md.
.PHONY: mutate
mutate:
	@$(S)/mutate/mutate.sh

# Faults in libtaint and taintctl, caught by the host tests: docs/mutate.md.
.PHONY: mutate-lib
mutate-lib:
	@$(S)/mutate/mutate-lib.sh

bloat: deps
	@$(S)/check/bloat.sh on && $(S)/check/bloat.sh off

stock-scenarios: deps
	@$(S)/witness/stock-scenarios.sh

# crash, drgn and makedumpfile on kdump dumps of a stock and the patched
# kernel, both built with debug info (slow; not in make test): docs/dumps.md
.PHONY: kdump-witness
kdump-witness: deps
	@$(S)/witness/kdump-witness.sh

# taintctl deployed as users deploy it: a Debian bookworm guest with
# systemd, the .debs installed with apt, the units, journald,
# node_exporter, sysctl, kernel-chktaint and sos report; the stock kernel
# of the same config booted to compare (slow; not in make test): docs/e2e.md
.PHONY: e2e
e2e: deps
	@$(S)/e2e/e2e.sh

bloat-defconfig: deps
	@$(S)/check/bloat.sh defconfig

bench: deps
	@$(S)/check/bench.sh

clean:
	rm -rf build/kbuild-* build/initramfs build/logs build/selftests
	-$(MAKE) -s -C taintctl clean
