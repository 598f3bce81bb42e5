#!/bin/sh
# lib-layers.sh TOP B LAYER...: prints every breach of the library's
# layering (docs/architecture.md), one line each; nothing when it holds.
#
# TOP is a source tree, B the build directory of its objects, LAYER... the
# library's folders from the bottom up (LIB_LAYERS in the Makefile). A
# file of libperfdata/src/D/ may use its own folder and the folders listed
# before D; compat/ (built into the library) may use every folder, and no
# folder compat/. "Use" is read twice: from the sources, a quoted
# #include; from the objects, a symbol one object leaves undefined and
# another defines. Files, in any folder of the library, compat/ or
# tools/, use each other in no loop: each breaks by moving what both
# sides need down, not by merging (so a loop is named with its uses).
set -u
top=$1 B=$2
shift 2
layers=" $* "
src=$top/libperfdata/src
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

rank() { # rank FOLDER: its place from the bottom, 0 when not a layer
	_i=0
	for _l in $layers; do
		_i=$((_i + 1))
		[ "$_l" = "$1" ] && { echo $_i; return; }
	done
	echo 0
}

for f in "$src"/*.[ch]; do
	[ -f "$f" ] && echo "libperfdata/src/${f##*/}: not in a layer's folder"
done
for d in "$src"/*/; do
	d=${d%/}; d=${d##*/}
	[ "$(rank "$d")" -gt 0 ] ||
		echo "libperfdata/src/$d/: a folder that is not in LIB_LAYERS"
done
for l in $layers; do
	[ -d "$src/$l" ] || echo "LIB_LAYERS names $l, which libperfdata/src/ lacks"
done

# Includes: a bare name is a file of the including folder; FOLDER/NAME a
# file of a lower folder.
for f in "$src"/*/*.[ch]; do
	[ -f "$f" ] || continue
	d=${f%/*}; d=${d##*/}
	rel=${f#"$top"/}
	grep -o '^#[ 	]*include[ 	]*"[^"]*"' "$f" | sed 's/^[^"]*"\(.*\)"$/\1/' |
	while read -r inc; do
		case $inc in
		*/*/* | ../*)
			echo "$rel: includes $inc: outside the library's folders" ;;
		*/*)
			to=${inc%%/*}
			if [ ! -f "$src/$inc" ]; then
				echo "$rel: includes $inc: no such file"
			elif [ "$to" = "$d" ]; then
				echo "$rel: includes $inc: its own folder named"
			elif [ "$(rank "$to")" -ge "$(rank "$d")" ]; then
				echo "$rel: includes $inc: $to/ is not below $d/"
			fi ;;
		*)
			[ -f "$src/$d/$inc" ] ||
				echo "$rel: includes $inc: not a file of $d/" ;;
		esac
	done
done

# Symbols: "SYMBOL OBJECT" for what each object defines and leaves
# undefined, the object named as lib/FOLDER/NAME, compat/NAME or
# tools/TOOL/NAME.
objs=
for o in "$B"/lib/*/*.o "$B"/compat/*.o "$B"/tools/*/*.o; do
	[ -f "$o" ] && objs="$objs $o"
done
for o in $objs; do
	n=${o#"$B"/}
	nm --defined-only -g "$o" | awk -v n="${n%.o}" 'NF >= 3 { print $NF, n }'
done | sort >"$t/defs"
for o in $objs; do
	n=${o#"$B"/}
	nm -u "$o" | awk -v n="${n%.o}" '{ print $NF, n }'
done | sort >"$t/undefs"
# USER DEFINER SYMBOL, the symbol's name dropped where two objects define
# it (the library's trace-print.c and trace-print-none.c: one is built in)
join "$t/undefs" "$t/defs" | awk '$2 != $3 { print $2, $3, $1 }' >"$t/uses"

while read -r user def sym; do
	case $user in lib/*) ;; *) continue ;; esac
	ud=${user#lib/}; ud=${ud%%/*}
	case $def in
	compat/*)
		echo "libperfdata/src/${user#lib/}.c: uses $sym of $def.c: the library uses compat/" ;;
	lib/*)
		dd=${def#lib/}; dd=${dd%%/*}
		[ "$dd" = "$ud" ] && continue
		[ "$(rank "$dd")" -lt "$(rank "$ud")" ] ||
			echo "libperfdata/src/${user#lib/}.c: uses $sym of libperfdata/src/${def#lib/}.c: $dd/ is not below $ud/" ;;
	esac
done <"$t/uses"

# File loops: the uses above, and an include of a header that has a .c of
# its own name (the declarations of that file's functions).
{
	awk '{ print $1, $2 }' "$t/uses"
	for c in "$src"/*/*.c "$top"/compat/*.c "$top"/tools/*/*.c; do
		[ -f "$c" ] || continue
		dir=${c%/*}
		case $c in
		"$src"/*) n=lib/${c#"$src"/} ;;
		*) n=${c#"$top"/} ;;
		esac
		n=${n%.c}
		grep -o '^#[ 	]*include[ 	]*"[^"]*\.h"' "$c" |
			sed 's/^[^"]*"\(.*\)\.h"$/\1/' |
		while read -r h; do
			case $c:$h in
			"$src"/*:*/*) hc=$src/$h.c to=lib/$h ;;
			"$top"/tools/*:*/*) hc=$top/tools/$h.c to=tools/$h ;;
			*:*/*) continue ;;
			*) hc=$dir/$h.c to=${n%/*}/$h ;;
			esac
			[ -f "$hc" ] && [ "$to" != "$n" ] && echo "$n $to"
		done
	done
} | sort -u >"$t/pairs"
if ! tsort "$t/pairs" >/dev/null 2>"$t/loops"; then
	# tsort names each loop's files, one a line, after a line that says
	# there is one
	awk '/input contains a loop/ { if (l != "") print l; l = ""; next }
	     { sub(/^tsort: /, ""); l = l (l == "" ? "" : " <-> ") $0 }
	     END { if (l != "") print l }' "$t/loops" |
		sed 's/^/files that use each other in a loop: /'
fi
exit 0
