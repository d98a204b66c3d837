#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The editable kernel tree: build/linux, a git repository whose first commit
# is the pristine Debian linux-source-6.12 and whose later commits are the
# series in patches/.
#
#   tree.sh prepare   create the tree, or bring it up to date with patches/
#   tree.sh reset     throw the tree's commits away and re-apply patches/
#   tree.sh export    write the tree's commits back to patches/
#
# A stamp (.git/usertaint-stamp) remembers which patches/ the tree was made
# from, so `prepare` can tell "patches/ changed under me" (re-apply) from
# "the developer committed in the tree" (build what is there).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

PATCHES=$ROOT/patches
STAMP=$KSRC/.git/usertaint-stamp
IDENT_NAME="usertaint harness"
IDENT_EMAIL="harness@usertaint.invalid"

g() { git -C "$KSRC" "$@"; }

series_hash() {
	( cd "$PATCHES" && cat series 2>/dev/null &&
	  while read -r p; do
		case "$p" in ''|\#*) continue ;; esac
		cat "$p"
	  done < <(cat series 2>/dev/null) ) | sha256sum | cut -d' ' -f1
}

series_list() {
	[ -f "$PATCHES/series" ] || return 0
	grep -v -e '^#' -e '^[[:space:]]*$' "$PATCHES/series"
}

extract() {
	[ -f "$KTARBALL" ] ||
		die "$KTARBALL is missing: install the Debian package $KPKG (apt-get install $KPKG, or run scripts/build/deps.sh)"
	say "extracting $KTARBALL ($KPKG $(pkg_version $KPKG)) into $KSRC"
	rm -rf "$KSRC" "$KSRC.tmp"
	mkdir -p "$KSRC.tmp"
	tar -C "$KSRC.tmp" -xf "$KTARBALL" --strip-components=1
	mv "$KSRC.tmp" "$KSRC"
	g init -q -b base
	g config user.name "$(git -C "$ROOT" config user.name || echo usertaint)"
	g config user.email "$(git -C "$ROOT" config user.email || echo usertaint@invalid)"
	g config core.autocrlf false
	g config gc.auto 0
	g add -A -f .
	# Fixed identity and date: the same tarball gives the same base commit.
	GIT_AUTHOR_NAME=$IDENT_NAME GIT_AUTHOR_EMAIL=$IDENT_EMAIL \
	GIT_COMMITTER_NAME=$IDENT_NAME GIT_COMMITTER_EMAIL=$IDENT_EMAIL \
	GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
		g commit -q -m "Debian $KPKG $(pkg_version $KPKG)"
	g tag -f pristine >/dev/null
	g checkout -q -b usertaint
}

apply_series() {
	local p n=0
	g reset -q --hard pristine
	while read -r p; do
		[ -f "$PATCHES/$p" ] || die "patches/series names $p, which is not in patches/"
		if ! g am -q --keep-cr "$PATCHES/$p" >/dev/null 2>"$BUILD/am.err"; then
			g am --abort >/dev/null 2>&1 || true
			cat "$BUILD/am.err" >&2
			die "patch $p does not apply to $KPKG $(pkg_version $KPKG) (tree left at the last patch that applied)"
		fi
		n=$((n + 1))
	done < <(series_list)
	say "applied $n patches from patches/series"
	printf '%s %s\n' "$(series_hash)" "$(g rev-parse HEAD)" > "$STAMP"
}

prepare() {
	mkdir -p "$BUILD"
	if [ ! -d "$KSRC/.git" ]; then
		extract
		apply_series
		return
	fi
	[ -f "$STAMP" ] || { apply_series; return; }
	read -r shash shead < "$STAMP"
	[ "$shash" = "$(series_hash)" ] && return 0
	# patches/ changed since the tree was made.
	if [ "$shead" = "$(g rev-parse HEAD)" ]; then
		say "patches/ changed: re-applying the series"
		apply_series
	elif exported_matches; then
		printf '%s %s\n' "$(series_hash)" "$(g rev-parse HEAD)" > "$STAMP"
	else
		die "the tree $KSRC has commits that are not in patches/, and patches/ changed too: run 'make export' to keep the tree's work, or 'make tree-reset' to take patches/"
	fi
}

# The exporter's git identity, user.name and user.email as git finds them
# for this repository: every exported patch is signed off by it.
EXP_NAME=$(git -C "$ROOT" config user.name || true)
EXP_EMAIL=$(git -C "$ROOT" config user.email || true)

# format_patches DIR: the tree's commits as patch files in DIR, each
# signed off by the exporter (format-patch --signoff adds the line only
# where the commit does not end with it already).
format_patches() {
	local out=$1 head_date
	local ident=(-c "user.name=$EXP_NAME" -c "user.email=$EXP_EMAIL")
	[ -n "$EXP_NAME" ] && [ -n "$EXP_EMAIL" ] || ident=()
	head_date=$(g log -1 --format=%aI HEAD)
	g config branch.usertaint.description "$(cat "$PATCHES/cover-letter.txt" 2>/dev/null || echo 'usertaint series')"
	# --zero-commit and --no-signature: no commit ids or git version in the
	# files, so re-exporting unchanged commits changes no byte. The cover
	# letter's date is HEAD's author date, which git am keeps when the tree
	# is made again from patches/ (the commit date is new each time).
	GIT_COMMITTER_DATE=$head_date g "${ident[@]}" -c core.abbrev=12 -c diff.noprefix=false \
		format-patch -q --zero-commit --no-signature --cover-letter \
		${ident[0]:+--signoff} \
		--cover-from-description=subject --base=pristine \
		-o "$out" pristine..HEAD >/dev/null
}

exported_matches() {
	local tmp rc=0
	tmp=$(mktemp -d)
	format_patches "$tmp"
	for f in "$tmp"/*.patch; do
		cmp -s "$f" "$PATCHES/$(basename "$f")" || rc=1
	done
	[ "$(ls "$tmp" | wc -l)" -eq "$(ls "$PATCHES"/*.patch 2>/dev/null | wc -l)" ] || rc=1
	rm -rf "$tmp"
	return $rc
}

export_series() {
	[ -d "$KSRC/.git" ] || die "no tree at $KSRC: run 'make tree' first"
	[ -n "$EXP_NAME" ] && [ -n "$EXP_EMAIL" ] ||
		die "no git identity to sign the patches off with: set user.name and user.email (git config) first"
	[ -z "$(g status --porcelain --untracked-files=no)" ] ||
		say "warning: the tree has uncommitted changes; only commits are exported"
	local tmp
	tmp=$(mktemp -d)
	format_patches "$tmp"
	rm -f "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch
	cp "$tmp"/*.patch "$PATCHES"/
	( cd "$PATCHES" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-cover-letter' ) > "$PATCHES/series"
	rm -rf "$tmp"
	printf '%s %s\n' "$(series_hash)" "$(g rev-parse HEAD)" > "$STAMP"
	say "exported $(wc -l < "$PATCHES/series") patches to patches/"
}

case "${1:-}" in
prepare) prepare ;;
reset)   [ -d "$KSRC/.git" ] || { prepare; exit 0; }; apply_series ;;
export)  export_series ;;
*) echo "usage: $0 prepare|reset|export" >&2; exit 2 ;;
esac
