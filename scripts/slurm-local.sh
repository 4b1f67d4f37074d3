#!/usr/bin/env bash
# Sets up and tears down a real single-node Slurm cluster on this machine (Debian 12's slurm-wlm 22.05
# with munge), so that the sweep tests can submit real job arrays with sbatch instead of a mock.
#
#   scripts/slurm-local.sh up       install slurm-wlm and munge if missing, start munged if it is not
#                                   running, write a private slurm.conf, start slurmctld and slurmd, and
#                                   wait (up to 60 s) until the node is idle. Already up: just says so.
#   scripts/slurm-local.sh down     cancel remaining jobs, stop slurmd and slurmctld (and munged, only if
#                                   `up` started it), remove the state folder. Not up: just says so.
#   scripts/slurm-local.sh status   exit 0 and print the sinfo line if up, non-zero otherwise.
#   scripts/slurm-local.sh env      print `export SLURM_CONF=...`, for eval "$(scripts/slurm-local.sh env)".
#
# Nothing under /etc/slurm is read or written: every file (slurm.conf, controller state, slurmd spool,
# logs, pid files) lives in the state folder, and every client (sbatch, squeue, sinfo, scancel) must
# run with SLURM_CONF pointing at its slurm.conf. The daemons run as root (SlurmUser=root,
# SlurmdUser=root), so `up` and `down` need root, and jobs run as whoever submits them. No cgroups
# (proctrack/linuxproc, task/none), as this may be a container: --mem is honoured by the scheduler
# (CR_Core_Memory; a job asking for more than the node has is refused at submission), but not
# enforced at run time. No accounting database, so no sacct; `squeue -t all` shows finished jobs.
# `up` and `down` hold a lock (<state folder>.lock), so concurrent calls queue instead of racing.
#
# Known behaviour a caller should plan for:
#   - `sbatch --wait` polls slurmctld after 2, 8, 32, 32, ... s, so it returns 2, 10, 42, 74, ... s
#     after submission, whenever the job really ended. Its exit code is the highest of the array's
#     tasks, read from the job records, which is why MinJobAge is a day here: with a short one, a
#     failed task's record can be purged before the array ends and --wait then returns 0.
#   - A job starts about 1-2 s after submission, and when an array task ends, the next one (see
#     --array=...%N throttling) starts on the next scheduling pass, about a second later.
#
# Settings (environment):
#   INTERFLOW_SLURM_DIR            state folder                                 [/tmp/interflow-slurm]
#   INTERFLOW_SLURMCTLD_PORT       slurmctld port                               [16817]
#   INTERFLOW_SLURMD_PORT          slurmd port                                  [16818]
#   INTERFLOW_SLURM_MEM_MARGIN_MB  memory kept from Slurm: RealMemory = MemTotal - this  [1024]
#   INTERFLOW_SLURM_TIMEOUT        seconds `up` waits for the node to become idle        [60]
#   INTERFLOW_SLURM_MIN_JOB_AGE    seconds slurmctld keeps finished job records         [86400]
set -Eeuo pipefail

me="slurm-local.sh"
state_dir="${INTERFLOW_SLURM_DIR:-/tmp/interflow-slurm}"
ctld_port="${INTERFLOW_SLURMCTLD_PORT:-16817}"
slurmd_port="${INTERFLOW_SLURMD_PORT:-16818}"
mem_margin="${INTERFLOW_SLURM_MEM_MARGIN_MB:-1024}"
up_timeout="${INTERFLOW_SLURM_TIMEOUT:-60}"
min_job_age="${INTERFLOW_SLURM_MIN_JOB_AGE:-86400}"

die() {
  echo "$me: error: $*" >&2
  exit 1
}
# Any command failing without an explicit die still gives one clear line.
on_error() {
  local rc=$? line=$1 cmd=$2
  echo "$me: error: command failed (exit $rc) at line $line: $cmd" >&2
  exit "$rc"
}
trap 'on_error "$LINENO" "$BASH_COMMAND"' ERR

case "$state_dir" in
  /*) ;;
  *) state_dir="$PWD/$state_dir" ;;
esac
state_dir="${state_dir%/}"
[[ "$state_dir" =~ ^/[A-Za-z0-9._/+-]+$ ]] ||
  die "INTERFLOW_SLURM_DIR must be a plain absolute path (letters, digits, . _ - + /): '$state_dir'"
case "$state_dir" in
  / | /tmp) die "refusing to use '$state_dir' as the state folder" ;;
esac
for v in ctld_port slurmd_port mem_margin up_timeout min_job_age; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a number, not '${!v}'"
done
[ "$ctld_port" != "$slurmd_port" ] || die "the slurmctld and slurmd ports must differ (both $ctld_port)"

conf="$state_dir/slurm.conf"
marker="$state_dir/.interflow-slurm"  # proves the folder is ours before `down` removes it
munged_record="$state_dir/munged-started-by-us.pid"
ctld_pidfile="$state_dir/run/slurmctld.pid"
slurmd_pidfile="$state_dir/run/slurmd.pid"
ctld_log="$state_dir/log/slurmctld.log"
slurmd_log="$state_dir/log/slurmd.log"
export SLURM_CONF="$conf"
# Clients must not pick up settings from a job this script might be run inside.
unset SLURM_JOB_ID SLURM_JOBID SLURM_CLUSTER_NAME SQUEUE_FORMAT SINFO_FORMAT 2>/dev/null || true

# take_lock: serialise `up` and `down` (the lock file sits beside the state folder, which `down` removes).
take_lock() {
  exec 9>"$state_dir.lock" || die "cannot create the lock file $state_dir.lock"
  flock -w 300 9 || die "another '$me up/down' has held $state_dir.lock for 300 s"
}

need_root() {
  [ "$(id -u)" -eq 0 ] || die "'$1' must run as root (the daemons run as SlurmUser=root; apt and munged need root)"
}

# pid_alive PIDFILE NAME: the pid in PIDFILE is a live process called NAME.
pid_alive() {
  local pid comm
  [ -s "$1" ] || return 1
  pid="$(tr -dc '0-9' <"$1")"
  [ -n "$pid" ] || return 1
  # /proc, not kill -0: a non-root `status` cannot signal root's daemons.
  comm="$(cat "/proc/$pid/comm" 2>/dev/null || true)"
  [ "$comm" = "$2" ] && running "$pid"
}

# running PID: the process exists and is not a zombie (a daemon that exited stays a zombie until init
# reaps it, which can take seconds).
running() {
  [ -e "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

# stop_pid PIDFILE NAME: TERM, wait up to 30 s, then KILL.
stop_pid() {
  local pid i
  pid_alive "$1" "$2" || return 0
  pid="$(tr -dc '0-9' <"$1")"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 300; i++)); do
    running "$pid" || return 0
    sleep 0.1
  done
  echo "$me: $2 (pid $pid) did not stop within 30 s; killing it" >&2
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    running "$pid" || return 0
    sleep 0.1
  done
  die "$2 (pid $pid) is still running after SIGKILL"
}

# node_state: the long state of the node (idle, mixed, allocated, ...), empty if slurmctld does not answer.
node_state() {
  timeout 15 sinfo -h -p interflow -o '%T' 2>/dev/null | head -n 1 || true
}
sinfo_line() {
  timeout 15 sinfo -h -p interflow -o '%P %a %l %D %T %N cpus=%c mem=%mMB' 2>/dev/null | head -n 1 || true
}
usable_state() {
  case "$1" in
    idle | mixed | allocated | completing) return 0 ;;
    *) return 1 ;;
  esac
}

show_logs() {
  local f
  for f in "$ctld_log" "$state_dir/log/slurmctld.stderr" "$slurmd_log" "$state_dir/log/slurmd.stderr"; do
    [ -s "$f" ] || continue
    echo "----- last lines of $f -----" >&2
    tail -n 15 "$f" >&2
  done
}

ensure_packages() {
  local p missing=()
  for p in slurm-wlm slurmctld slurmd slurm-client munge; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "$me: installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$state_dir/apt.log" 2>&1; then
    apt-get update -qq >>"$state_dir/apt.log" 2>&1 || true
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$state_dir/apt.log" 2>&1 || {
      tail -n 15 "$state_dir/apt.log" >&2
      die "could not install ${missing[*]} with apt-get (log above)"
    }
  fi
}

munge_works() {
  munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1
}

ensure_munge() {
  local key=/etc/munge/munge.key i
  if [ ! -s "$key" ]; then
    echo "$me: creating munge key $key"
    mkdir -p /etc/munge
    mungekey --create --keyfile="$key" || die "could not create the munge key $key"
    chown munge:munge /etc/munge "$key"
    chmod 700 /etc/munge
    chmod 600 "$key"
  fi
  munge_works && return 0
  echo "$me: starting munged"
  install -d -m 755 -o munge -g munge /run/munge
  install -d -m 711 -o munge -g munge /var/lib/munge
  install -d -m 700 -o munge -g munge /var/log/munge
  rm -f /run/munge/munged.pid
  runuser -u munge -- /usr/sbin/munged </dev/null >"$state_dir/log/munged.stderr" 2>&1 9>&- || {
    cat "$state_dir/log/munged.stderr" >&2
    tail -n 5 /var/log/munge/munged.log >&2 2>/dev/null || true
    die "could not start munged"
  }
  for ((i = 0; i < 50; i++)); do
    if munge_works && [ -s /run/munge/munged.pid ]; then
      cp /run/munge/munged.pid "$munged_record"
      return 0
    fi
    sleep 0.1
  done
  tail -n 5 /var/log/munge/munged.log >&2 2>/dev/null || true
  die "munged was started but munge credentials still do not work"
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

write_conf() {
  local host="$1" cpus mem_total real_mem def_mem
  cpus="$(nproc)"
  mem_total=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024))
  real_mem=$((mem_total - mem_margin))
  [ "$real_mem" -ge 256 ] || die "too little memory for Slurm: ${mem_total} MiB total, margin ${mem_margin} MiB"
  def_mem=$((real_mem / cpus))
  cat >"$conf" <<EOF
# Private single-node Slurm for interflow's tests, written by scripts/slurm-local.sh; not /etc/slurm.
ClusterName=interflow
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$state_dir/state
SlurmdSpoolDir=$state_dir/spool
SlurmctldPidFile=$ctld_pidfile
SlurmdPidFile=$slurmd_pidfile
SlurmctldLogFile=$ctld_log
SlurmdLogFile=$slurmd_log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups: this may be a container.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# A job without --mem gets its CPUs' share of the node, not the whole node.
DefMemPerCPU=$def_mem
ReturnToService=2
# Refuse at submission a job that the partition can never run (e.g. more CPUs than the node has),
# instead of leaving it pending for ever.
EnforcePartLimits=ALL
SlurmdParameters=config_overrides
KillWait=5
InactiveLimit=0
MinJobAge=$min_job_age
MaxArraySize=10001
MaxJobCount=100000
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus RealMemory=$real_mem State=UNKNOWN
PartitionName=interflow Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

cmd_up() {
  need_root up
  take_lock
  local host start state i
  start=$SECONDS
  host="$(hostname -s 2>/dev/null || true)"
  [[ "$host" =~ ^[A-Za-z0-9][A-Za-z0-9-]*$ ]] || die "this host's short hostname '$host' is not usable as a Slurm node name"

  if [ -d "$state_dir" ] && [ ! -e "$marker" ]; then
    die "$state_dir exists but was not made by this script; remove it or set INTERFLOW_SLURM_DIR"
  fi
  if pid_alive "$ctld_pidfile" slurmctld && pid_alive "$slurmd_pidfile" slurmd; then
    for ((i = 0; i < up_timeout; i++)); do
      state="$(node_state)"
      if usable_state "$state"; then
        echo "$me: already up: $(sinfo_line)"
        return 0
      fi
      sleep 1
    done
    show_logs
    die "slurmctld and slurmd are running but the node is '${state:-not answering}' (run '$0 down' and 'up' again)"
  fi

  # Not (fully) up: stop whatever half of an earlier start is left and start afresh (jobs are lost).
  local munged_kept=""
  if [ -d "$state_dir" ]; then
    echo "$me: found a stopped or partial cluster in $state_dir; starting it afresh"
    stop_pid "$slurmd_pidfile" slurmd
    stop_pid "$ctld_pidfile" slurmctld
    [ -s "$munged_record" ] && munged_kept="$(cat "$munged_record")"
    rm -rf "$state_dir"
  fi
  mkdir -p "$state_dir"/{state,spool,log,run}
  : >"$marker"
  [ -n "$munged_kept" ] && echo "$munged_kept" >"$munged_record"

  ensure_packages
  ensure_munge
  for p in "$ctld_port" "$slurmd_port"; do
    port_in_use "$p" && die "port $p is already in use on this host (another Slurm?); set INTERFLOW_SLURMCTLD_PORT / INTERFLOW_SLURMD_PORT"
  done
  write_conf "$host"

  # The daemons fork into the background and write their pid files; their output must not hold the
  # caller's stdout (a pipe in CTest or $(...)) open, nor may they inherit the lock (fd 9).
  slurmctld -f "$conf" </dev/null >"$state_dir/log/slurmctld.stderr" 2>&1 9>&- || {
    show_logs
    die "slurmctld failed to start (logs above)"
  }
  slurmd -f "$conf" </dev/null >"$state_dir/log/slurmd.stderr" 2>&1 9>&- || {
    show_logs
    die "slurmd failed to start (logs above)"
  }

  state=""
  while ((SECONDS - start < up_timeout)); do
    state="$(node_state)"
    [ "$state" = idle ] && break
    sleep 0.5
    if ((SECONDS - start > 3)); then
      pid_alive "$ctld_pidfile" slurmctld || { show_logs; die "slurmctld exited during start-up (logs above)"; }
      pid_alive "$slurmd_pidfile" slurmd || { show_logs; die "slurmd exited during start-up (logs above)"; }
    fi
  done
  if [ "$state" != idle ]; then
    show_logs
    die "the node did not become idle within ${up_timeout} s (state '${state:-no answer from slurmctld}'; logs above)"
  fi
  echo "$me: up in $((SECONDS - start)) s: $(sinfo_line)"
  echo "$me: for clients: export SLURM_CONF=$conf"
}

# Kill what is left of this cluster's job steps: slurmstepd keeps the slurmd log open.
kill_leftover_stepds() {
  local d pid fd
  for d in /proc/[0-9]*; do
    pid="${d#/proc/}"
    [ "$(cat "$d/comm" 2>/dev/null || true)" = slurmstepd ] || continue
    for fd in "$d"/fd/*; do
      case "$(readlink "$fd" 2>/dev/null || true)" in
        "$state_dir"/*)
          echo "$me: killing leftover slurmstepd $pid"
          kill -KILL "$pid" 2>/dev/null || true
          break
          ;;
      esac
    done
  done
}

cmd_down() {
  need_root down
  take_lock
  local i ids pid
  if [ ! -d "$state_dir" ]; then
    echo "$me: not up (no $state_dir)"
    return 0
  fi
  [ -e "$marker" ] || die "$state_dir was not made by this script; not touching it"

  if pid_alive "$ctld_pidfile" slurmctld; then
    ids="$(timeout 15 squeue -h -o '%A' 2>/dev/null || true)"
    if [ -n "$ids" ]; then
      echo "$me: cancelling jobs: $(tr '\n' ' ' <<<"$ids")"
      # shellcheck disable=SC2086
      timeout 15 scancel $ids 2>/dev/null || true
      for ((i = 0; i < 30; i++)); do
        [ -z "$(timeout 15 squeue -h -t all -o '%A %T' 2>/dev/null | grep -E ' (RUNNING|COMPLETING|PENDING|CONFIGURING|SUSPENDED)$' || true)" ] && break
        sleep 1
      done
    fi
  fi
  stop_pid "$slurmd_pidfile" slurmd
  stop_pid "$ctld_pidfile" slurmctld
  kill_leftover_stepds
  if [ -s "$munged_record" ]; then
    pid="$(tr -dc '0-9' <"$munged_record")"
    if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null || true)" = munged ]; then
      echo "$me: stopping munged (pid $pid), which 'up' started"
      stop_pid "$munged_record" munged
    fi
  fi
  rm -rf "$state_dir"
  echo "$me: down"
}

cmd_status() {
  local state
  if [ ! -e "$marker" ]; then
    echo "$me: not up (no $state_dir)" >&2
    return 1
  fi
  pid_alive "$ctld_pidfile" slurmctld || { echo "$me: not up: slurmctld is not running" >&2; return 1; }
  pid_alive "$slurmd_pidfile" slurmd || { echo "$me: not up: slurmd is not running" >&2; return 1; }
  state="$(node_state)"
  usable_state "$state" || { echo "$me: not up: node state '${state:-no answer from slurmctld}'" >&2; return 1; }
  sinfo_line
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status || exit 1 ;;
  env) printf 'export SLURM_CONF=%q\n' "$conf" ;;
  *)
    echo "usage: $0 up|down|status|env   (state folder: $state_dir)" >&2
    exit 2
    ;;
esac
