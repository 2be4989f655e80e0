"""Objects, resource versions and the event history watches read from.

One lock guards everything; a condition variable wakes watches and followed log streams.
"""
import copy
import threading
import time
import uuid

RESOURCES = {
    # (group, version, plural): (kind, namespaced)
    ("", "v1", "configmaps"): ("ConfigMap", True),
    ("", "v1", "secrets"): ("Secret", True),
    ("", "v1", "persistentvolumeclaims"): ("PersistentVolumeClaim", True),
    ("", "v1", "services"): ("Service", True),
    ("", "v1", "pods"): ("Pod", True),
    ("", "v1", "events"): ("Event", True),
    ("", "v1", "namespaces"): ("Namespace", False),
    ("batch", "v1", "jobs"): ("Job", True),
    ("scheduling.x-k8s.io", "v1alpha1", "podgroups"): ("PodGroup", True),
}


def api_version(group, version):
    return f"{group}/{version}" if group else version


def now_rfc3339(t=None):
    t = time.time() if t is None else t
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def rfc3339_nano(t):
    whole = int(t)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + ".%09dZ" % int(round((t - whole) * 1e9) % 1000000000)


def parse_rfc3339(text):
    base, _, frac = text.rstrip("Z").partition(".")
    t = time.mktime(time.strptime(base, "%Y-%m-%dT%H:%M:%S")) - time.timezone
    return t + (float("0." + frac) if frac else 0.0)


def selector_matches(selector, labels):
    """Label selectors: k=v, k==v, k!=v, k in (a,b), k notin (a), k, !k; comma is AND."""
    if not selector:
        return True
    labels = labels or {}
    parts, depth, current = [], 0, ""
    for ch in selector:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    for part in (p.strip() for p in parts if p.strip()):
        if " notin " in part:
            key, values = part.split(" notin ", 1)
            if labels.get(key.strip()) in [v.strip() for v in values.strip("() ").split(",")]:
                return False
        elif " in " in part:
            key, values = part.split(" in ", 1)
            if labels.get(key.strip()) not in [v.strip() for v in values.strip("() ").split(",")]:
                return False
        elif "!=" in part:
            key, value = part.split("!=", 1)
            if labels.get(key.strip()) == value.strip():
                return False
        elif "=" in part:
            key, value = part.replace("==", "=").split("=", 1)
            if labels.get(key.strip()) != value.strip():
                return False
        elif part.startswith("!"):
            if part[1:] in labels:
                return False
        elif part not in labels:
            return False
    return True


def field_value(obj, path):
    for key in path.split("."):
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def fields_match(selector, obj):
    if not selector:
        return True
    for part in selector.split(","):
        if "!=" in part:
            key, value = part.split("!=", 1)
            if str(field_value(obj, key)) == value:
                return False
        else:
            key, value = part.replace("==", "=").split("=", 1)
            if str(field_value(obj, key) or "") != value:
                return False
    return True


class Store:
    def __init__(self):
        self.cond = threading.Condition()
        self.rv = 100
        self.objects = {}  # (resource, namespace, name) -> object
        self.events = []  # (rv, resource, namespace, type, object)
        self.compacted_rv = 0
        self.compactions = 0  # running watches end with 410 when this changes
        self.namespaces = {"default", "kube-system"}
        self.on_change = None

    def next_rv(self):
        self.rv += 1
        return str(self.rv)

    def record(self, resource, namespace, kind, obj):
        rv = int(obj["metadata"]["resourceVersion"])
        self.events.append((rv, resource, namespace, kind, copy.deepcopy(obj)))
        if self.on_change:
            self.on_change(rv, resource, kind, obj)
        self.cond.notify_all()

    def create(self, resource, namespace, obj):
        meta = obj.setdefault("metadata", {})
        meta["namespace"] = namespace
        meta["uid"] = str(uuid.uuid4())
        meta["creationTimestamp"] = now_rfc3339()
        meta["resourceVersion"] = self.next_rv()
        meta["generation"] = 1
        self.objects[(resource, namespace, meta["name"])] = obj
        self.record(resource, namespace, "ADDED", obj)
        return obj

    def update(self, resource, namespace, obj):
        obj["metadata"]["resourceVersion"] = self.next_rv()
        self.objects[(resource, namespace, obj["metadata"]["name"])] = obj
        self.record(resource, namespace, "MODIFIED", obj)
        return obj

    def remove(self, resource, namespace, name):
        obj = self.objects.pop((resource, namespace, name), None)
        if obj is not None:
            obj["metadata"]["resourceVersion"] = self.next_rv()
            self.record(resource, namespace, "DELETED", obj)
        return obj

    def get(self, resource, namespace, name):
        return self.objects.get((resource, namespace, name))

    def list(self, resource, namespace, label_selector="", field_selector=""):
        if resource == "v1/namespaces":
            # Namespaces are a set of names here, not stored objects.
            return [{"metadata": {"name": name}, "status": {"phase": "Active"}}
                    for name in sorted(self.namespaces)]
        out = []
        for (res, ns, _), obj in sorted(self.objects.items(), key=lambda item: item[0]):
            if res != resource or (namespace is not None and ns != namespace):
                continue
            if selector_matches(label_selector, obj["metadata"].get("labels")) and fields_match(field_selector, obj):
                out.append(obj)
        return out

    def compact(self):
        self.compacted_rv = self.rv
        self.compactions += 1
        self.events = []
        self.cond.notify_all()
