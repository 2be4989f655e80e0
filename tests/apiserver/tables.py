"""meta.k8s.io/v1 Table answers, which `kubectl get` asks for."""
import time

from store import parse_rfc3339


def age(obj):
    created = obj["metadata"].get("creationTimestamp")
    if not created:
        return "<unknown>"
    seconds = int(time.time() - parse_rfc3339(created))
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h"


def columns_for(kind):
    if kind == "Job":
        return ["Name", "Status", "Completions", "Age"]
    if kind == "Pod":
        return ["Name", "Ready", "Status", "Restarts", "Age"]
    return ["Name", "Age"]


def cells(kind, obj):
    name = obj["metadata"]["name"]
    status = obj.get("status", {})
    if kind == "Job":
        conditions = [c["type"] for c in status.get("conditions", []) if c.get("status") == "True"]
        state = conditions[-1] if conditions else ("Suspended" if obj["spec"].get("suspend") else "Running")
        return [name, state, "%d/%d" % (status.get("succeeded", 0), obj["spec"].get("completions", 1)), age(obj)]
    if kind == "Pod":
        statuses = status.get("containerStatuses", [])
        ready = sum(1 for s in statuses if s.get("ready"))
        restarts = sum(s.get("restartCount", 0) for s in statuses)
        return [name, f"{ready}/{len(statuses)}", status.get("phase", ""), restarts, age(obj)]
    return [name, age(obj)]


def table(kind, items, resource_version):
    return {"kind": "Table", "apiVersion": "meta.k8s.io/v1",
            "metadata": {"resourceVersion": resource_version},
            "columnDefinitions": [{"name": c, "type": "string", "format": "name" if c == "Name" else "",
                                   "description": c, "priority": 0} for c in columns_for(kind)],
            "rows": [{"cells": cells(kind, obj),
                      "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                                 "metadata": obj["metadata"]}} for obj in items]}
