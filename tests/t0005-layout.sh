#!/bin/sh
# The layout (docs/architecture.md). The library: libperfdata/src/<layer>/,
# each folder using only the folders below it (LIB_LAYERS in the
# Makefile, from the bottom up), compat/ above them all, and no files
# that use each other in a loop (tests/tools/lib-layers.sh). The tools:
# tools/<tool>/ holds pd-<tool>.c and modules its tool uses,
# tools/common/ what tools share; a folder reaches another only through
# the headers that folder names as its interface (<tool>_INTERFACE in the
# Makefile), and only if it says it uses it (<tool>_USES), as the link
# lines do.
. "$(dirname "$0")/lib.sh"

B=${PD_BIN%/bin}
T=$PD_TOP/tools
make -s -C "$PD_TOP" B="$B" layout >"$tmp/layout.all" 2>"$tmp/layout.err"
layers=$(sed -n 's/^lib layers=//p' "$tmp/layout.all")
grep -v '^lib ' "$tmp/layout.all" >"$tmp/layout"
check "make layout lists the tool folders" [ -s "$tmp/layout" ]
check "make layout lists the library's layers ($layers)" [ -n "$layers" ]

# The library's layers, read from the sources and from the objects.
if ! command -v nm >/dev/null 2>&1 || ! command -v tsort >/dev/null 2>&1; then
	skip "nm (binutils) or tsort (coreutils) missing: the library's layers not checked"
elif [ ! -d "$B/lib" ]; then
	skip "$B/lib missing: the library's layers not checked (make first)"
else
	sh "$PD_TOP/tests/tools/lib-layers.sh" "$PD_TOP" "$B" $layers >"$tmp/breaches"
	sed 's/^/# /' "$tmp/breaches"
	check "the library's folders use only folders below them, files no loop" \
		[ ! -s "$tmp/breaches" ]

	# The checker sees each kind of breach: on a copy of the sources
	# and objects with one added, it names it.
	mkdir -p "$tmp/tree" "$tmp/objs"
	cp -R "$PD_TOP/libperfdata" "$PD_TOP/compat" "$PD_TOP/tools" "$tmp/tree/"
	cp -R "$B/lib" "$B/compat" "$B/tools" "$tmp/objs/"
	low=${layers%% *} high=${layers##* }
	breach() { # breach WHAT PATTERN: the checker's lines on the copy match
		sh "$PD_TOP/tests/tools/lib-layers.sh" "$tmp/tree" "$tmp/objs" $layers >"$tmp/b.out"
		grep -q "$2" "$tmp/b.out"
		check "lib-layers.sh names $1" [ $? -eq 0 ]
	}
	one=$(ls "$tmp/tree/libperfdata/src/$low"/*.c | head -n 1)
	cp "$one" "$tmp/one.c"
	hh=$(cd "$tmp/tree/libperfdata/src/$high" && ls *.h | head -n 1)
	printf '#include "%s/%s"\n' "$high" "$hh" >>"$one"
	breach "an include of a higher folder" "includes $high/$hh: $high/ is not below $low/"
	cp "$tmp/one.c" "$one"
	# an object of the lowest folder that calls a function the highest defines
	hsym=$(nm --defined-only -g "$tmp/objs/lib/$high"/*.o | awk '$2 == "T" { print $3; exit }')
	printf 'void %s(void);\nvoid pd__breach(void);\nvoid pd__breach(void) { %s(); }\n' "$hsym" "$hsym" |
		${CC:-cc} -x c -c -o "$tmp/objs/lib/$low/breach.o" -
	breach "a call into a higher folder" "breach.c: uses $hsym of .*$high/"
	# and a function of the highest that the lowest's breach.o calls
	# back: a loop of files
	printf 'void pd__breach(void);\nvoid pd__back(void);\nvoid pd__back(void) { pd__breach(); }\n' |
		${CC:-cc} -x c -c -o "$tmp/objs/lib/$high/back.o" -
	printf 'void %s(void);\nvoid pd__back(void);\nvoid pd__breach(void);\nvoid pd__breach(void) { pd__back(); }\n' "$hsym" |
		${CC:-cc} -x c -c -o "$tmp/objs/lib/$low/breach.o" -
	breach "files that use each other in a loop" "loop: .*lib/$low/breach"
	rm -f "$tmp/objs/lib/$low/breach.o" "$tmp/objs/lib/$high/back.o"
	: >"$tmp/tree/libperfdata/src/loose.c"
	breach "a file outside the layers' folders" "libperfdata/src/loose.c: not in a layer"
fi

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
