#!/bin/sh
# make fleet-check, GNU parallel over ssh (docs/fleet.md's recipes): two
# workers, each an sshd of its own on a loopback port (host key, client
# key and configuration in a temporary directory, torn down at the end),
# each with "its own" profiles (copies of testdata recordings of several
# kinds). Checked against folding every profile in one pd-fold run:
#  - fold where the profiles lie (--nonall), move folded text, merge;
#  - the same with --raw on the workers and one --symbolize;
#  - profiles sent (--transferfile), folded there, folds returned
#    (--return), merged;
#  - shared storage: any worker folds any profile; merged in a tree.
. "$(dirname "$0")/../lib.sh"
. "$PD_TOP/tests/tools/fleet-lib.sh"

FOLD=$PD_BIN/pd-fold
fleet_need parallel parallel && fleet_need sshd openssh-server &&
	fleet_need ssh openssh-client && fleet_need ssh-keygen openssh-client &&
	fleet_need rsync rsync || exit 0
have_perf && testdata_buildid_cache

d=$tmp/ssh
mkdir -p "$d" "$tmp/w1" "$tmp/w2"
ssh-keygen -q -t ed25519 -N '' -f "$d/host_key" &&
	ssh-keygen -q -t ed25519 -N '' -f "$d/id" &&
	cp "$d/id.pub" "$d/authorized_keys" || { not_ok "ssh keys"; exit 1; }
# sshd as root separates privileges into this directory
made_run_sshd=
if [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then
	mkdir -p /run/sshd && made_run_sshd=1
fi
pids=
teardown() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	[ -n "$made_run_sshd" ] && rmdir /run/sshd 2>/dev/null
	rm -rf "$tmp"
}
trap teardown EXIT
trap 'exit 1' INT TERM

: >"$d/ssh_config"
# worker N: an sshd on a free loopback port, its environment the tools'
# and its own profile directory ($FLEET_DIR)
start_worker() {
	fleet_port
	cat >"$d/sshd_$1" <<CFG
Port $port
ListenAddress 127.0.0.1
HostKey $d/host_key
PidFile $d/sshd_$1.pid
AuthorizedKeysFile $d/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
SetEnv PATH=$PD_BIN:/usr/local/bin:/usr/bin:/bin FLEET_DIR=$tmp/$1 PERF_BUILDID_DIR=${PERF_BUILDID_DIR:-} PERF_CONFIG=${PERF_CONFIG:-}
CFG
	/usr/sbin/sshd -D -e -f "$d/sshd_$1" 2>"$d/sshd_$1.log" &
	pids="$pids $!"
	cat >>"$d/ssh_config" <<CFG
Host $1
	HostName 127.0.0.1
	Port $port
	User $(id -un)
	IdentityFile $d/id
	IdentitiesOnly yes
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
	BatchMode yes
CFG
}
start_worker w1
start_worker w2
SSH="ssh -F $d/ssh_config"
up=
for i in $(seq 1 50); do
	[ "$($SSH w1 'echo $FLEET_DIR' 2>/dev/null)" = "$tmp/w1" ] &&
		[ "$($SSH w2 'echo $FLEET_DIR' 2>/dev/null)" = "$tmp/w2" ] &&
		{ up=1; break; }
	sleep 0.2
done
if [ -z "$up" ]; then
	not_ok "sshd workers on loopback ports"
	sed 's/^/# /' "$d"/sshd_*.log
	exit 1
fi
ok "two sshd workers on loopback ports"
check "a worker runs pd-fold" sh -c "$SSH w1 'pd-fold --help' >/dev/null"

# 12 profiles on each worker, of several kinds
fleet_make "$tmp/made" 24
i=0
for f in "$tmp"/made/*/*.data; do
	mv "$f" "$tmp/w$((i % 2 + 1))/"
	i=$((i + 1))
done
"$FOLD" -q "$tmp"/w1/*.data "$tmp"/w2/*.data >"$tmp/one" 2>/dev/null
check "the one-process fold of the 24 profiles" test -s "$tmp/one"
par() { parallel --will-cite --ssh "$SSH" "$@"; }

# fold where the profiles lie: one command per worker, folded text back
# ($FLEET_DIR is the worker's own, set by its sshd)
par --nonall -S w1,w2 'pd-fold -q "$FLEET_DIR"/*.data' >"$tmp/hosts.folded"
"$FOLD" --merge "$tmp/hosts.folded" >"$tmp/got"
check "--nonall: each worker folds its profiles, merged: the one fold" cmp -s "$tmp/one" "$tmp/got"

# the same, symbolized late
par --nonall -S w1,w2 'pd-fold -q --raw "$FLEET_DIR"/*.data' >"$tmp/hosts.raw"
"$FOLD" -q --symbolize "$tmp/hosts.raw" >"$tmp/got"
check "--nonall --raw on the workers, one --symbolize: the one fold" cmp -s "$tmp/one" "$tmp/got"

# profiles sent, folds returned
mkdir "$tmp/ctl"
cp -p "$tmp"/w1/*.data "$tmp"/w2/*.data "$tmp/ctl/"
(cd "$tmp/ctl" && ls *.data | par -M -S 2/w1,2/w2 --workdir "$tmp/work" \
	--transferfile {} --return {}.folded --cleanup 'pd-fold -q {} -o {}.folded')
check "--transferfile/--return: 24 folds back" test "$(ls "$tmp"/ctl/*.folded | wc -l)" -eq 24
"$FOLD" --merge "$tmp"/ctl/*.folded >"$tmp/got"
check "... merged: the one fold" cmp -s "$tmp/one" "$tmp/got"
check "... --cleanup left nothing on the workers" \
	test -z "$(find "$tmp/work" -type f 2>/dev/null)"

# shared storage: any worker any profile; merged in a tree of 6
rm -f "$tmp"/ctl/*.folded
ls "$tmp"/ctl/*.data | par -S w1,w2 'pd-fold -q {} -o {}.folded'
mkdir "$tmp/level1"
ls "$tmp"/ctl/*.folded | par -S w1,w2 -N 6 "pd-fold --merge {} -o $tmp/level1/{#}.folded"
check "shared storage: 4 merges of 6 folds" test "$(ls "$tmp"/level1/*.folded | wc -l)" -eq 4
"$FOLD" --merge "$tmp"/level1/*.folded >"$tmp/got"
check "... merged again: the one fold" cmp -s "$tmp/one" "$tmp/got"
