"""/admin/*: how tests move pods and jobs, inject faults and read the request log.

POST /admin/<action> with a JSON body; pods are chosen by {"job": NAME, "index": I} or
{"pod": NAME} (namespace "default" unless given). `fail` with "retry": true fails the pod
and has its Job make a new one for the index, as within a backoffLimit. POST /admin/crd
{"group": G} installs the optional CRDs of G (served and in discovery from then on), POST
/admin/object {"object": O, "namespace": NS} stores O as it is, and GET /admin/discovery
lists the discovery requests, which GET /admin/requests leaves out. POST /admin/autopilot
{"rules": [...]} has new pods run, print and end by themselves: the first rule whose "job"
regex matches a pod's Job drives it (cluster.Cluster.schedule lists the keys; "print" lines
may quote the pod's env as {env:NAME}), so a rule for one Job goes before a catch-all.
"""
import json

from errors import ApiError
from store import OPTIONAL_RESOURCES, RESOURCES, api_version, install_crds

PODS = "v1/pods"


def target_pods(state, spec):
    namespace = spec.get("namespace", "default")
    if "pod" in spec:
        pod = state.store.get(PODS, namespace, spec["pod"])
        pods = [pod] if pod else []
    else:
        pods = state.cluster.pods_of(namespace, spec["job"], spec.get("index"))
    if not pods:
        raise ApiError(404, "NotFound", f"admin: no pod matches {json.dumps(spec)}")
    return namespace, pods


def pod_action(state, action, spec):
    namespace, pods = target_pods(state, spec)
    cluster = state.cluster
    for pod in pods:
        if action == "run":
            cluster.run(namespace, pod, spec.get("node", "node-a"))
        elif action == "log":
            cluster.log(namespace, pod, spec["lines"], spec.get("container"))
        elif action == "succeed":
            cluster.finish(namespace, pod, True)
        elif action == "fail" and spec.get("retry"):
            cluster.fail_and_retry(namespace, pod, spec.get("reason"), spec.get("exit_code"))
        elif action == "fail":
            cluster.finish(namespace, pod, False, spec.get("reason"), spec.get("exit_code"))
        elif action == "restart":
            cluster.restart(namespace, pod, spec.get("reason", "Error"), spec.get("exit_code", 1))
        elif action == "wait":
            cluster.wait(namespace, pod, spec["reason"], spec.get("message", ""), spec.get("restart_reason"),
                         spec.get("exit_code"))
        elif action == "unschedulable":
            cluster.unschedulable(namespace, pod, spec["message"])
        elif action == "event":
            cluster.event(namespace, pod, spec["reason"], spec["message"])
    return {"pods": [p["metadata"]["name"] for p in pods]}


def create_object(state, spec):
    """{"object": {...}, "namespace": NS}: stored as is, for kinds tests cannot apply."""
    obj = spec["object"]
    group, _, version = obj["apiVersion"].rpartition("/")
    for (g, v, plural), (kind, namespaced) in RESOURCES.items():
        if (g, v) == (group, version) and kind == obj["kind"]:
            namespace = spec.get("namespace", "default") if namespaced else None
            return state.store.create(f"{api_version(g, v)}/{plural}", namespace, obj)
    raise ApiError(404, "NotFound", f"admin: {obj['apiVersion']} {obj['kind']} is not served")


def handle_admin(handler, method, path, query, body):
    state = handler.state
    action = path[len("/admin/"):]
    spec = json.loads(body) if body else {}
    with state.store.cond:
        if method == "GET" and action == "requests":
            return handler.send_json(200, {"requests": state.requests})
        if method == "GET" and action == "discovery":
            return handler.send_json(200, {"requests": state.discovery_requests})
        if method == "GET" and action == "history":
            return handler.send_json(200, {"history": state.history})
        if method == "GET" and action == "objects":
            return handler.send_json(200, {"objects": sorted("%s %s/%s" % key for key in state.store.objects)})
        if action == "requests/reset":
            state.requests = []
        elif action == "faults":
            state.faults.set(spec.get("rules", []))
        elif action == "autopilot":
            state.cluster.autopilot = spec.get("rules", [])
        elif action == "tokens":
            state.tokens.update(spec)
        elif action == "compact":
            state.store.compact()
        elif action == "namespace":
            state.store.namespaces.add(spec["name"])
        elif action == "crd":
            if spec.get("group") not in OPTIONAL_RESOURCES:
                raise ApiError(404, "NotFound", f"admin: no CRDs for group {spec.get('group')}")
            install_crds(spec["group"])
        elif action == "object":
            return handler.send_json(200, create_object(state, spec))
        elif action in ("run", "log", "succeed", "fail", "restart", "wait", "unschedulable", "event"):
            return handler.send_json(200, pod_action(state, action, spec))
        else:
            raise ApiError(404, "NotFound", f"admin: unknown action {action}")
    handler.send_json(200, {"ok": True})
