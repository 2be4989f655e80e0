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
A difference that upstream gets wrong on purpose is `documented` by one rule of DOCUMENTED.
"""
import json
import re
import sys
from pathlib import Path

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


# Differences upstream gets wrong on purpose, or that no two controllers can share; each id
# is explained in docs/semantics.md ("The oracle"). A rule is (id, test of one difference).
DOCUMENTED = [
    # Our render names the job on every object it makes, for status, logs and delete to find.
    ("our-job-label", lambda path, up, ours: up is None and
     re.search(r"\blabels\.trainer\.kubeflow\.org/trainjob-name$", path)),
    # With no JobSet object, the labels upstream puts on the JobSet (the runtime's template
    # metadata, the TrainJob's spec.labels) go on our Service.
    ("jobset-labels-on-service", lambda path, up, ours: up is None and
     re.match(r"service [^.]+\.labels\.", path)),
    # An MPI node's command runs under a wrapper that ends the pod once the launcher is gone,
    # where upstream's JobSet success policy deletes it: the command itself is unchanged.
    ("mpi-node-exits", lambda path, up, ours: path.endswith("].command") and
     isinstance(up, list) and isinstance(ours, list) and ours[:2] == ["/bin/sh", "-c"] and
     len(ours) > 3 and ours[3] in ("mpi-node", "mpi-worker") and ours[4:] == up),
    # Open MPI 5 reads PRTE_MCA_* instead of the ORTE variables: the launcher gets both, where
    # mpi-operator sets only ORTE's (mpi-operator#842; docs/legacy-kinds.md).
    ("openmpi5-prte-env", lambda path, up, ours: up is None and
     re.search(r"\.env\.PRTE_MCA_[a-z_]+$", path)),
    # The Flux policy's scripts are our own, written from its documented behaviour; upstream's
    # text cannot be copied. What they read (the FLUX_* settings, broker.toml) is compared.
    # Training Operator v1 kinds (docs/legacy-kinds.md, "What cannot be reproduced"): the
    # per-replica Services publish not-ready addresses, so a worker reaches the master as soon
    # as it exists, in place of the operator's init-pytorch container that waits for its DNS.
    ("legacy-no-init-pytorch", lambda path, up, ours: ours is None and
     path.endswith(".spec.initContainers.init-pytorch")),
    ("legacy-publish-not-ready", lambda path, up, ours: up is False and ours is True and
     re.match(r"service [^.]+\.publishNotReadyAddresses$", path)),
    # A Job's pods cannot restart Always; the replica's pods restart OnFailure (with a warning).
    ("legacy-restart-always", lambda path, up, ours: path.endswith(".spec.restartPolicy") and
     up == "Always" and ours == "OnFailure"),
    # The v1 MPIJob's launcher reaches its workers by `kubectl exec`: the operator's
    # kubexec.sh and kubectl-delivery go by pod name, which a Job's pods do not keep, ours by
    # the pods' labels (docs/legacy-kinds.md, "kubectl exec by label").
    ("legacy-mpi-v1-exec-by-label", lambda path, up, ours:
     path.endswith(".kubexec.sh") or path.endswith("initContainers[kubectl-delivery].command")),
    # discover_hosts.sh lists the workers that run when the operator writes it; ours lists
    # every worker, as render cannot know which run (docs/legacy-kinds.md).
    ("mpi-discover-every-worker", lambda path, up, ours: path.endswith(".discover_hosts.sh") and
     isinstance(up, str) and isinstance(ours, str) and
     set(up.splitlines()) <= set(ours.splitlines())),
    # Pods that name kai-scheduler join the KAI PodGroup render emits (KAI's pod grouper
    # would gang render's ownerless Jobs pod by pod): docs/scheduling.md, "KAI Scheduler".
    ("kai-gang", lambda path, up, ours: up is None and re.search(
        r"\.(annotations\.(pod-group-name|kai\.scheduler/skip-podgrouper)|"
        r"labels\.kai\.scheduler/queue)$", path)),
    ("flux-own-scripts", lambda path, up, ours:
     re.search(r"\.data\.configmap/[^.]*-flux-entrypoint\.(entrypoint|init)\.sh$", path)),
]


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


def suspended(items):
    return any(c.get("type") == "Suspended" and c.get("status") == "True"
               for item in items if isinstance(item.get("status"), dict)
               for c in item["status"].get("conditions", []))


def case_rules(case, up, ours):
    """Documented differences that only the whole case shows, as rules like DOCUMENTED's."""
    rules = []
    # A suspended v1 job: the operator makes its Services on resume, we apply them with the
    # suspended Jobs (docs/legacy-kinds.md).
    if suspended(up) and not any(i["kind"] == "Pod" for i in up + ours):
        rules.append(("suspended-services", lambda path, a, b: a is None and
                      re.fullmatch(r"service [^.]+", path)))
    # A replica of replicas 0: the Training Operator v1.9.3 still makes its pod 0 and Service
    # (and calls the job Succeeded at once); we make none.
    text = (case / "input.yaml").read_text() if (case / "input.yaml").exists() else ""
    for replica in re.findall(r"^    (\w+):\n      replicas: 0$", text, re.M):
        rules.append(("legacy-zero-replicas", lambda path, a, b, r=replica.lower(): b is None and
                      re.fullmatch(rf"pod {r}/0|service [^.]+-{r}-0", path)))
    # minMember below the pod count with replica types that ask for different resources: the
    # operator sums the pods in an order Go's map iteration decides; render warns (the warning
    # names the field) and sums them in the kind's order.
    err = (case / "ours.err").read_text() if (case / "ours.err").exists() else ""
    if "in no set order among equals" in err:
        rules.append(("gang-min-resources-order", lambda path, a, b:
                      re.match(r"podgroup\.\S+ [^.]+\.spec\.minResources\b", path)))
    return rules


# Inputs upstream accepts but whose result could never run, which render refuses on purpose
# (docs/semantics.md, "Stricter than upstream"): an id and what our error says.
STRICTER = [
    ("stricter-image-placeholder", re.compile(r"is not an image reference")),
    ("stricter-zero-nodes", re.compile(r"numNodes: expected an integer ≥ 1, found 0")),
    ("stricter-pod-name-length", re.compile(r"pod names such as .* over the limit of 63")),
    ("stricter-claim-name-length", re.compile(r"the claim .* made from template")),
    ("stricter-duplicate-key", re.compile(r"duplicate key")),
    ("stricter-kueue-several-jobs", re.compile(r"expected a job that runs as one Job in a Kueue queue")),
    ("stricter-kueue-webhook", re.compile(r"Kueue's webhook refuses")),
]

# Inputs upstream refuses only for a feature gate its defaults leave off, which plain Jobs
# never use: render warns instead (docs/semantics.md): an id and what upstream's error says.
# Only when that is upstream's one complaint (JobSet lists its errors as `[a, b]`).
LAXER = [
    ("laxer-jobset-in-place-restart", lambda message: "InPlaceRestart restart strategy cannot be "
     "set when InPlaceRestart feature gate is disabled" in message and ", <nil>:" not in message),
]


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
