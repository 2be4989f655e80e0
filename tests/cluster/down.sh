#!/usr/bin/env bash
# Stops the control plane that `up.sh DIR` started: exactly the processes whose pids it
# recorded in DIR/pids, and only while each pid still runs a program of that control plane
# (a pid reused by another process is left alone). Safe to run twice; DIR itself stays.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: tests/cluster/down.sh DIR" >&2
  exit 2
fi
[ -d "$1/pids" ] || exit 0
dir=$(cd "$1" && pwd)

# ours PID: the process still runs with this control plane's state directory in its arguments.
ours() { { tr '\0' '\n' <"/proc/$1/cmdline"; } 2>/dev/null | grep -qF "$dir/"; }

# What runs on the cluster first (the oracle's controllers record their pids here too), then
# the kubelet, the store last, as a cluster is taken down.
extra=()
for file in "$dir"/pids/*.pid; do
  case ${file##*/} in
    kwok.pid | kube-scheduler.pid | kube-controller-manager.pid | kube-apiserver.pid | etcd.pid) ;;
    *.pid) [ -f "$file" ] && extra+=("$(basename "$file" .pid)") ;;
  esac
done
for name in ${extra[@]+"${extra[@]}"} kwok kube-scheduler kube-controller-manager kube-apiserver etcd; do
  file=$dir/pids/$name.pid
  [ -f "$file" ] || continue
  pid=$(cat "$file")
  if ours "$pid"; then
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 50); do ours "$pid" || break; sleep 0.1; done
    ours "$pid" && kill -KILL "$pid" 2>/dev/null
  fi
  rm -f "$file"
done
exit 0
