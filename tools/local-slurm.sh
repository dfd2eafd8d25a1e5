#!/usr/bin/env bash
# A one-node Slurm on this machine, for testing `make figures SLURM=1`:
# munge and Slurm's controller and node daemons (Debian's munge and
# slurm-wlm), configured under DIR, this host the only node with all its
# cores. Root only (the daemons' users and spool).
#
#   tools/local-slurm.sh start DIR    starts them; prints the SLURM_CONF to export
#   tools/local-slurm.sh stop DIR     stops them
set -euo pipefail
action=${1:?usage: tools/local-slurm.sh start|stop DIR}
dir=$(realpath -m "${2:?usage: tools/local-slurm.sh start|stop DIR}")
conf=$dir/slurm.conf

stop() {
  for pid_file in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    [ -f "$pid_file" ] && kill "$(cat "$pid_file")" 2>/dev/null || true
  done
}

case "$action" in
  stop) stop; exit 0 ;;
  start) ;;
  *) echo "usage: tools/local-slurm.sh start|stop DIR" >&2; exit 2 ;;
esac

for command in munged slurmctld slurmd sbatch; do
  command -v "$command" >/dev/null || {
    echo "local-slurm: $command not found (apt-get install slurm-wlm munge)" >&2
    exit 3
  }
done
[ "$(id -u)" -eq 0 ] || { echo "local-slurm: needs root" >&2; exit 3; }

mkdir -p "$dir"/state "$dir"/spool "$dir"/munge
host=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)

# munge: its own key and socket, so that a system munge is left alone.
key=$dir/munge/munge.key
[ -f "$key" ] || dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
chown munge:munge "$dir"/munge "$key" 2>/dev/null || true
chmod 0700 "$dir"/munge
chmod 0400 "$key"
socket=$dir/munge/munge.socket
munged --key-file="$key" --socket="$socket" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" --force

cat >"$conf" <<CONF
ClusterName=adjacent
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

export SLURM_CONF=$conf
slurmctld -f "$conf"
slurmd -f "$conf"
for _ in $(seq 30); do
  if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
    echo "export SLURM_CONF=$conf"
    exit 0
  fi
  sleep 1
done
echo "local-slurm: the node did not come up; logs in $dir" >&2
stop
exit 1
