"""Discovery documents: enough for `kubectl get` to find what the store serves."""
from store import RESOURCES

SHORT_NAMES = {"services": ["svc"], "configmaps": ["cm"], "pods": ["po"], "events": ["ev"], "namespaces": ["ns"]}


def resource_list(group, version):
    resources = []
    for (g, v, plural), (kind, namespaced) in sorted(RESOURCES.items()):
        if (g, v) != (group, version):
            continue
        resources.append({"name": plural, "singularName": kind.lower(), "namespaced": namespaced, "kind": kind,
                          "verbs": ["get", "list", "watch", "patch", "delete"],
                          "shortNames": SHORT_NAMES.get(plural, [])})
        if plural == "pods":
            resources.append({"name": "pods/log", "singularName": "", "namespaced": True, "kind": "Pod",
                              "verbs": ["get"]})
    return {"kind": "APIResourceList", "apiVersion": "v1",
            "groupVersion": f"{group}/{version}" if group else version, "resources": resources}


def groups():
    seen = {}
    for (g, v, _), _ in RESOURCES.items():
        if g:
            seen.setdefault(g, v)
    return [{"name": g, "versions": [{"groupVersion": f"{g}/{v}", "version": v}],
             "preferredVersion": {"groupVersion": f"{g}/{v}", "version": v}} for g, v in sorted(seen.items())]


def discovery(path, host):
    path = path.rstrip("/")
    if path == "/version":
        return {"major": "1", "minor": "32", "gitVersion": "v1.32.0-trainjob-test", "platform": "linux/amd64"}
    if path == "/api":
        return {"kind": "APIVersions", "versions": ["v1"],
                "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": host}]}
    if path == "/apis":
        return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups()}
    if path == "/api/v1":
        return resource_list("", "v1")
    parts = [p for p in path.split("/") if p]
    if len(parts) == 2 and parts[0] == "apis":
        for group in groups():
            if group["name"] == parts[1]:
                return dict(group, kind="APIGroup", apiVersion="v1")
    if len(parts) == 3 and parts[0] == "apis":
        answer = resource_list(parts[1], parts[2])
        if answer["resources"]:
            return answer
    return None
