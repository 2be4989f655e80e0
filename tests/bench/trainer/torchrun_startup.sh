#!/usr/bin/env bash
# Start-up of trainjob-trainer as torchrun against Python's torchrun (Debian's
# python3-torch), side by side: 2 workers running a trivial script that prints one line
# and exits (it imports no torch, so what is timed is the launcher). For each run: ms until
# both workers have printed their line, and ms until the launcher exited. Medians of RUNS
# runs, the two launchers alternating. Not a pass/fail test.
# usage: torchrun_startup.sh BUILD_DIR [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-7}
trainer=$build/trainer/trainjob-trainer
python=/usr/bin/python3  # the interpreter Debian's python3-torch is installed for
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'import os\nprint("ready", os.environ["RANK"], flush=True)\n' >"$work/x.py"
# Debian's torchrun on Python 3.11 fails with its default --redirects/--tee (an IntFlag
# parsing bug); 1/1 is the working spelling of the same behaviour.
"$python" - "$runs" "$work/x.py" "$trainer" "$python" <<'PY'
import socket, statistics, subprocess, sys, time
runs, script, trainer, python = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]

def port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

launchers = {
    "trainjob-trainer": lambda p: [trainer, "--python", python, "--nproc_per_node", "2",
                                   "--master_port", str(p), script],
    "torchrun (1.13)": lambda p: [python, "-m", "torch.distributed.run", "--redirects", "1",
                                  "--tee", "1", "--nproc_per_node", "2", "--master_port",
                                  str(p), script],
}
times = {name: ([], []) for name in launchers}
for _ in range(runs):
    for name, command in launchers.items():
        start = time.monotonic()
        child = subprocess.Popen(command(port()), stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
        ready, both = 0, None
        for line in child.stdout:
            # Two workers' lines can merge (Python writes text and newline apart).
            ready += line.count("ready")
            if ready >= 2 and both is None:
                both = time.monotonic() - start
        code = child.wait()
        total = time.monotonic() - start
        if code != 0 or both is None:
            sys.exit(f"{name}: exit {code}, {ready} of 2 workers printed")
        times[name][0].append(both * 1000)
        times[name][1].append(total * 1000)
print(f"| launcher (2 workers, trivial script) | both workers printed, ms | exited, ms |")
print(f"|---|---:|---:|")
for name, (both, total) in times.items():
    print(f"| {name} | {statistics.median(both):.0f} | {statistics.median(total):.0f} |")
print(f"(medians of {runs} runs)")
PY
