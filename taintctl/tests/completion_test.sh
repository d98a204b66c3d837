#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# completion_test.sh - bash-completion/taintctl against taintctl's own help,
# TAP on stdout.
#
# Runs the completion function as bash would (COMP_WORDS, COMP_CWORD), with
# bash-completion's helpers loaded, and checks that it offers exactly the
# commands of "taintctl --help", exactly the options of "taintctl --help"
# and of each "taintctl COMMAND --help", exactly the flag letters and names
# of "taintctl check --help" after --allow/--deny, and files or directories
# where an option wants one.  A command or option added to the help and not
# to the completion (or the other way round) fails here.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TAINTCTL=${TAINTCTL:-$HERE/../build/taintctl}
COMPLETION=${COMPLETION:-$HERE/../bash-completion/taintctl}
BC=${BASH_COMPLETION:-$(pkg-config --variable=prefix bash-completion 2>/dev/null)/share/bash-completion/bash_completion}
. "$HERE/tap.sh"
tap_need "$BC:bash-completion"
tap_init comp
# same DESC FILE1 FILE2: pass if both hold the same words (any order)
same() {
	if [ -s "$2" ] && diff <(tr -s ' \n' '\n\n' <"$2" | sed '/^$/d' | sort -u) \
			    <(tr -s ' \n' '\n\n' <"$3" | sed '/^$/d' | sort -u) >"$T/diff"; then
		ok "$1"
	else
		not_ok "$1"
		sed 's/^/# /' "$T/diff" | head -10
	fi
}

# shellcheck disable=SC1090
. "$BC"
. "$COMPLETION"
if complete -p taintctl 2>/dev/null | grep -q -- '-F _taintctl'; then
	ok "the file registers _taintctl for taintctl"
else
	not_ok "the file registers _taintctl for taintctl"
fi

# comp WORD...: what completing the last WORD offers, one per line ($LINE:
# the command line, when it is not the words joined with blanks)
comp() {
	COMP_WORDS=(taintctl "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=${LINE:-${COMP_WORDS[*]}}
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_taintctl taintctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort -u
}

# help_opts TEXT: the options an "Options:" section lists (" -a, --allow FLAGS")
help_opts() {
	sed -n '/^Options:$/,/^$/p' "$1" | grep -E '^ +-' |
		sed -E 's/^ +//; s/  .*//; s/, /\n/g' | sed -E 's/ .*//'
}

"$TAINTCTL" --help >"$T/help" 2>&1
sed -n '/^Commands:$/,/^$/p' "$T/help" | grep -E '^ [a-z]' | awk '{ print $1 }' >"$T/cmds"
comp "" >"$T/got"
same "commands offered == the Commands of taintctl --help" "$T/cmds" "$T/got"
help_opts "$T/help" >"$T/opts"
comp - >"$T/got"
same "options before a command == the Options of taintctl --help" "$T/opts" "$T/got"
for c in $(cat "$T/cmds"); do
	"$TAINTCTL" "$c" --help >"$T/help.$c" 2>&1
	help_opts "$T/help.$c" >"$T/opts"
	comp "$c" - >"$T/got"
	same "$c: options == the Options of taintctl $c --help" "$T/opts" "$T/got"
	comp --json "$c" --root /tmp - >"$T/got"
	same "$c after other options and an option's argument: the same options" "$T/opts" "$T/got"
done

# flags of check --help's table
awk '/^   [A-Z]  [A-Z_]+ / { print $1; print $2 }' "$T/help.check" >"$T/flags"
[ "$(wc -l <"$T/flags")" -ge 40 ] && ok "check --help lists letters and names" || not_ok "check --help lists letters and names"
# and 'none', the empty set, which check --help explains
grep -q "'none'" "$T/help.check" && ok "check --help explains none" || not_ok "check --help explains none"
echo none >>"$T/flags"
comp check --allow "" >"$T/got"
same "--allow: the letters and names of check --help" "$T/flags" "$T/got"
comp check -d "" >"$T/got"
same "-d: the same" "$T/flags" "$T/got"
comp watch --deny "" >"$T/got"
same "watch --deny: the same as check's" "$T/flags" "$T/got"
comp check --deny PO,WA >"$T/got"
[ "$(cat "$T/got")" = "PO,WARN" ] && ok "--deny PO,WA completes the last item: PO,WARN" || not_ok "--deny PO,WA completes the last item: PO,WARN"

# files and directories
mkdir -p "$T/tree/subdir" && : >"$T/tree/file.log"
cd "$T/tree" || exit 1
comp --root "" >"$T/got"
[ "$(cat "$T/got")" = "subdir" ] && ok "--root: directories only" || not_ok "--root: directories only"
LINE="taintctl --root=" comp --root = "" >"$T/got"	# as bash splits it
[ "$(cat "$T/got")" = "subdir" ] && ok "--root=: directories only" || not_ok "--root=: directories only"
comp check --from "" >"$T/got"
grep -qx file.log "$T/got" && ok "--from: files" || not_ok "--from: files"
comp scan "" >"$T/got"
grep -qx file.log "$T/got" && ok "scan: files" || not_ok "scan: files"
comp log "" >"$T/got"
grep -qx file.log "$T/got" && ok "log FILE: files" || not_ok "log FILE: files"
comp --root subdir "" >"$T/got"
grep -qx status "$T/got" && ! grep -qx subdir "$T/got" && ok "--root DIR: DIR is not the command, commands offered" ||
	not_ok "--root DIR: DIR is not the command, commands offered"
comp decode "" >"$T/got"
[ ! -s "$T/got" ] && ok "decode VALUE: nothing offered" || not_ok "decode VALUE: nothing offered"
comp check --value "" >"$T/got"
[ ! -s "$T/got" ] && ok "--value: nothing offered" || not_ok "--value: nothing offered"
comp metrics --output "" >"$T/got"
grep -qx file.log "$T/got" && ok "metrics --output: files" || not_ok "metrics --output: files"
comp metrics -o "" >"$T/got"
grep -qx file.log "$T/got" && ok "metrics -o: files" || not_ok "metrics -o: files"
comp log --vmcore "" >"$T/got"
grep -qx file.log "$T/got" && ok "log --vmcore: files" || not_ok "log --vmcore: files"
comp --vmcore file.log "" >"$T/got"
grep -qx log "$T/got" && ! grep -qx file.log "$T/got" && ok "--vmcore FILE: FILE is not the command, commands offered" ||
	not_ok "--vmcore FILE: FILE is not the command, commands offered"
comp check --since "" >"$T/got"
[ ! -s "$T/got" ] && ok "--since CURSOR: nothing offered" || not_ok "--since CURSOR: nothing offered"
comp watch --interval "" >"$T/got"
[ ! -s "$T/got" ] && ok "--interval: nothing offered" || not_ok "--interval: nothing offered"
comp -n 2 watch --o >"$T/got"
[ "$(cat "$T/got")" = "--once" ] && ok "-n SECONDS watch --o: --once (SECONDS is not the command)" ||
	not_ok "-n SECONDS watch --o: --once (SECONDS is not the command)"
comp watch --jo >"$T/got"
[ "$(cat "$T/got")" = "--journal" ] && ok "watch --jo: --journal" || not_ok "watch --jo: --journal"

tap_done
