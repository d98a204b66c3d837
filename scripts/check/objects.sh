#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Does the series add compiler, kernel-doc, objtool or sparse warnings on
# the objects it touches? Builds the C files that pristine..HEAD changes in
# build/linux (tools/ left out) with W=1 C=1, in the patched tree and in the
# stock tree (lib.sh stock_tree), with Debian's own amd64 kernel config, and
# counts the warnings the patched build has and the stock build has not.
#
#   objects.sh debian   gcc (CC="ccache gcc"), sparse
#   objects.sh clang    the same with LLVM=1 (CC="ccache clang")
#
# Warnings are compared as a multiset of "file: warning: text" (no line or
# column numbers, no build paths, no objtool offsets); every warning of a
# file stock does not have is new. Prints each new warning, then
#   MODE: N new warnings (patched P, stock S) in X s
# and exits 0 when N is 0, 1 when it is not, 2 when a build fails (with its
# first error) or the check cannot run.
#
# Build dirs: build/kbuild-objects-MODE-{patched,stock}, configured again
# only when the config input (Debian's config, the lines below, the tree's
# HEAD) changes; the objects are deleted before each build so their
# warnings are always seen (ccache replays a cached compiler's warnings).
# Logs: build/logs/check-objects/.
#
# UT_PATCHED_KCFLAGS=FLAGS (e.g. -Wshadow): pass KCFLAGS=FLAGS to the
# patched side only, in a copy of its build dir (...-patched-kcflags): a
# deliberate fault, to see the check fail. UT_DEBIAN_CONFIG: another
# config than the package's config.amd64_none_amd64.xz.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

fail() { printf '%s\n' "usertaint: check-objects: error: $*" >&2; exit 2; }

mode=${1:-}
case $mode in
debian) llvm=() cc="ccache gcc" hostcc="ccache gcc" ;;
clang)  llvm=(LLVM=1) cc="ccache clang" hostcc="ccache clang" ;;
*)      fail "usage: objects.sh debian|clang" ;;
esac
start=$(date +%s)

"$ROOT/scripts/build/deps.sh" objects >&2 || fail "scripts/build/deps.sh objects failed"
"$ROOT/scripts/build/tree.sh" prepare >&2 || fail "scripts/build/tree.sh prepare failed"
stock=$(stock_tree) || fail "no stock tree"

debcfg=${UT_DEBIAN_CONFIG:-$(dpkg -L linux-config-6.12 | grep '/config\.amd64_none_amd64\.xz$' || true)}
debcfg=${debcfg%%$'\n'*}	# the first one
[ -f "$debcfg" ] ||
	fail "no Debian amd64 config (package linux-config-6.12, config.amd64_none_amd64.xz)"

# The C files the series touches, outside tools/.
mapfile -t files < <(git -C "$KSRC" diff --name-only pristine..HEAD -- '*.c' | grep -v '^tools/' || true)
[ ${#files[@]} -gt 0 ] || fail "the series touches no C file outside tools/"
pobjs=() sobjs=()
for f in "${files[@]}"; do
	pobjs+=("${f%.c}.o")
	[ ! -f "$stock/$f" ] || sobjs+=("${f%.c}.o")
done
say "check-objects ($mode): ${files[*]}"

# Config lines on top of Debian's: no certificate paths of Debian's build,
# KUnit on both sides (CONFIG_KUNIT is off in Debian's config), and the
# series' options on the patched side so its new files compile.
common=('CONFIG_SYSTEM_TRUSTED_KEYS=""' 'CONFIG_MODULE_SIG_KEY=""'
	'CONFIG_SYSTEM_REVOCATION_KEYS=""' 'CONFIG_KUNIT=y')
patched_only=('CONFIG_TAINT_LOG=y' 'CONFIG_TAINT_LOG_KUNIT_TEST=m')

kmake() {
	local src=$1 obj=$2
	shift 2
	make -s -C "$src" O="$obj" "${llvm[@]}" CC="$cc" HOSTCC="$hostcc" -j"$JOBS" "$@"
}

first_error() {
	grep -m1 -E '(error|Error)[: ]|\*\*\*' "$1" || tail -n 5 "$1"
}

# configure SRC OBJ LINE...: Debian's config + LINEs, olddefconfig, only
# when that input changed; every LINE must survive olddefconfig.
configure() {
	local src=$1 obj=$2 sum line
	shift 2
	sum=$({ echo "$mode ${llvm[*]}"; xz -dc "$debcfg" | sha256sum
		printf '%s\n' "$@"; git -C "$src" rev-parse HEAD; } | sha256sum | cut -d' ' -f1)
	[ ! -f "$obj/.config" ] || [ "$(cat "$obj/.usertaint-cfg" 2>/dev/null)" != "$sum" ] || return 0
	say "configuring $obj: ${debcfg##*/} + $*"
	mkdir -p "$obj"
	rm -f "$obj/.usertaint-cfg"
	{ xz -dc "$debcfg"; printf '%s\n' "$@"; } > "$obj/.config"
	kmake "$src" "$obj" olddefconfig > "$obj/.usertaint-config.log" 2>&1 ||
		fail "olddefconfig failed in $obj: $(first_error "$obj/.usertaint-config.log")"
	for line in "$@"; do
		grep -qxF -- "$line" "$obj/.config" && continue
		# A blanked string whose option is off (no revocation list) is fine.
		case $line in *'=""') ! grep -q "^${line%%=*}=" "$obj/.config" && continue ;; esac
		fail "config: $line did not stick in $obj (missing dependency?)"
	done
	echo "$sum" > "$obj/.usertaint-cfg"
}

# build SIDE SRC OBJ LOG OBJECT...: prepare, then the objects, afresh.
build() {
	local side=$1 src=$2 obj=$3 log=$4 o
	shift 4
	local extra=()
	[ "$side" != patched ] || [ -z "${UT_PATCHED_KCFLAGS:-}" ] || extra=(KCFLAGS="$UT_PATCHED_KCFLAGS")
	say "building $side objects in $obj${extra[*]:+ (${extra[*]})}"
	kmake "$src" "$obj" W=1 C=1 "${extra[@]}" prepare > "$log.prepare" 2>&1 ||
		fail "$mode $side: make prepare failed: $(first_error "$log.prepare") (log: $log.prepare)"
	for o in "$@"; do rm -f "${obj:?}/$o"; done
	kmake "$src" "$obj" W=1 C=1 "${extra[@]}" "$@" > "$log" 2>&1 ||
		fail "$mode $side: build failed: $(first_error "$log") (log: $log)"
	for o in "$@"; do
		[ -f "$obj/$o" ] || fail "$mode $side: $o was not built (not in this config?)"
	done
}

logs=$BUILD/logs/check-objects
mkdir -p "$logs"
pobj=$(kobj "objects-$mode-patched")
sobj=$(kobj "objects-$mode-stock")
configure "$KSRC" "$pobj" "${common[@]}" "${patched_only[@]}"
configure "$stock" "$sobj" "${common[@]}"
plog=$logs/$mode-patched.log
if [ -n "${UT_PATCHED_KCFLAGS:-}" ]; then
	# The deliberate fault builds in a copy of the patched build dir.
	if [ ! -f "$pobj-kcflags/.usertaint-cfg" ] ||
	   ! cmp -s "$pobj/.usertaint-cfg" "$pobj-kcflags/.usertaint-cfg"; then
		rm -rf "$pobj-kcflags"
		cp -a "$pobj" "$pobj-kcflags"
	fi
	pobj=$pobj-kcflags
	plog=$logs/$mode-patched-kcflags.log
fi
build patched "$KSRC" "$pobj" "$plog" "${pobjs[@]}"
build stock "$stock" "$sobj" "$logs/$mode-stock.log" "${sobjs[@]}"

# Compare: multisets of normalised warnings.
out=$logs/$mode.txt
python3 - "$plog" "$KSRC" "$pobj" "$logs/$mode-stock.log" "$stock" "$sobj" > "$out" <<'EOF'
import collections, os, re, sys

LINE = re.compile(r'^(\S+?):(?:(\d+):)?(?:(\d+):)? (warning|error): (.*)$')
CONT = re.compile(r'^\s+(expected|got) ')

def load(log, src, obj):
    """[(key, shown)]: key has no line numbers, paths or offsets."""
    # ccache (CCACHE_BASEDIR) hands the compiler paths relative to OBJ.
    prefixes = sorted({src.rstrip('/') + '/', obj.rstrip('/') + '/',
                       os.path.relpath(src, obj) + '/'}, key=len, reverse=True)
    def rel(s):
        for p in prefixes:
            s = s.replace(p, '')
        return s[2:] if s.startswith('./') else s
    out = []
    with open(log, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if out and CONT.match(line):
                key, shown = out[-1]
                out[-1] = (key + ' ' + line.strip(), shown + '\n' + line)
                continue
            m = LINE.match(line)
            if not m:
                continue
            text = re.sub(r'\+0x[0-9a-f]+', '', rel(m.group(5)))
            out.append(('%s: %s: %s' % (rel(m.group(1)), m.group(4), text), rel(line)))
    return out

new = load(*sys.argv[1:4])
old = load(*sys.argv[4:7])
have = collections.Counter(k for k, _ in old)
extra = collections.Counter(k for k, _ in new) - have
n = sum(extra.values())
seen = collections.Counter()
for key, shown in new:
    if key not in extra:
        continue
    seen[key] += 1
    # A warning stock has too: the last ones of the patched build are the
    # new ones (which is arbitrary: say how many stock has).
    if seen[key] > have[key]:
        note = ' (stock has it %d times)' % have[key] if have[key] else ''
        print('new: ' + shown + note)
print('COUNTS %d %d %d' % (n, len(new), len(old)))
EOF
grep -v '^COUNTS ' "$out" || true
read -r _ n p s < <(grep '^COUNTS ' "$out")
echo "$mode: $n new warnings (patched $p, stock $s) in $(( $(date +%s) - start )) s" | tee -a "$out"
[ "$n" -eq 0 ]
