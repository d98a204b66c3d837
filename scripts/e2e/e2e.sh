#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make e2e: taintctl deployed as users deploy it. A Debian
# bookworm guest with systemd as init, booted under QEMU with the patched
# kernel, installs taintctl's .debs with apt, runs the shipped units, and
# checks the journal, node_exporter, sysctl, kernel-chktaint and sos
# report against the live files; the host then reads the sosreport with
# taintctl --root. The same image booted with the stock kernel of the
# same config gives the failed units to compare with. Not part of make
# test (a debootstrap and two kernel builds cold); figures in docs/e2e.md.
#
#   1. the packages: scripts/pkg/deb-test.sh --nocheck (built and checked)
#   2. the root: debootstrap --variant=minbase bookworm with systemd,
#      udev, dbus, procps, kmod, prometheus-node-exporter, jq, curl,
#      sosreport and taintctl's runtime libraries, from the mirror of the
#      machine's APT configuration; cached as build/e2e/base-KEY.tar.zst
#      (KEY: the package list). Each run unpacks it, adds the .debs, the
#      guest's test (guest/e2e/) and its unit, and makes an ext4 image
#      with mke2fs -d (no loop mount).
#   3. the kernels: the e2e variant (configs/usertaint.config +
#      configs/e2e.config), patched and stock, and the test module
#      against the patched one (written into the image with debugfs)
#   4. two boots of copies of the image: stock (boot state and failed
#      units only) and patched (everything); TAP on the guest's ttyS1.
#   5. on the host: the guest's files (debugfs rdump, no mount), the
#      failed units compared, the sosreport read with taintctl --root.
#
# Prints PASS/FAIL lines and "N passed, N failed, N skipped"; logs and
# figures in build/e2e/logs. Needs root (debootstrap, mke2fs -d keeps
# owners). UT_E2E_REBASE=1 makes the base again; UT_E2E_TIMEOUT (s, per
# boot, default 900); UT_E2E_PREPARE=1 stops once the image is made;
# UT_E2E_KEEP_DEBS=1 takes the .debs already in build/deb (a developer's
# shortcut: the result then says nothing of the packages' build).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"
LOGS=$BUILD/e2e/logs
# shellcheck source=scripts/test/count.sh
. "$ROOT/scripts/test/count.sh"

[ "$(id -u)" -eq 0 ] || die "e2e: needs root (debootstrap; mke2fs -d keeps owners)"
E=$BUILD/e2e
SUITE=bookworm
TMO=${UT_E2E_TIMEOUT:-900}
mkdir -p "$E" "$LOGS"
rm -f "$LOGS"/*
"$ROOT/scripts/build/deps.sh" e2e >&2
T0=$(date +%s)
secs() { echo $(( $(date +%s) - $1 )); }
figures=()
figure() { figures+=("$*"); say "e2e: $*"; }

# --- 1. the packages -----------------------------------------------------
t=$(date +%s)
if [ "${UT_E2E_KEEP_DEBS:-}" = 1 ]; then
	say "e2e: UT_E2E_KEEP_DEBS=1: the .debs already in $BUILD/deb"
else
	rc=0
	"$ROOT/scripts/pkg/deb-test.sh" --nocheck > "$LOGS/deb.tap" 2> "$LOGS/deb.err" || rc=$?
	check "e2e: the .debs are built and pass deb-test.sh ($(grep -c '^ok' "$LOGS/deb.tap") ok)" \
		"exit $rc; $(grep '^not ok' "$LOGS/deb.tap" | sed -n '1,5p'; tail -5 "$LOGS/deb.err")" test $rc = 0
fi
debs=()
for p in taintctl libtaint1 libtaint-dev; do
	f=$(ls "$BUILD"/deb/"${p}"_*.deb 2>/dev/null | tail -n 1) || true
	[ -n "$f" ] || die "e2e: no $p .deb in $BUILD/deb"
	debs+=("$f")
done
figure "packages built and checked in $(secs "$t") s"

# --- 2. the root -----------------------------------------------------------
# taintctl's runtime libraries are those its .debs depend on, read from
# the packages (so apt install ./*.deb in the guest needs no network)
runtime=$(for f in "${debs[@]}"; do dpkg-deb -f "$f" Depends; done | tr ',' '\n' |
	sed -e 's/[(|].*//' -e 's/ //g' | grep -vE '^$|^(taintctl|libtaint1|libtaint-dev)$' | sort -u | tr '\n' ' ')
pkgs="systemd systemd-sysv udev dbus procps kmod prometheus-node-exporter jq curl
	sosreport xz-utils $runtime"
pkgs=$(printf '%s\n' $pkgs | sort -u | tr '\n' ',')
pkgs=${pkgs%,}
key=$(printf '%s %s\n' "$SUITE" "$pkgs" | sha256sum | cut -c1-12)
base=$E/base-$key.tar.zst
if [ ! -f "$base" ] || [ "${UT_E2E_REBASE:-}" = 1 ]; then
	t=$(date +%s)
	mirror=$(apt_mirror "$SUITE")
	proxy=$(apt_proxy)
	[ -z "$proxy" ] || export http_proxy=${http_proxy:-$proxy}
	rm -rf --one-file-system "$E/base.tmp"
	say "e2e: debootstrap --variant=minbase $SUITE from $mirror with $pkgs"
	debootstrap --variant=minbase --include="$pkgs" "$SUITE" "$E/base.tmp" "$mirror" \
		> "$LOGS/debootstrap.log" 2>&1 || die "e2e: debootstrap failed (see $LOGS/debootstrap.log)"
	[ -z "$(awk -v d="$(realpath "$E/base.tmp")" 'index($5, d) == 1' /proc/self/mountinfo)" ] ||
		die "e2e: debootstrap left mounts under $E/base.tmp"
	rm -f "$E"/base-*.tar.zst
	tar -C "$E/base.tmp" --numeric-owner -I 'zstd -T0 -3' -cf "$base.tmp" . && mv "$base.tmp" "$base"
	rm -rf --one-file-system "$E/base.tmp"
	figure "base root made in $(secs "$t") s: $(du -h "$base" | cut -f1) ($(tr ',' ' ' <<< "$pkgs" | wc -w) packages asked for)"
fi

t=$(date +%s)
R=$E/root
rm -rf --one-file-system "$R"
mkdir -p "$R"
tar -C "$R" --numeric-owner -I zstd -xf "$base"
echo e2e > "$R/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\te2e\n' > "$R/etc/hosts"
printf '/dev/vda\t/\text4\trw,relatime\t0\t0\n' > "$R/etc/fstab"
G=$R/usr/local/lib/usertaint
mkdir -p "$G" "$R/root/debs" "$R/var/tmp/e2e"
cp "${debs[@]}" "$R/root/debs/"
cp "$ROOT/guest/e2e/guest.sh" "$ROOT/taintctl/tests/tap.sh" "$G/"
cp "$KSRC/tools/debugging/kernel-chktaint" "$G/"
cp "$ROOT/guest/e2e/usertaint-e2e.service" "$R/etc/systemd/system/"
ln -sf /etc/systemd/system/usertaint-e2e.service "$R/etc/systemd/system/multi-user.target.wants/usertaint-e2e.service"
img=$E/root.img
rm -f "$img"
truncate -s 3G "$img"
mke2fs -q -F -t ext4 -L e2e -d "$R" "$img" > "$LOGS/mke2fs.log" 2>&1 ||
	die "e2e: mke2fs -d failed (see $LOGS/mke2fs.log)"
figure "image made in $(secs "$t") s: $(du -h --apparent-size "$img" | cut -f1) sparse, $(du -h "$img" | cut -f1) used"

# UT_E2E_PREPARE=1: stop here (the image, to look into or boot by hand)
[ "${UT_E2E_PREPARE:-}" != 1 ] || { say "e2e: image ready: $img"; exit 0; }

# --- 3. the kernels --------------------------------------------------------
t=$(date +%s)
kernel=$("$ROOT/scripts/build/kernel.sh" e2e)
module=$("$ROOT/scripts/build/module.sh" e2e)
# the test module goes into the image (debugfs: no mount)
debugfs -w -R "write $module/ut_taint.ko /usr/local/lib/usertaint/ut_taint.ko" "$img" > "$LOGS/debugfs-write.log" 2>&1
st=$(debugfs -R "stat /usr/local/lib/usertaint/ut_taint.ko" "$img" 2>/dev/null) || st=
[[ $st == *"Size: "[1-9]* ]] ||
	die "e2e: could not write ut_taint.ko into $img (see $LOGS/debugfs-write.log)"
stock=$(stock_tree)
skernel=$(UT_KSRC=$stock UT_LAX_CONFIG=1 UT_VARIANT_DIR=e2e-stock "$ROOT/scripts/build/kernel.sh" e2e)
figure "kernels (patched, stock) and module ready in $(secs "$t") s"

# --- 4. the boots ------------------------------------------------------------
# boot NAME KERNEL MODE: a copy of the image, QEMU until the guest powers
# off (or TMO); console in $LOGS/NAME.console, TAP in $LOGS/NAME.tap; the
# guest's /var/tmp/e2e in $E/out-NAME
boot() {
	local name=$1 k=$2 mode=$3 disk=$E/$1.img rc=0 t
	cp --sparse=always "$img" "$disk"
	t=$(date +%s)
	timeout -k 5 "$TMO" qemu-system-x86_64 -accel tcg -cpu max,la57=off -smp 2 -m "${UT_MEM:-2048}" \
		-no-reboot -display none -monitor none -nodefaults \
		-kernel "$k" -drive "file=$disk,format=raw,if=virtio" \
		-append "root=/dev/vda rw console=ttyS0 panic=-1 loglevel=6 usertaint.e2e=$mode" \
		-serial file:"$LOGS/$name.console" -serial file:"$LOGS/$name.tap.raw" \
		< /dev/null > "$LOGS/$name.qemu" 2>&1 || rc=$?
	tr -d '\r' < "$LOGS/$name.tap.raw" > "$LOGS/$name.tap"
	figure "$name boot: QEMU exit $rc after $(secs "$t") s; $(grep -m1 -o 'Startup finished in .*' "$LOGS/$name.tap" || echo 'no startup figure')"
	rm -rf "$E/out-$name" "$E/out-$name.tmp"
	mkdir -p "$E/out-$name.tmp"
	debugfs -R "rdump /var/tmp/e2e $E/out-$name.tmp" "$disk" > "$LOGS/$name.debugfs" 2>&1 || true
	mv "$E/out-$name.tmp/e2e" "$E/out-$name" 2>/dev/null || mkdir -p "$E/out-$name"
	rm -rf "$E/out-$name.tmp"
	rm -f "$disk"
	BOOT_RC=$rc
}

boot stock "$skernel" stock
check "e2e: stock: the guest powered off within ${TMO} s" "QEMU exit $BOOT_RC; $(tail -5 "$LOGS/stock.console")" test "$BOOT_RC" = 0
tap_count e2e-stock "$LOGS/stock.tap"
boot patched "$kernel" full
check "e2e: patched: the guest powered off within ${TMO} s" "QEMU exit $BOOT_RC; $(tail -5 "$LOGS/patched.console")" test "$BOOT_RC" = 0
tap_count e2e-patched "$LOGS/patched.tap"

# --- 5. on the host ------------------------------------------------------------
. "$ROOT/guest/e2e/host.sh"
e2e_host_checks

echo "e2e: $(secs "$T0") s in all:"
printf '  %s\n' "${figures[@]}"
count_summary
