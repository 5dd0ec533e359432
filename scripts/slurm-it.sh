#!/usr/bin/env bash
# Integration test of `datsim sweep slurm` against a real Slurm (opt-in; see README "Sweeps on a Slurm cluster").
#
# Installs slurm-wlm and munge from Debian when they are missing (needs root and apt-get), starts munged, slurmctld
# and slurmd on localhost with a minimal configuration in a temporary directory, runs a small study locally, submits
# the same study as a job array plus an afterok merge job, and checks that the merged tables (results.csv,
# aggregate.csv) and plots are byte-identical to the local run's. Stops only the daemons it started.
#
# Usage: scripts/slurm-it.sh [STUDY]   (default: studies/fence-vs-read-latency.json)
# Exit: 0 passed, 1 failed, 77 skipped (Slurm cannot be installed or started here).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
STUDY=$(realpath "${1:-$ROOT/studies/fence-vs-read-latency.json}")
WORK=$(mktemp -d /tmp/datsim-slurm-it.XXXXXX)
KEEP_WORK=1   # kept for the logs unless the test passes

say() { echo "slurm-it: $*"; }
skip() { say "SKIPPED: $*"; exit 77; }

cleanup() {
    for pidfile in "$WORK/slurmd.pid" "$WORK/slurmctld.pid" "$WORK/munged.pid"; do
        if [[ -s $pidfile ]]; then
            kill "$(cat "$pidfile")" 2>/dev/null || true
        fi
    done
    sleep 1
    if [[ ${KEEP_WORK:-0} -eq 0 ]]; then
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

# 1. Slurm and munge from Debian
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
        skip "slurm-wlm and munge are not installed and cannot be installed here (need root and apt-get)"
    fi
    say "installing slurm-wlm and munge"
    apt-get update -qq || skip "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null || skip "apt-get install failed"
fi
[[ $(id -u) -eq 0 ]] || skip "the daemons are started as root; run as root (for example in a container)"

# 2. munged with a fresh key of its own
mkdir -p "$WORK/munge"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$WORK/munge/munge.key"
mkdir -p /run/munge
MUNGE_SOCKET="$WORK/munge/socket"
munged --force --key-file="$WORK/munge/munge.key" --socket="$MUNGE_SOCKET" \
    --pid-file="$WORK/munged.pid" --log-file="$WORK/munge/munged.log" --seed-file="$WORK/munge/seed" \
    || skip "munged does not start (see $WORK/munge/munged.log)"

# 3. a one-node cluster on localhost
NODE=$(hostname -s)
CPUS=$(nproc)
mkdir -p "$WORK/state" "$WORK/spool"
export SLURM_CONF="$WORK/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=datsimit
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CryptoType=crypto/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=it Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" || skip "slurmctld does not start (see $WORK/slurmctld.log)"
slurmd -f "$SLURM_CONF" || skip "slurmd does not start (see $WORK/slurmd.log)"
for _ in $(seq 60); do
    if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
        break
    fi
    sleep 1
done
sinfo -h -o %T | grep -qE '^(idle|mixed|allocated)' || skip "the node does not come up: $(sinfo 2>&1 | tail -2)"
say "slurm is up: $(sinfo -h -o '%P %D %T %c')"

# 4. the jar, and the same study run locally
cd "$ROOT"
./datsim --version >/dev/null
JAR="$ROOT/scenarios/target/datsim.jar"
cp "$JAR" "$WORK/datsim.jar"   # a copy: a rebuild in the work tree cannot change what the jobs run
DATSIM="java -jar $WORK/datsim.jar"
$DATSIM sweep run "$STUDY" --out "$WORK/local" --jobs 2 >/dev/null 2>"$WORK/local.err"
$DATSIM sweep merge "$WORK/local" >/dev/null

# 5. the job array and the merge that waits for it
$DATSIM sweep slurm "$STUDY" --out "$WORK/cluster" --shards 4 --cpus-per-task 1 --datsim "$DATSIM"
SUBMIT=$(bash "$WORK/cluster/slurm/submit.sh")
say "$SUBMIT"
MERGE=$(sed -E 's/.*merge job ([0-9]+).*/\1/' <<<"$SUBMIT")
STATE=""
for _ in $(seq 600); do
    STATE=$(scontrol show job "$MERGE" 2>/dev/null | sed -nE 's/.*JobState=([A-Z_]+).*/\1/p' | head -1)
    case "$STATE" in
        COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;;
    esac
    sleep 1
done
say "merge job $MERGE: ${STATE:-unknown}"
if [[ $STATE != COMPLETED ]]; then
    tail -n 20 "$WORK"/cluster/slurm/logs/* 2>/dev/null || true
    say "FAILED: the merge job did not complete (logs in $WORK)"
    exit 1
fi

# 6. identical tables and plots
status=0
for f in results.csv aggregate.csv; do
    if cmp -s "$WORK/local/$f" "$WORK/cluster/$f"; then
        say "$f identical ($(wc -l < "$WORK/local/$f") lines)"
    else
        say "FAILED: $f differs"; diff "$WORK/local/$f" "$WORK/cluster/$f" | head -20; status=1
    fi
done
if diff -r -q "$WORK/local/plots" "$WORK/cluster/plots" >/dev/null; then
    say "plots identical ($(ls "$WORK/local/plots" | wc -l) files)"
else
    say "FAILED: plots differ"; status=1
fi
if [[ $status -eq 0 ]]; then
    say "PASSED"
    KEEP_WORK=0
fi
exit $status
