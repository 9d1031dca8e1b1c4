#!/usr/bin/env bash
# Runs Tools/run/slurm-batch.sh for real on a one-node Slurm cluster started on
# this machine (slurmctld and slurmd on localhost, munge for authentication,
# everything in a private folder), over nine of the sample scans (a PDF of
# three pages, a JPEG and PNGs: what a shard is given is the same whatever
# the input; recognising every sample is the rest of the suite's work), and
# checks that every input was done exactly once and the report is complete.
#
#   Tools/check/test-slurm.sh [SCANTEXT]     (default: .build/debug/scantext)
#
# Exit 0: passed; 1: failed; 77: the cluster cannot be started here (not
# root, Slurm or munge missing: Tools/install/install-dependencies.sh installs them),
# with the reason on standard error. Needs root: munged runs as the munge
# user and the daemons as root.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
scantext=$(realpath "${1:-$root/.build/debug/scantext}")
skip() { echo "SKIP: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || skip "starting a Slurm cluster needs root"
for tool in slurmctld slurmd sbatch squeue munged munge; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || skip "$tool is missing (apt-get install slurm-wlm munge)"
done
[ -x "$scantext" ] || fail "no scantext at $scantext"

work=$(mktemp -d /tmp/scantext-slurm.XXXXXX)
chmod 755 "$work"
ctld_pid= ; slurmd_pid= ; started_munge=
# Stops a daemon: TERM, then KILL when it is still there after 5 s (slurmd
# can hang in its shutdown once the controller is gone).
stop() {
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$1" 2>/dev/null
}
cleanup() {
  [ -n "$ctld_pid" ] && SLURM_CONF=$work/slurm.conf timeout 10 scancel --quiet --user=root 2>/dev/null
  [ -n "$slurmd_pid" ] && stop "$slurmd_pid"
  [ -n "$ctld_pid" ] && stop "$ctld_pid"
  [ -n "$started_munge" ] && stop "$(cat /run/munge/munged.pid 2>/dev/null)"
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# munge: the system's daemon when it runs, else one started here.
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
  [ -s /etc/munge/munge.key ] || skip "no munge key (/etc/munge/munge.key)"
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  runuser -u munge -- /usr/sbin/munged 2>"$work/munged.err" || skip "munged does not start: $(cat "$work/munged.err")"
  started_munge=1
  munge -n </dev/null | unmunge >/dev/null 2>&1 || skip "munge does not answer"
fi

# Free ports for the two daemons.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/state" "$work/spool" "$work/log" "$work/job"
cat >"$work/slurm.conf" <<CONF
ClusterName=scantext
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
/usr/sbin/slurmctld -D -f "$SLURM_CONF" >"$work/log/ctld.out" 2>&1 &
ctld_pid=$!
/usr/sbin/slurmd -D -f "$SLURM_CONF" -N localhost >"$work/log/d.out" 2>&1 &
slurmd_pid=$!
up=
for _ in $(seq 1 100); do
  if sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then up=1; break; fi
  kill -0 "$ctld_pid" 2>/dev/null && kill -0 "$slurmd_pid" 2>/dev/null || break
  sleep 0.2
done
[ -n "$up" ] || skip "the cluster did not come up: $(tail -3 "$work"/log/*.log "$work"/log/*.out 2>/dev/null | tr '\n' ' ')"

# The collection: nine sample inputs, copied; three array tasks.
shards=3
out=$work/out
collection=$work/collection
mkdir -p "$collection"
for name in scan.pdf blur-jpeg.jpg dpi-100.png dpi-150.png ruled-table.png marginalia.png \
  small-print.png rotated-180.png three-columns.png; do
  cp "$root/Scans/$name" "$collection/" || fail "no sample $name in $root/Scans"
done
cd "$work/job"
SCANTEXT=$scantext timeout 900 sbatch --wait --quiet --array=1-$shards \
  --export=ALL,SCANTEXT="$scantext",XDG_CACHE_HOME="$work/cache" \
  "$root/Tools/run/slurm-batch.sh" "$out" "$collection" --format json,text \
  || fail "the job array failed: $(cat "$work"/job/*.out 2>/dev/null)"

# Every input once: one report per shard, each input in exactly one, every
# input of the collection there, every one done, every output in place.
expected=$(find "$collection" -type f | wc -l)
reports=$(ls "$out"/scantext-report-*-of-$shards.jsonl 2>/dev/null | wc -l)
[ "$reports" = "$shards" ] || fail "$reports reports for $shards shards"
python3 - "$out" "$expected" <<'PY' || exit 1
import json, os, sys, glob
out, expected = sys.argv[1], int(sys.argv[2])
names = []
for report in glob.glob(os.path.join(out, "scantext-report-*.jsonl")):
    for line in open(report):
        record = json.loads(line)
        names.append(record["name"])
        if record["status"] != "ok":
            sys.exit(f"FAIL: {record['path']}: {record.get('errors')}")
        for o in record["outputs"]:
            if os.path.getsize(os.path.join(out, o["path"])) != o["bytes"]:
                sys.exit(f"FAIL: {o['path']} is not the size the report says")
if len(names) != len(set(names)):
    sys.exit(f"FAIL: inputs done twice: {sorted(n for n in set(names) if names.count(n) > 1)}")
if len(names) != expected:
    sys.exit(f"FAIL: {len(names)} inputs done of {expected}")
print(f"{len(names)} inputs, each done once by one of the shards")
PY
"$scantext" report "$out" --worst 1 >/dev/null || fail "scantext report found failures"
echo "PASS: Slurm job array of $shards shards over $expected sample inputs"
