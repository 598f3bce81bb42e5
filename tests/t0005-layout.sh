#!/bin/sh
# The tools' layout (docs/architecture.md): tools/<tool>/ holds pd-<tool>.c
# and modules its tool uses, tools/common/ what tools share; a folder
# reaches another only through the headers that folder names as its
# interface (<tool>_INTERFACE in the Makefile), and only if it says it
# uses it (<tool>_USES), as the link lines do.
. "$(dirname "$0")/lib.sh"

B=${PD_BIN%/bin}
T=$PD_TOP/tools
make -s -C "$PD_TOP" B="$B" layout >"$tmp/layout" 2>"$tmp/layout.err"
check "make layout lists the tool folders" [ -s "$tmp/layout" ]

# uses DIR / interface DIR: from make layout's line for DIR
field() { sed -n "s/^$2 .*$1=\([^=]*\)\( [a-z]*=.*\)\{0,1\}\$/\1/p" "$tmp/layout"; }

loose=$(find "$T" -maxdepth 1 -name '*.[ch]' | sed "s|^$T/||")
check "no .c or .h file directly under tools/ (${loose:-none})" [ -z "$loose" ]

for td in "$T"/*/; do
	td=${td%/}; td=${td##*/}
	[ "$td" = common ] && continue
	check "tools/$td/ holds pd-$td.c" [ -f "$T/$td/pd-$td.c" ]
	grep -q "^$td " "$tmp/layout"
	check "tools/$td/ is a tool folder of the Makefile" [ $? -eq 0 ]
done

# Every quoted include of a tools/ file: in its own folder, in common/,
# or a named interface header of a folder it uses.
bad=$tmp/bad-includes
: >"$bad"
for f in "$T"/*/*.[ch]; do
	dir=${f%/*}; dir=${dir##*/}
	rel=${f#"$T"/}
	grep -o '^#include "[^"]*"' "$f" | sed 's/^#include "\(.*\)"$/\1/' |
	while read -r inc; do
		case $inc in
		*/*)
			to=${inc%%/*}; h=${inc#*/}
			[ -f "$T/$inc" ] || { echo "$rel: $inc: no such file" >>"$bad"; continue; }
			[ "$to" = common ] && continue
			[ "$to" = "$dir" ] && { echo "$rel: $inc: own folder named" >>"$bad"; continue; }
			[ "$dir" = common ] && { echo "$rel: $inc: common/ uses a tool's folder" >>"$bad"; continue; }
			case " $(field uses "$dir") " in
			*" $to "*) ;;
			*) echo "$rel: $inc: $to/ is not in ${dir}_USES" >>"$bad"; continue ;;
			esac
			case " $(field interface "$to") " in
			*" $h "*) ;;
			*) echo "$rel: $inc: not in ${to}_INTERFACE" >>"$bad" ;;
			esac
			;;
		*)
			[ -f "$dir/$inc" ] || [ -f "$T/$dir/$inc" ] ||
				echo "$rel: $inc: not in tools/$dir/" >>"$bad"
			;;
		esac
	done
done
sed 's/^/# /' "$bad"
check "includes across tool folders go through named interfaces only" [ ! -s "$bad" ]

# Every module of a folder is used: some object linked into a tool that
# links the folder references a symbol the module defines.
if command -v nm >/dev/null 2>&1 && [ -d "$B/tools/common" ]; then
	unused=$tmp/unused
	: >"$unused"
	# who references what: "SYMBOL FOLDER OBJECT", every object
	for o in "$B"/tools/*/*.o; do
		rel=${o#"$B"/tools/}
		nm -u "$o" | awk -v r="$rel" '{ d = r; sub(/\/.*/, "", d); print $NF, d, r }'
	done >"$tmp/undef"
	for o in "$B"/tools/*/*.o; do
		rel=${o#"$B"/tools/}
		case $rel in */pd-*.o) continue ;; esac
		dir=${rel%%/*}
		# the folders linked with this one: common's go into every
		# tool, a tool's into itself and the tools that use it
		users=" "
		while read -r t _; do
			if [ "$dir" = common ] || [ "$t" = "$dir" ]; then
				users="$users$t "
			else
				case " $(field uses "$t") " in
				*" $dir "*) users="$users$t " ;;
				esac
			fi
		done <"$tmp/layout"
		nm --defined-only -g "$o" | awk '{ print $NF }' >"$tmp/defs"
		awk -v rel="$rel" -v users="$users" '
			NR == FNR { def[$1] = 1; next }
			($1 in def) && $3 != rel && index(users, " " $2 " ") { found = 1; exit }
			END { exit !found }' "$tmp/defs" "$tmp/undef" ||
			echo "$rel" >>"$unused"
	done
	sed 's/^/# unused: /' "$unused"
	check "every module is used by a tool linking its folder" [ ! -s "$unused" ]
else
	skip "nm (binutils) or $B/tools missing: module use not checked"
fi

echo "1..$tap_n"
