#!/bin/sh
# pd-convert --to=pprof with several inputs: one profile of them all,
# equal to what `go tool pprof -proto A.pb.gz B.pb.gz ...` makes of
# their profiles one by one (compared as go tool pprof -raw prints both:
# header, samples, locations, mappings); inputs go refuses to merge
# (other sample types) are refused too. For every testdata recording X:
# X, a copy of X (samples that add up) and fp.data.
. "$(dirname "$0")/lib.sh"

if ! command -v go >/dev/null 2>&1; then
	skip "no go tool pprof (apt-get install golang-go)"
	exit 0
fi
have_perf && testdata_buildid_cache
C=$PD_BIN/pd-convert
cd "$tmp" || exit 1
export GOFLAGS=-mod=mod HOME="$tmp"
cp -p "$TD/fp.data" fp.data
"$C" -q --to=pprof fp.data -o fp.pb.gz
n=0 bad= refused=0
for f in "$TD"/*.data; do
	k=$(basename "$f" .data)
	[ "$k" = fp ] && continue
	cp -p "$f" "x-$k.data" && cp -p "$f" "y-$k.data"
	"$C" -q --to=pprof "x-$k.data" -o "x-$k.pb.gz" 2>/dev/null &&
		"$C" -q --to=pprof "y-$k.data" -o "y-$k.pb.gz" 2>/dev/null || continue
	"$C" -q --to=pprof "x-$k.data" "y-$k.data" fp.data -o "m-$k.pb.gz" 2>"m-$k.err"
	rc=$?
	if go tool pprof -proto "x-$k.pb.gz" "y-$k.pb.gz" fp.pb.gz \
		>"g-$k.pb.gz" 2>/dev/null; then
		go tool pprof -raw "g-$k.pb.gz" >"g-$k.raw" 2>&1
		go tool pprof -raw "m-$k.pb.gz" >"m-$k.raw" 2>&1
		[ $rc -eq 0 ] && cmp -s "g-$k.raw" "m-$k.raw" || bad="$bad $k"
		n=$((n + 1))
	else
		# go: incompatible sample types
		[ $rc -eq 1 ] && grep -q 'other events than' "m-$k.err" || bad="$bad $k(refusal)"
		refused=$((refused + 1))
	fi
done
check "several inputs, one profile: go tool pprof -proto's merge, for $n recordings (and $refused refused as go refuses them)${bad:+; not:$bad}" test -z "$bad"
check "... some merged" test "$n" -gt 5
check "... some refused" test "$refused" -gt 0
"$C" -q --to=speedscope fp.data fp.data >/dev/null 2>&1
check "several inputs to another format: bad usage" test $? -eq 2
"$C" -q --to=pprof fp.data -o one.pb.gz
go tool pprof -raw one.pb.gz >one.raw 2>&1
go tool pprof -raw fp.pb.gz >fp.raw 2>&1
check "one input: the profile it always was" cmp -s fp.raw one.raw
