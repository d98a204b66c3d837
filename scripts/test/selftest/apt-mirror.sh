#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# apt_mirror (scripts/lib.sh), as TAP (suite harness-apt-mirror of
# scripts/test/suites): the Debian mirror that scripts/build/qemu-backports.sh and
# scripts/check/fresh-check.sh use is the one the machine's APT configuration
# names, read from one-line and deb822 files; the harness names no mirror
# of its own. Fixed inputs, then this machine's configuration.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../../lib.sh"

# shellcheck source=../../../taintctl/tests/tap.sh
. "$ROOT/taintctl/tests/tap.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# case NAME WANT FILE...: apt_mirror with those source files prints WANT
# ("" : fails, printing nothing).
case_() {
	local name=$1 want=$2 got rc=0
	shift 2
	got=$(UT_APT_SOURCES="$*" apt_mirror bookworm 2> "$T/err") || rc=$?
	if { [ -n "$want" ] && [ "$rc" = 0 ] && [ "$got" = "$want" ]; } ||
	   { [ -z "$want" ] && [ "$rc" != 0 ] && [ -z "$got" ] && grep -q 'no APT source serves Debian bookworm main' "$T/err"; }; then
		ok "apt_mirror: $name"
	else
		not_ok "apt_mirror: $name"
		printf '# want [%s], got [%s], exit %s: %s\n' "$want" "$got" "$rc" "$(cat "$T/err")"
	fi
}

cat > "$T/one.list" <<'EOF'
# deb http://commented.example/debian bookworm main
deb-src http://src.example/debian bookworm main
deb http://security.example/debian-security bookworm-security main
deb [arch=amd64 signed-by=/usr/share/keyrings/k.gpg] http://one.example/debian/ bookworm contrib main  # a comment
deb http://later.example/debian bookworm main
EOF
case_ "one-line: options, trailing slash and comment; deb-src, other suites and later lines not taken" \
	http://one.example/debian "$T/one.list"

cat > "$T/d.sources" <<'EOF'
Types: deb
URIs: http://disabled.example/debian
Suites: bookworm
Components: main
Enabled: no

# a comment between stanzas
Types: deb-src
URIs: http://src.example/debian
Suites: bookworm
Components: main

Types: deb
URIs: http://contrib.example/debian
Suites: bookworm
Components: contrib

Types: deb deb-src
URIs: http://first.example/debian http://second.example/debian
Suites: bookworm-updates
 bookworm
Components: main
Signed-By:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 xyz
 -----END PGP PUBLIC KEY BLOCK-----
EOF
case_ "deb822: disabled, deb-src and contrib-only stanzas skipped; continued Suites; first of URIs" \
	http://first.example/debian "$T/d.sources"

printf 'deb http://sec.example/debian-security bookworm-security main\n' > "$T/sec.list"
printf 'Types: deb\nURIs: http://822.example/debian\nSuites: bookworm\nComponents: main\n' > "$T/last.sources"
case_ "both formats: a .sources file after a .list without bookworm" \
	http://822.example/debian "$T/sec.list" "$T/last.sources"

printf 'deb http://trixie.example/debian trixie main\n' > "$T/trixie.list"
case_ "no source for bookworm main: an error that says so, no URI" "" "$T/trixie.list" "$T/sec.list"

# This machine: APT's own files, the URI one of theirs.
mapfile -t files < <(apt_sources)
if mirror=$(apt_mirror bookworm 2> "$T/err") && [ -n "$mirror" ] &&
   grep -qF -- "${mirror%/}" "${files[@]}"; then
	ok "apt_mirror: this machine's bookworm main mirror is one of its APT sources ($mirror)"
else
	not_ok "apt_mirror: this machine's bookworm main mirror is one of its APT sources"
	printf '# got [%s] from %s: %s\n' "$mirror" "${files[*]}" "$(cat "$T/err")"
fi
tap_done
