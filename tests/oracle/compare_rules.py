"""The oracle's rules (compare.py): the differences it calls `documented`, and the refusals
of one side that are so on purpose. Each id is explained in docs/semantics.md ("The oracle").
"""
import re

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
