#!/bin/sh
# make fleet-check, Slurm (docs/fleet.md's recipe): a one-node cluster on
# this machine (munged with its own key and socket, slurmctld and slurmd
# on loopback ports, slurm.conf in a temporary directory, all torn down
# at the end); a job array folds the profiles, a task per group of
# them, where they lie (shared storage here), and a job that depends on
# it merges the folds; checked against folding every profile in one
# pd-fold run. The same with --raw tasks and one --symbolize.
. "$(dirname "$0")/../lib.sh"
. "$PD_TOP/tests/tools/fleet-lib.sh"

FOLD=$PD_BIN/pd-fold
fleet_need slurmctld slurm-wlm && fleet_need slurmd slurm-wlm &&
	fleet_need sbatch slurm-wlm && fleet_need munged munge || exit 0
have_perf && testdata_buildid_cache

d=$tmp/slurm
mkdir -p "$d/state" "$d/spool" "$d/munge"
chmod 700 "$d/munge"
pids=
teardown() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap teardown EXIT
trap 'exit 1' INT TERM

# munge: a key of our own, a socket in our directory
dd if=/dev/urandom of="$d/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$d/munge/key"
munged -F --force --key-file="$d/munge/key" --socket="$d/munge/sock" \
	--pid-file="$d/munge/pid" --log-file="$d/munge/log" \
	--seed-file="$d/munge/seed" 2>"$d/munge/err" &
pids="$pids $!"

node=$(hostname -s)
user=$(id -un)
fleet_port
ctld_port=$port
fleet_port
slurmd_port=$port
cat >"$d/slurm.conf" <<CFG
ClusterName=pdfleet
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
# batch jobs start as soon as CPUs are free (not up to 3 s later)
SchedulerParameters=batch_sched_delay=0
$(slurmd -C 2>/dev/null | sed -n '1s/$/ NodeAddr=127.0.0.1 State=UNKNOWN/p')
PartitionName=fleet Nodes=$node Default=YES MaxTime=INFINITE State=UP
CFG
SLURM_CONF=$d/slurm.conf
export SLURM_CONF
slurmctld -D -f "$SLURM_CONF" 2>"$d/slurmctld.err" &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" -N "$node" 2>"$d/slurmd.err" &
pids="$pids $!"
up=
for i in $(seq 1 100); do
	[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && { up=1; break; }
	sleep 0.2
done
if [ -z "$up" ]; then
	not_ok "a one-node Slurm cluster (munged, slurmctld, slurmd)"
	tail -5 "$d"/munge/log "$d"/*.log "$d"/*.err 2>/dev/null | sed 's/^/# /'
	exit 1
fi
ok "a one-node Slurm cluster (munged, slurmctld, slurmd)"

# 24 profiles, 8 tasks of 3
fleet_make "$tmp/fleet" 24
ls "$tmp"/fleet/*/*.data >"$tmp/list"
"$FOLD" -q $(cat "$tmp/list") >"$tmp/one" 2>/dev/null
check "the one-process fold of the 24 profiles" test -s "$tmp/one"
mkdir "$tmp/out"
cat >"$tmp/fold.sh" <<JOB
#!/bin/sh
# task N folds profiles 3N+1 to 3N+3 of the list, together
set -e
files=\$(sed -n "\$((SLURM_ARRAY_TASK_ID * 3 + 1)),\$((SLURM_ARRAY_TASK_ID * 3 + 3))p" "$tmp/list")
"$FOLD" -q \$FOLD_OPTS \$files -o "$tmp/out/\$SLURM_ARRAY_TASK_ID.\$FOLD_EXT"
JOB
cat >"$tmp/merge.sh" <<JOB
#!/bin/sh
"$FOLD" \$MERGE_OPTS "$tmp"/out/*.\$FOLD_EXT -o "$tmp/merged.\$FOLD_EXT"
JOB

# job_done ID: waits (2 minutes at most) until job ID ends; whether it
# completed. (sbatch --wait polls every few seconds.)
job_done() {
	for _i in $(seq 1 600); do
		_st=$(scontrol -o show job "$1" 2>/dev/null |
			sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
		case $_st in
		PENDING|CONFIGURING|RUNNING|COMPLETING|"") sleep 0.2 ;;
		COMPLETED) return 0 ;;
		*) echo "# job $1: $_st"; return 1 ;;
		esac
	done
	echo "# job $1: still not done"
	scancel "$1" 2>/dev/null
	return 1
}

# run_array EXT FOLD_OPTS MERGE_OPTS: the array, then the merge after it
# (cancelled, not left waiting, if a task fails)
run_array() {
	jid=$(FOLD_EXT=$1 FOLD_OPTS=$2 sbatch --parsable --array=0-7 \
		--export=ALL -o /dev/null -e "$tmp/out/%a.err" "$tmp/fold.sh") &&
	mid=$(FOLD_EXT=$1 MERGE_OPTS=$3 sbatch --parsable \
		--dependency=afterok:"$jid" --kill-on-invalid-dep=yes \
		--export=ALL -o /dev/null -e "$tmp/merge.err" "$tmp/merge.sh") &&
	job_done "$mid"
}
run_array folded "" --merge
check "sbatch --array=0-7: 8 folds" test "$(ls "$tmp"/out/*.folded 2>/dev/null | wc -l)" -eq 8
check "... merged by a dependent job: the one fold" cmp -s "$tmp/one" "$tmp/merged.folded"
run_array raw --raw "-q --symbolize"
check "the same with --raw tasks and one --symbolize: the one fold" \
	cmp -s "$tmp/one" "$tmp/merged.raw"
