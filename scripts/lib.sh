# SPDX-License-Identifier: GPL-2.0
# Common settings for the usertaint harness. Sourced, not run.
# shellcheck shell=bash disable=SC2034	# the variables are for the scripts that source this

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${UT_BUILD:-$ROOT/build}
KSRC=$BUILD/linux			# editable git tree (pristine + series)
KPKG=linux-source-6.12
KTARBALL=${UT_TARBALL:-/usr/src/$KPKG.tar.xz}	# UT_TARBALL: for tests of the harness
JOBS=${JOBS:-$(nproc)}

export CCACHE_BASEDIR=$ROOT
export CCACHE_NOHASHDIR=1
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=usertaint
export KBUILD_BUILD_HOST=qemu

say()  { printf '%s\n' "usertaint: $*" >&2; }
die()  { printf '%s\n' "usertaint: error: $*" >&2; exit 1; }

# apt_update [APT-GET OPTION...]: apt-get update, up to three tries 20 s
# apart: a Debian mirror in the middle of a sync serves an index of the
# wrong size ("File has unexpected size ... Mirror sync in progress?"),
# which fails the whole update although the index we need may be fine.
# If every try fails, say so and go on with the lists that did arrive: the
# apt-get install or download that follows fails by itself (and names the
# package) if what it needs is not in them. UT_APT_RETRY_DELAY: the pause.
apt_update() {
	local try
	for try in 1 2 3; do
		apt-get "$@" update >/dev/null && return 0
		[ "$try" -lt 3 ] || break
		say "apt-get update failed (try $try of 3), again in ${UT_APT_RETRY_DELAY:-20} s"
		sleep "${UT_APT_RETRY_DELAY:-20}"
	done
	say "warning: apt-get update failed 3 times; going on with the package lists it got"
}

# apt_sources: the machine's APT source files, as APT reads them
# (Dir::Etc::sourcelist and the *.list and *.sources of
# Dir::Etc::sourceparts). UT_APT_SOURCES="FILE...": those instead (tests).
apt_sources() {
	local list='' parts='' f
	if [ -n "${UT_APT_SOURCES:-}" ]; then
		# shellcheck disable=SC2086	# a list of files
		printf '%s\n' $UT_APT_SOURCES
		return
	fi
	eval "$(apt-config shell list Dir::Etc::sourcelist/f parts Dir::Etc::sourceparts/d 2>/dev/null)"
	list=${list:-/etc/apt/sources.list} parts=${parts:-/etc/apt/sources.list.d/}
	[ -f "$list" ] && printf '%s\n' "$list"
	for f in "${parts%/}"/*.list "${parts%/}"/*.sources; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done
	return 0
}

# apt_mirror [SUITE]: the URI of the first Debian mirror in the machine's
# APT configuration that serves SUITE (default bookworm) with component
# main, e.g. for debootstrap or a bookworm-backports line. Reads one-line
# ("deb [options] URI SUITE COMPONENT...") and deb822 (.sources: Types,
# URIs, Suites, Components, Enabled) files. Never a host name of its own:
# fails, saying so, when the configuration has no such mirror.
apt_mirror() {
	local suite=${1:-bookworm} files uri
	mapfile -t files < <(apt_sources)
	[ ${#files[@]} -gt 0 ] || die "no APT source files (sources.list, sources.list.d/)"
	uri=$(awk -v want="$suite" '
		function has(list, w,   n, a, i) {
			n = split(list, a, /[ \t]+/)
			for (i = 1; i <= n; i++) if (a[i] == w) return 1
			return 0
		}
		function stanza(   n, u) {	# a deb822 stanza ends
			if (!found && (enabled == "" || tolower(enabled) !~ /^(no|false|0)$/) &&
			    has(types, "deb") && has(suites, want) && has(comps, "main")) {
				n = split(uris, u, /[ \t]+/)
				if (n) { print u[1]; found = 1 }
			}
			types = uris = suites = comps = enabled = field = ""
		}
		FNR == 1 { if (deb822) stanza(); deb822 = (FILENAME ~ /\.sources$/) }
		deb822 {
			if ($0 ~ /^[ \t]*#/) next
			if ($0 ~ /^[ \t]*$/) { stanza(); next }
			if ($0 ~ /^[ \t]/) {	# a continuation line
				if (field == "types") types = types " " $0
				else if (field == "uris") uris = uris " " $0
				else if (field == "suites") suites = suites " " $0
				else if (field == "components") comps = comps " " $0
				next
			}
			field = tolower($0); sub(/:.*/, "", field)
			v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/[ \t]+$/, "", v)
			if (field == "types") types = v
			else if (field == "uris") uris = v
			else if (field == "suites") suites = v
			else if (field == "components") comps = v
			else if (field == "enabled") enabled = v
			next
		}
		{	# one-line format
			sub(/#.*/, "")
			if ($1 != "deb") next
			line = $0; sub(/^[ \t]*deb[ \t]+/, "", line)
			if (line ~ /^\[/) sub(/^\[[^]]*\][ \t]*/, "", line)
			n = split(line, w, /[ \t]+/)
			if (n < 3 || w[2] != want || found) next
			for (i = 3; i <= n; i++) if (w[i] == "main") { print w[1]; found = 1; next }
		}
		END { if (deb822) stanza() }' "${files[@]}")
	[ -n "$uri" ] ||
		die "no APT source serves Debian $suite main (read: ${files[*]}); add one, as apt-get needs it too"
	printf '%s\n' "${uri%/}"
}

# apt_proxy: the HTTP proxy APT uses (Acquire::http::Proxy), or nothing.
apt_proxy() {
	local p=''
	eval "$(apt-config shell p Acquire::http::Proxy 2>/dev/null)"
	case $p in ''|DIRECT|false) ;; *) printf '%s\n' "$p" ;; esac
}

# pkg_version PACKAGE: installed Debian version, or "not installed".
pkg_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "not installed"
}

# kobj VARIANT: kernel build directory for a config variant.
kobj() { echo "$BUILD/kbuild-${1:-default}"; }

# The suite table (scripts/test/suites, UT_SUITES for tests of the harness):
# suites_rows prints its rows as "suite min maxskip run variants needs
# reports where" (where: the FILE:LINE of the row), and fails, naming the
# line, on a row that is not of that form. A line "include GLOB" (GLOB
# from the repository's root, or absolute) stands for the "# suite: "
# rows of the files it matches, in name order: a scenario's row lives in
# its own file, with the rest of the scenario.
SUITE_TABLE=${UT_SUITES:-$ROOT/scripts/test/suites}
# The kinds of kernel report, one a line: the reports column's name of
# the kind, then (an ERE) the start of the console line that begins such a
# report; arm64 says "Call trace:". REPORT_KINDS: the names (the table's
# check); REPORT_RE: any of the starts (scripts/test/count.sh counts them).
REPORT_KIND_LINES='warn WARNING:
bug BUG:
kcsan BUG: KCSAN:
oops Oops:
ierr Internal error:
panic Kernel panic
gpf general protection fault
kasan KASAN:
ubsan UBSAN:
kfence KFENCE:
hung INFO: task .* blocked
rcu rcu: INFO
lockup watchdog: BUG:
trace Call [Tt]race:
nmi Uhhuh. NMI received for unknown reason'
REPORT_KINDS=$(awk '{ printf "%s%s", (NR > 1 ? " " : ""), $1 }' <<< "$REPORT_KIND_LINES")
REPORT_RE="^($(awk '{ sub(/^[^ ]+ /, ""); printf "%s%s", (NR > 1 ? "|" : ""), $0 }' <<< "$REPORT_KIND_LINES"))"
suites_lines() {	# the table's lines, includes expanded, as "WHERE<TAB>LINE"
	local line l nr=0 fnr found f g files
	while IFS= read -r line || [ -n "$line" ]; do
		nr=$((nr + 1))
		if [[ $line =~ ^include[[:space:]]+([^[:space:]]+)[[:space:]]*$ ]]; then
			g=${BASH_REMATCH[1]}
			[[ $g == /* ]] || g=$ROOT/$g
			# shellcheck disable=SC2206	# the glob is meant
			files=($g)
			[ -e "${files[0]}" ] || die "$SUITE_TABLE:$nr: include: no file matches $g"
			for f in "${files[@]}"; do
				fnr=0 found=0
				while IFS= read -r l; do
					fnr=$((fnr + 1))
					[[ $l == "# suite: "* ]] || continue
					printf '%s:%d\t%s\n' "${f#"$ROOT"/}" "$fnr" "${l#\# suite: }"
					found=1
				done < "$f"
				[ $found = 1 ] || die "$f (included by $SUITE_TABLE:$nr) has no \"# suite: \" row"
			done
		else
			printf '%s:%d\t%s\n' "${SUITE_TABLE#"$ROOT"/}" "$nr" "$line"
		fi
	done < "$SUITE_TABLE"
}
suites_rows() {
	local lines
	[ -f "$SUITE_TABLE" ] || die "no suite table $SUITE_TABLE"
	lines=$(suites_lines) || return 1
	awk -v kinds="$REPORT_KINDS" '
		BEGIN { n = split(kinds, k, " "); for (i = 1; i <= n; i++) kind[k[i]] = 1 }
		function reports_ok(r,   n, it, i, p) {
			if (r == "-") return 1
			n = split(r, it, ",")
			for (i = 1; i <= n; i++) {
				p = it[i]
				if (p !~ /^([a-z0-9]+:)?[a-z]+=([0-9]+|any)(@[A-Za-z0-9_.|]+)?$/) return 0
				sub(/^[a-z0-9]+:/, "", p)
				if (!(substr(p, 1, index(p, "=") - 1) in kind)) return 0
				if (p ~ /@/ && p !~ /^(warn|kcsan)=/) return 0
			}
			return 1
		}
		{ t = index($0, "\t"); where = substr($0, 1, t - 1); $0 = substr($0, t + 1) }
		/^[ \t]*(#|$)/ { next }
		NF != 7 || $2 !~ /^[1-9][0-9]*$/ ||
		$3 !~ /^([0-9]+|whole)(,[a-z0-9]+=([0-9]+|whole))*$/ ||
		$4 !~ /^(host|kunit|test|scenario|reliability)$/ ||
		($4 == "scenario" && $1 !~ /^scenario-./) ||
		($4 == "reliability" && $1 !~ /^reliability-./) ||
		!reports_ok($7) || seen[$1]++ {
			printf "usertaint: error: %s: not \"suite min maxskip run variants needs reports\" (min >= 1; maxskip N or whole, then VARIANT=N or VARIANT=whole, comma-separated; reports - or [VARIANT:]KIND=N|any[@FUNC|...], comma-separated, KIND one of %s, @ only for warn and kcsan; a suite only once): %s\n", where, kinds, $0 > "/dev/stderr"
			bad = 1; next
		}
		{ print $1, $2, $3, $4, $5, $6, $7, where }
		END { exit bad }' <<< "$lines"
}

# maxskip_for MAXSKIP VARIANT: the bound of a maxskip column ("2",
# "0,i386=whole,arm64=whole") for VARIANT: a number or "whole".
maxskip_for() {
	local b=${1%%,*} e parts
	IFS=, read -ra parts <<< "$1"
	for e in "${parts[@]:1}"; do
		[ "${e%%=*}" = "$2" ] && b=${e#*=}
	done
	echo "$b"
}

# stock_tree: a checkout of the pristine tree (no series) in
# build/linux-stock, a worktree of the editable tree; prints its path.
stock_tree() {
	local stock=$BUILD/linux-stock
	if [ ! -d "$stock" ]; then
		say "checking out the pristine tree in $stock"
		git -C "$KSRC" worktree add -f --detach "$stock" pristine >/dev/null
	fi
	git -C "$stock" checkout -q --detach pristine
	echo "$stock"
}
