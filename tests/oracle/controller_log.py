#!/usr/bin/env python3
"""What upstream's controllers logged against each namespace: the reconcile errors and panics
of their JSON logs (controller-runtime's), so that an input they accepted but could not build
(a JobSet their own webhook refused, a panic) is told from one that made no pods for no reason.

    controller_log.py errors LOG...   {"NAMESPACE": ["error or panic", ...]} as JSON
    controller_log.py stuck LOG SECS  the namespace of the last reconcile, begun over SECS
                                      seconds ago and never ended
"""
import json
import sys
import time
from datetime import datetime


def entries(path):
    """Each entry of a log in zap's JSON form, or its console form (TIME, LEVEL, message and
    the fields as JSON, separated by tabs), as one dict."""
    with open(path, errors="replace") as log:
        for line in log:
            line = line.replace("\0", "")
            parts = line.rstrip("\n").split("\t")
            try:
                if line.startswith("{"):
                    yield json.loads(line)
                elif len(parts) >= 4 and parts[3].startswith("{"):
                    entry = json.loads(parts[3])
                    entry.update(level=parts[1].lower(), msg=parts[2])
                    yield entry
            except json.JSONDecodeError:
                continue


def namespace(entry):
    for key in ("namespace", "trainJob", "jobset", "JobSet", "TrainJob"):
        value = entry.get(key)
        if isinstance(value, dict):
            value = value.get("namespace")
        if isinstance(value, str) and value:
            return value
    return None


def errors(paths):
    found = {}
    for path in paths:
        for entry in entries(path):
            ns = namespace(entry)
            if not ns or entry.get("level") != "error":
                continue
            if entry.get("msg") == "Observed a panic":
                text = f"panic: {entry.get('panic')}"
                frames = [l.strip() for l in entry.get("stacktrace", "").splitlines()
                          if "kubeflow" in l and "(" in l]
                text += f" in {frames[0]}" if frames else ""
            else:
                text = entry.get("error", entry.get("msg", ""))
            if text not in found.setdefault(ns, []):
                found[ns].append(text)
    return found


def began(entry):
    """When the entry was logged, in seconds since the epoch (0 when it does not say)."""
    stamp = entry.get("ts", "")
    try:
        return datetime.fromisoformat(stamp[:26].rstrip("Z") + "+00:00").timestamp()
    except (TypeError, ValueError):
        return 0


def stuck(path, seconds):
    """The TrainJob whose reconcile began last, over `seconds` ago, when that reconcile
    logged nothing after it (the Trainer reconciles one TrainJob at a time: one that never
    ends stops the rest, and may grow without bound meanwhile)."""
    last = None
    for entry in entries(path):
        if entry.get("msg") == "Reconciling TrainJob":
            last = (namespace(entry), entry.get("reconcileID"), began(entry))
        elif last and entry.get("reconcileID") == last[1]:
            last = None
    return last[0] if last and time.time() - last[2] > seconds else ""


if __name__ == "__main__":
    if sys.argv[1] == "errors":
        print(json.dumps(errors(sys.argv[2:])))
    else:
        print(stuck(sys.argv[2], float(sys.argv[3])))
