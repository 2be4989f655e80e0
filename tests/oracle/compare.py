#!/usr/bin/env python3
"""Compares what upstream's controllers made of one input with what our render made of it.

    compare.py CASE_DIR

CASE_DIR holds, for each side (`up`, upstream's controllers; `ours`, the real Job controller
running our render): SIDE.json, the `kubectl get -o json` List of the side's namespace (pods,
Services, ConfigMaps, Secrets, PodGroups), and SIDE.ns, the namespace's name; or
SIDE.refused, the error of a side that refused the input. It prints one line: `same`,
`both refused`, `documented: ID[, ID]` or `DIFF`, the last followed by the differing fields,
and exits 0 for the first three, 1 for DIFF.

Pods are matched by role and index (the Training Operator's replica-type and replica-index
labels, or JobSet's replicated job, job index and completion index). What the two sides
cannot share (namespaces, generated names, uids, owners, the scheduler's choices) is
normalised or left out; each field left out has its reason in docs/semantics.md ("The oracle").
A difference that upstream gets wrong on purpose is `documented` by one rule of DOCUMENTED
(compare_rules.py).
"""
import json
import re
import sys
from pathlib import Path

from compare_rules import DOCUMENTED, LAXER, STRICTER, case_rules

# Labels and annotations that only the controllers' own bookkeeping reads: the Job
# controller's (which uid owns the pod), JobSet's (its uid, its job key: a hash of the
# namespace), and the label our render marks what it made with.
IGNORED_KEYS = {
    "jobset.sigs.k8s.io/jobset-uid",
    "batch.kubernetes.io/controller-uid",
    "controller-uid",
    "batch.kubernetes.io/job-name",
    "job-name",
    "jobset.sigs.k8s.io/job-key",
    "app.kubernetes.io/managed-by",
    "kubectl.kubernetes.io/last-applied-configuration",
}
# Fields the cluster fills in differently on each side: where the scheduler put the pod,
# its status, and the API server's bookkeeping.
IGNORED_SPEC = {"nodeName"}


def load(case, side):
    refused = case / f"{side}.refused"
    if refused.exists():
        return None, refused.read_text().strip()
    items = json.loads((case / f"{side}.json").read_text())["items"]
    return items, (case / f"{side}.ns").read_text().strip()


# The service account token's volume, named with a suffix the API server generates.
TOKEN_VOLUME = re.compile(r"^kube-api-access-[a-z0-9]{5}$")


def replace_strings(value, replacements):
    """value with every string's occurrences of each key replaced by its placeholder."""
    if isinstance(value, str):
        for old, new in replacements:
            value = value.replace(old, new)
        return TOKEN_VOLUME.sub("kube-api-access-<generated>", value)
    if isinstance(value, list):
        return [replace_strings(v, replacements) for v in value]
    if isinstance(value, dict):
        return {k: replace_strings(v, replacements) for k, v in value.items()}
    return value


def field_value(pod, path):
    """The value a downward-API fieldRef reads from the pod, as the kubelet would."""
    match = re.fullmatch(r"metadata\.(labels|annotations)\['(.*)'\]", path)
    if match:
        return pod["metadata"].get(match[1], {}).get(match[2], "")
    simple = {
        "metadata.name": pod["metadata"]["name"],
        "metadata.namespace": pod["metadata"]["namespace"],
        "metadata.uid": "<uid>",
        "spec.nodeName": "<node>",
        "spec.serviceAccountName": pod["spec"].get("serviceAccountName", ""),
        "status.podIP": "<pod-ip>",
        "status.hostIP": "<host-ip>",
    }
    return simple.get(path, f"<{path}>")


def resolved_env(pod, container):
    env = []
    for var in container.get("env", []):
        ref = var.get("valueFrom", {}).get("fieldRef")
        if ref:
            var = {"name": var["name"], "value": field_value(pod, ref["fieldPath"])}
        env.append(var)
    return env


def keep(mapping):
    return {k: v for k, v in (mapping or {}).items() if k not in IGNORED_KEYS}


def pod_key(pod):
    labels = pod["metadata"].get("labels", {})
    annotations = pod["metadata"].get("annotations", {})
    if "training.kubeflow.org/replica-type" in labels:
        return "{}/{}".format(labels["training.kubeflow.org/replica-type"].lower(),
                              labels.get("training.kubeflow.org/replica-index", "0"))
    if "training.kubeflow.org/job-role" in labels:  # mpi-operator's launcher
        return "{}/{}".format(labels["training.kubeflow.org/job-role"],
                              labels.get("training.kubeflow.org/replica-index", "0"))
    if "jobset.sigs.k8s.io/replicatedjob-name" in labels:
        return "{}/{}/{}".format(labels["jobset.sigs.k8s.io/replicatedjob-name"],
                                 labels.get("jobset.sigs.k8s.io/job-index", "0"),
                                 annotations.get("batch.kubernetes.io/job-completion-index", "0"))
    return pod["metadata"]["name"]


def selects(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def pod_view(pod, items, ns):
    """What is compared of one pod: its spec with env resolved, its labels and annotations,
    and the DNS names that reach it."""
    name = pod["metadata"]["name"]
    spec = {k: v for k, v in pod["spec"].items() if k not in IGNORED_SPEC}
    # The hostname the pod sees: its own name unless the spec sets one (the kubelet's rule);
    # the Training Operator names pods J-r-i and leaves hostname unset, a Job's pods get it set.
    spec["hostname"] = spec.get("hostname") or name[:63]
    for group in ("containers", "initContainers"):
        spec[group] = [dict(c, env=resolved_env(pod, c)) for c in spec.get(group, [])]
    labels = pod["metadata"].get("labels", {})
    dns = []
    for service in items:
        if service["kind"] != "Service" or not selects(service["spec"].get("selector"), labels):
            continue
        dns.append(f"{service['metadata']['name']}.{ns}.svc")
        headless = service["spec"].get("clusterIP") == "None"
        if headless and spec.get("hostname") and spec.get("subdomain") == service["metadata"]["name"]:
            dns.append(f"{spec['hostname']}.{spec['subdomain']}.{ns}.svc")
    view = {
        "labels": keep(labels),
        "annotations": keep(pod["metadata"].get("annotations")),
        "spec": spec,
        "dns": sorted(dns),
        "data": referenced_data(pod, items),
    }
    # A name the API server generated (a Job's pods) is the same nowhere else.
    generated = [(name, "<pod-name>")] if pod["metadata"].get("generateName") else []
    return replace_strings(view, generated + [(ns, "<namespace>")])


def referenced_data(pod, items):
    """The ConfigMaps' data and the Secrets' keys that the pod's volumes and env read: a
    hostfile or TF_CONFIG is compared by its content (a Secret's values, ssh keys, are
    generated on each side)."""
    names = {"ConfigMap": set(), "Secret": set()}
    for volume in pod["spec"].get("volumes", []):
        if "configMap" in volume:
            names["ConfigMap"].add(volume["configMap"]["name"])
        if "secret" in volume:
            names["Secret"].add(volume["secret"]["secretName"])
    for container in pod["spec"].get("containers", []) + pod["spec"].get("initContainers", []):
        for source in container.get("envFrom", []):
            for kind, field in (("ConfigMap", "configMapRef"), ("Secret", "secretRef")):
                if field in source:
                    names[kind].add(source[field]["name"])
    data = {}
    for item in items:
        kind, name = item["kind"], item["metadata"]["name"]
        if name in names.get(kind, ()):
            if kind == "ConfigMap":
                data[f"configmap/{name}"] = item.get("data", {})
            else:
                data[f"secret/{name}"] = sorted(item.get("data", {}))
    return data


def service_view(service, ns):
    spec = service["spec"]
    view = {
        "headless": spec.get("clusterIP") == "None",
        "type": spec.get("type"),
        "selector": spec.get("selector"),
        "ports": [{k: v for k, v in p.items() if k != "nodePort"} for p in spec.get("ports", [])],
        "publishNotReadyAddresses": spec.get("publishNotReadyAddresses", False),
        "labels": keep(service["metadata"].get("labels")),
    }
    return replace_strings(view, [(ns, "<namespace>")])


def podgroup_view(group, ns):
    view = {"spec": group.get("spec", {}), "labels": keep(group["metadata"].get("labels"))}
    return replace_strings(view, [(ns, "<namespace>")])


def views(items, ns):
    """Every compared object of one side, by a key both sides share."""
    out = {}
    for item in items:
        kind = item["kind"]
        if kind == "Pod":
            out[f"pod {pod_key(item)}"] = pod_view(item, items, ns)
        elif kind == "Service":
            out[f"service {item['metadata']['name']}"] = service_view(item, ns)
        elif kind == "PodGroup":
            group = item["apiVersion"].split("/")[0]
            out[f"podgroup.{group} {item['metadata']['name']}"] = podgroup_view(item, ns)
    return out


def differences(up, ours, path=""):
    """(path, upstream's value, ours) for each leaf where the two differ."""
    if isinstance(up, dict) and isinstance(ours, dict):
        found = []
        for key in sorted(set(up) | set(ours)):
            found += differences(up.get(key), ours.get(key), f"{path}.{key}" if path else key)
        return found
    if isinstance(up, list) and isinstance(ours, list) and len(up) == len(ours):
        named = all(isinstance(x, dict) and "name" in x for x in up + ours)
        if named and [x["name"] for x in up] != [x["name"] for x in ours]:
            # Lists of named things (env, volumes, containers) are compared by name; their
            # order is reported apart when only it differs.
            by_up = {x["name"]: x for x in up}
            by_ours = {x["name"]: x for x in ours}
            if set(by_up) == set(by_ours):
                return [(f"{path}[order]", [x["name"] for x in up], [x["name"] for x in ours])]
            return differences(by_up, by_ours, path)
        found = []
        for i, (a, b) in enumerate(zip(up, ours)):
            key = a["name"] if named else i
            found += differences(a, b, f"{path}[{key}]")
        return found
    if isinstance(up, list) and isinstance(ours, list) and all(
            isinstance(x, dict) and "name" in x for x in up + ours):
        return differences({x["name"]: x for x in up}, {x["name"]: x for x in ours}, path)
    return [] if up == ours else [(path, up, ours)]


def why_no_pods(items):
    """What the side's jobs and events say, when it made no pods."""
    notes = []
    for item in items:
        for condition in item.get("status", {}).get("conditions", []) if isinstance(item.get("status"), dict) else []:
            if condition.get("message"):
                notes.append(f"{item['kind']} {condition['type']}={condition['status']}: {condition['message']}")
        if item["kind"] == "Event" and item.get("type") == "Warning":
            notes.append(f"event {item['reason']}: {item['message']}")
    return "; ".join(notes[:4]) or "nothing says why"



def short(value):
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 160 else text[:157] + "..."


# What upstream's controllers log when they accepted an input but could not build it: their
# own webhook refused what they made (a JobSet), or they crashed on it.
BUILD_REFUSED = re.compile(r"denied the request|is invalid")


def upstream_failure(case, up):
    """Why upstream made nothing of an input it accepted: ("refused", message) when its
    controllers' own objects were refused, ("crashed", message) when they panicked or hung."""
    if (case / "up.hung").exists():
        return "crashed", (case / "up.hung").read_text().strip()
    errors = (case / "up.errors").read_text().splitlines() if (case / "up.errors").exists() else []
    if any(item["kind"] == "Pod" for item in up):
        return None
    for error in errors:
        if error.startswith("panic:"):
            return "crashed", error
    for error in errors:
        if BUILD_REFUSED.search(error):
            return "refused", error
    # A job the operator's own validation fails (the v1 MPIJob has no webhook).
    for item in up:
        if item["kind"] == "Event" and item.get("reason", "").endswith("FailedValidation"):
            return "refused", item.get("message", "")
    return None


def main():
    case = Path(sys.argv[1])
    up, up_ns = load(case, "up")
    ours, ours_ns = load(case, "ours")
    failure = upstream_failure(case, up) if up is not None else None
    if failure and failure[0] == "refused":
        up, up_ns = None, failure[1]
    elif failure:
        if ours is None:
            print(f"documented: upstream-crashes ({failure[1][:200]})")
            return 0
        print(f"DIFF\n  upstream crashed on it, ours accepted it: {failure[1][:300]}")
        return 1
    if up is None and ours is None:
        print("both refused")
        return 0
    if ours is None:
        ids = [rule_id for rule_id, pattern in STRICTER if pattern.search(ours_ns)]
        if ids:
            print(f"documented: {ids[0]}")
            return 0
    if up is None:
        ids = [rule_id for rule_id, only_reason in LAXER if only_reason(up_ns)]
        if ids:
            print(f"documented: {ids[0]}")
            return 0
    if up is None or ours is None:
        side, message = ("upstream", up_ns) if up is None else ("ours", ours_ns)
        print(f"DIFF\n  only {side} refused it: {message.splitlines()[0] if message else ''}")
        return 1
    found = differences(views(up, up_ns), views(ours, ours_ns))
    notes = [f"  ({side} made no pods: {why_no_pods(items)})"
             for side, items in (("upstream", up), ("ours", ours))
             if not any(item["kind"] == "Pod" for item in items)]
    if not found:
        print("same")
        return 0
    rules = DOCUMENTED + case_rules(case, up, ours)
    explained = set()
    unexplained = []
    for path, a, b in found:
        ids = [rule_id for rule_id, test in rules if test(path, a, b)]
        if ids:
            explained.add(ids[0])
        else:
            unexplained.append((path, a, b))
    if not unexplained:
        print("documented: " + ", ".join(sorted(explained)))
        return 0
    print("DIFF")
    for note in notes:
        print(note)
    for path, a, b in unexplained:
        print(f"  {path}: upstream {short(a)}, ours {short(b)}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
