#!/usr/bin/env bash
# slurm-local.sh - throwaway single-node Slurm cluster on localhost, for
# developing and CI-testing tilebench's Slurm backend.
#
#   scripts/slurm-local.sh install  install slurm-wlm and munge if missing (nothing started)
#   scripts/slurm-local.sh start    install (if needed) + start munged, slurmctld, slurmd
#   scripts/slurm-local.sh stop     cancel jobs, stop the daemons this script started
#   scripts/slurm-local.sh status   show daemons, sinfo and squeue
#   scripts/slurm-local.sh clean    stop, then delete the state dir and config link
#
# Target: Debian 12 (slurm-wlm 22.05), run as root, no systemd required.
# Everything mutable (config, state, spool, logs, pid files) lives under
# $TILEBENCH_SLURM_DIR (default /tmp/tilebench-slurm); /etc/slurm/slurm.conf is
# only a symlink to the generated config so plain `sbatch` works.
set -euo pipefail

DIR="${TILEBENCH_SLURM_DIR:-/tmp/tilebench-slurm}"
CONF="$DIR/slurm.conf"
ENV_FILE="$DIR/env"
ETC_CONF=/etc/slurm/slurm.conf
TIMEOUT="${TILEBENCH_SLURM_TIMEOUT:-60}"   # seconds to wait for the node to become idle
CLUSTER=tilebench
PARTITION=debug
MUNGE_KEY=/etc/munge/munge.key
MUNGE_PIDFILE=/run/munge/munged.pid        # munged's built-in default
# Marks that munged was started by us (so `stop` never kills a system munged).
OUR_MUNGE="$DIR/munged.ours"

# Every slurm command in this script (and its children) uses our config,
# regardless of what /etc/slurm/slurm.conf points to.
export SLURM_CONF="$CONF"
# Daemons and munge tools live in sbin, which non-login/sudo PATHs may lack.
PATH="$PATH:/usr/sbin:/sbin"

log() { printf 'slurm-local: %s\n' "$*" >&2; }
die() { printf 'slurm-local: error: %s\n' "$*" >&2; exit 1; }

need_root() {
    [[ $EUID -eq 0 ]] || die "'$1' must run as root (Slurm daemons and apt-get need it); try: sudo $0 $1"
}

node_name() { hostname -s 2>/dev/null || uname -n | cut -d. -f1; }

# alive PID: process exists and is not a zombie (a killed daemon stays a
# zombie until PID 1 reaps it, and kill -0 still succeeds on zombies).
alive() {
    local _pid _comm st
    kill -0 "$1" 2>/dev/null || return 1
    read -r _pid _comm st _ <"/proc/$1/stat" 2>/dev/null || return 1
    [[ $st != Z ]]
}

# pid_of PIDFILE NAME: print the pid if PIDFILE names a live process called NAME.
# Checking the name guards against killing an unrelated process that reused the pid.
pid_of() {
    local pid
    [[ -r $1 ]] || return 1
    pid=$(tr -dc '0-9' <"$1")
    [[ -n $pid ]] && alive "$pid" || return 1
    [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$2" ]] || return 1
    echo "$pid"
}

# wait_reaped PID: give PID 1 up to 3 s to reap the zombie, so a `pgrep`
# right after `stop` (as CI does) sees nothing. Some container inits reap lazily.
wait_reaped() {
    local i
    for ((i = 0; i < 30; i++)); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
}

# stop_pid PIDFILE NAME: SIGTERM, wait up to 15 s, then SIGKILL.
stop_pid() {
    local pid i
    pid=$(pid_of "$1" "$2") || { log "$2 not running"; rm -f "$1"; return 0; }
    log "stopping $2 (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do
        alive "$pid" || { rm -f "$1"; wait_reaped "$pid"; return 0; }
        sleep 0.1
    done
    log "$2 (pid $pid) ignored SIGTERM; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$1"
}

install_packages() {
    local missing=0 cmd
    for cmd in sbatch slurmctld slurmd munged; do
        command -v "$cmd" >/dev/null 2>&1 || missing=1
    done
    ((missing)) || return 0
    command -v apt-get >/dev/null || die "slurm/munge not installed and apt-get not available (Debian/Ubuntu only)"
    log "installing slurm-wlm and munge via apt-get (one-time)"
    # Keep the packages' postinst from starting munged/slurmd through init
    # scripts: we start the daemons ourselves, with our own config.
    local policy=/usr/sbin/policy-rc.d added_policy=0
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && added_policy=1
    fi
    export DEBIAN_FRONTEND=noninteractive
    # Quiet on success; on failure show the tail of the apt log.
    local rc=0 apt_log="$DIR/apt.log"
    mkdir -p "$DIR"
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends slurm-wlm munge; } >"$apt_log" 2>&1 || rc=$?
    if ((added_policy)); then rm -f "$policy"; fi
    if ((rc != 0)); then
        tail -n 20 "$apt_log" >&2
        die "apt-get failed (exit $rc); full log: $apt_log (needs root and access to the Debian mirror)"
    fi
}

start_munge() {
    # Reuse any working munged (ours from an earlier start, or the system's).
    if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        log "munged already running"
        return 0
    fi
    id munge >/dev/null 2>&1 || die "user 'munge' missing; is the munge package installed correctly?"
    if [[ ! -s $MUNGE_KEY ]]; then
        log "creating munge key $MUNGE_KEY"
        mkdir -p "$(dirname "$MUNGE_KEY")"
        if command -v mungekey >/dev/null; then
            mungekey --create --keyfile="$MUNGE_KEY"
        else
            dd if=/dev/urandom of="$MUNGE_KEY" bs=1024 count=1 status=none
        fi
    fi
    # munged refuses to start if key/dirs have the wrong owner or are too open.
    chown munge:munge "$MUNGE_KEY" && chmod 0400 "$MUNGE_KEY"
    install -d -o munge -g munge -m 0755 /run/munge
    install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge
    rm -f "$MUNGE_PIDFILE"
    log "starting munged"
    runuser -u munge -- munged || die "munged failed to start; see /var/log/munge/munged.log"
    touch "$OUR_MUNGE"
    local i
    for ((i = 0; i < 50; i++)); do
        munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    die "munged started but munge/unmunge does not work; see /var/log/munge/munged.log"
}

write_config() {
    local node=$1 cpus mem_mb
    cpus=$(nproc)
    # RealMemory slightly below physical memory: if it exceeded what slurmd
    # detects, the node would be drained with "Low RealMemory".
    mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.95)}' /proc/meminfo)
    mkdir -p "$DIR/state" "$DIR/spool" "$DIR/log"
    chmod 0755 "$DIR"
    cat >"$CONF" <<EOF
# Generated by tilebench scripts/slurm-local.sh - single-node local test cluster.
# Regenerated on every 'start' while slurmctld is not running; do not edit.
ClusterName=$CLUSTER
# Explicit address: works even if the hostname does not resolve.
SlurmctldHost=$node(127.0.0.1)
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
# No cgroups needed (containers/CI often lack a usable cgroup tree).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# A node that was down (e.g. after stop/start) rejoins as soon as it registers.
ReturnToService=2
# Trust the CPU/memory given here rather than draining on topology mismatches.
SlurmdParameters=config_overrides
MailProg=/bin/true
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=$PARTITION Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    printf 'export SLURM_CONF=%s\n' "$CONF" >"$ENV_FILE"
}

# Point /etc/slurm/slurm.conf (Debian's compiled-in default) at our config,
# unless the admin has a real config there, which we never overwrite.
link_etc_conf() {
    if [[ -L $ETC_CONF && $(readlink "$ETC_CONF") == "$CONF" ]]; then
        return 0
    elif [[ -e $ETC_CONF || -L $ETC_CONF ]]; then
        log "warning: $ETC_CONF exists and is not ours; left untouched."
        log "warning: plain sbatch/sinfo will use it - run 'source $ENV_FILE' first."
        return 0
    fi
    mkdir -p "$(dirname "$ETC_CONF")"
    ln -s "$CONF" "$ETC_CONF"
}

# start_daemon NAME ARGS...: start a self-daemonizing Slurm daemon and wait
# for its pid file, so config errors are reported here, not silently later.
start_daemon() {
    local name=$1 pidfile="$DIR/$1.pid" i
    shift
    if pid_of "$pidfile" "$name" >/dev/null; then
        log "$name already running (pid $(pid_of "$pidfile" "$name"))"
        return 0
    fi
    rm -f "$pidfile"
    log "starting $name"
    "$name" "$@" || die "$name failed to start (exit $?); see $DIR/log/$name.log"
    for ((i = 0; i < 100; i++)); do
        pid_of "$pidfile" "$name" >/dev/null && return 0
        sleep 0.1
    done
    tail -n 20 "$DIR/log/$name.log" >&2 2>/dev/null || true
    die "$name did not come up; full log: $DIR/log/$name.log"
}

wait_idle() {
    local node=$1 state deadline=$((SECONDS + TIMEOUT)) last_resume=-10
    while ((SECONDS < deadline)); do
        state=$(sinfo -h -N -n "$node" -o %T 2>/dev/null | head -n 1) || state=
        case $state in
            idle | mixed | allocated | completing) log "node $node is $state"; return 0 ;;
            down* | drain* | fail*)
                # Leftover state from an earlier run; ReturnToService=2 usually
                # handles it, but resume explicitly (at most every 5 s).
                if ((SECONDS - last_resume >= 5)); then
                    log "node $node is $state; resuming"
                    scontrol update NodeName="$node" State=RESUME >/dev/null 2>&1 || true
                    last_resume=$SECONDS
                fi ;;
        esac
        sleep 0.5
    done
    sinfo -N -l >&2 2>/dev/null || true
    tail -n 20 "$DIR/log/slurmd.log" >&2 2>/dev/null || true
    die "node $node not idle after ${TIMEOUT}s (state: '${state:-unknown}'); logs in $DIR/log/"
}

cmd_start() {
    need_root start
    install_packages
    local node
    node=$(node_name)
    [[ -n $node ]] || die "cannot determine hostname"
    mkdir -p "$DIR"
    start_munge
    # Rewriting the config under a running slurmctld would desync it; only
    # regenerate when starting from scratch.
    if ! pid_of "$DIR/slurmctld.pid" slurmctld >/dev/null || [[ ! -s $CONF ]]; then
        write_config "$node"
    fi
    link_etc_conf
    start_daemon slurmctld -f "$CONF"
    start_daemon slurmd -f "$CONF" -N "$node"
    wait_idle "$node"
    cat <<EOF

Local Slurm cluster '$CLUSTER' is up: node $node, partition '$PARTITION' (default).
  Config:  $CONF$( [[ -L $ETC_CONF && $(readlink "$ETC_CONF") == "$CONF" ]] && printf ' (linked from %s)' "$ETC_CONF")
  Env:     export SLURM_CONF=$CONF    # or: source $ENV_FILE
  Try:     sbatch --wait --array=0-3 --wrap 'echo \$SLURM_ARRAY_TASK_ID'
  Logs:    $DIR/log/
  Stop:    $0 stop
EOF
}

cmd_stop() {
    need_root stop
    local i
    # slurmd does not kill running job steps on SIGTERM, so cancel all jobs
    # first and give slurmstepd a moment to exit; otherwise jobs outlive us.
    if pid_of "$DIR/slurmctld.pid" slurmctld >/dev/null; then
        if [[ -n $(squeue -h -o %i 2>/dev/null) ]]; then
            log "cancelling remaining jobs"
            squeue -h -o %i | xargs -r scancel 2>/dev/null || true
            for ((i = 0; i < 100; i++)); do
                [[ -z $(squeue -h -o %i 2>/dev/null) ]] && break
                sleep 0.1
            done
        fi
    fi
    stop_pid "$DIR/slurmd.pid" slurmd
    stop_pid "$DIR/slurmctld.pid" slurmctld
    if [[ -e $OUR_MUNGE ]]; then
        stop_pid "$MUNGE_PIDFILE" munged
        rm -f "$OUR_MUNGE"
    elif pid_of "$MUNGE_PIDFILE" munged >/dev/null; then
        log "munged was not started by this script; leaving it running"
    fi
    if pgrep -x slurmstepd >/dev/null 2>&1; then
        log "warning: slurmstepd processes still running: $(pgrep -x slurmstepd | tr '\n' ' ')"
    fi
    log "stopped (state and logs kept in $DIR)"
}

cmd_status() {
    local up=1 name pid
    for name in slurmctld slurmd; do
        if pid=$(pid_of "$DIR/$name.pid" "$name"); then
            echo "$name: running (pid $pid)"
        else
            echo "$name: not running"; up=0
        fi
    done
    if pid=$(pid_of "$MUNGE_PIDFILE" munged); then
        echo "munged: running (pid $pid)"
    else
        echo "munged: not running"; up=0
    fi
    if pid_of "$DIR/slurmctld.pid" slurmctld >/dev/null; then
        echo; sinfo -N -l || true
        echo; squeue || true
    fi
    echo; echo "config: $CONF  (env: source $ENV_FILE)"
    ((up)) || exit 3   # LSB convention: 3 = not running
}

cmd_clean() {
    need_root clean
    cmd_stop
    if [[ -L $ETC_CONF && $(readlink "$ETC_CONF") == "$CONF" ]]; then
        rm -f "$ETC_CONF"
    fi
    rm -rf "$DIR"
    log "removed $DIR"
}

case "${1:-}" in
    install) need_root install; install_packages ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    clean) cmd_clean ;;
    *) echo "usage: $0 install|start|stop|status|clean" >&2; exit 2 ;;
esac
