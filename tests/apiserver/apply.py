"""Server-side apply: field ownership per manager, conflicts, dry run, immutable Job fields.

Fields are tracked as leaf paths; a list is one atomic field (enough for what the client
sends, which always applies whole objects).
"""
import copy
import json

from errors import ApiError

JOB_IMMUTABLE = [("spec", "template"), ("spec", "selector"), ("spec", "completionMode"), ("spec", "completions"),
                 ("spec", "podFailurePolicy"), ("spec", "backoffLimitPerIndex"), ("spec", "successPolicy")]
SYSTEM_METADATA = {"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields",
                   "namespace", "deletionTimestamp", "selfLink"}


def leaf_paths(value, prefix=()):
    """Paths are tuples of keys: label keys hold dots and slashes."""
    if isinstance(value, dict) and value:
        out = {}
        for key, child in value.items():
            if prefix == () and key in ("status",):
                continue
            if prefix == ("metadata",) and key in SYSTEM_METADATA:
                continue
            out.update(leaf_paths(child, prefix + (key,)))
        return out
    return {prefix: value}


def dotted(path):
    return ".".join(path)


def get_path(obj, path):
    for key in path:
        if not isinstance(obj, dict) or key not in obj:
            return None
        obj = obj[key]
    return obj


def set_path(obj, path, value):
    keys = path
    for key in keys[:-1]:
        obj = obj.setdefault(key, {})
    obj[keys[-1]] = copy.deepcopy(value)


def delete_path(obj, path):
    keys = path
    parents = []
    for key in keys[:-1]:
        if not isinstance(obj, dict) or key not in obj:
            return
        parents.append((obj, key))
        obj = obj[key]
    if isinstance(obj, dict):
        obj.pop(keys[-1], None)
    for parent, key in reversed(parents):  # drop mappings left empty
        if parent[key] == {}:
            del parent[key]


def fields_v1(paths):
    """The FieldsV1 form: nested {"f:<key>": {...}} mappings, as the API server records them."""
    root = {}
    for path in paths:
        node = root
        for key in path:
            node = node.setdefault("f:" + key, {})
    return root


def managed_fields(owners, api_version):
    by_manager = {}
    for path, manager in owners.items():
        by_manager.setdefault(manager, []).append(path)
    return [{"manager": m, "operation": "Apply", "apiVersion": api_version, "fieldsType": "FieldsV1",
             "fieldsV1": fields_v1(p)} for m, p in sorted(by_manager.items())]


def apply(live, intent, manager, force, owners):
    """Returns (merged object, new owners). Raises ApiError 409 on conflicts."""
    fields = leaf_paths(intent)
    conflicts = []
    for path, value in fields.items():
        owner = owners.get(path)
        if live is not None and owner and owner != manager and get_path(live, path) != value:
            conflicts.append({"reason": "FieldManagerConflict", "field": "." + dotted(path),
                              "message": f'conflict with "{owner}" using {intent.get("apiVersion")}'})
    if conflicts and not force:
        msg = "Apply failed with %d conflict%s: %s" % (len(conflicts), "s" if len(conflicts) > 1 else "",
                                                      "; ".join(c["message"] + ": " + c["field"] for c in conflicts))
        raise ApiError(409, "Conflict", msg, causes=conflicts)
    merged = copy.deepcopy(live) if live is not None else {}
    new_owners = dict(owners)
    for path, manager_of in owners.items():
        if manager_of == manager and path not in fields:
            delete_path(merged, path)  # dropped from the intent: no longer wanted
            del new_owners[path]
    for path, value in fields.items():
        set_path(merged, path, value)
        new_owners[path] = manager
    return merged, new_owners


def check_immutable(kind, live, merged):
    if kind != "Job" or live is None:
        return
    causes = []
    for path in JOB_IMMUTABLE:
        if json.dumps(get_path(live, path), sort_keys=True) != json.dumps(get_path(merged, path), sort_keys=True):
            if path == ("spec", "completions") and get_path(live, ("spec", "parallelism")) != get_path(merged, ("spec", "parallelism")):
                continue
            causes.append({"reason": "FieldValueInvalid", "field": dotted(path),
                           "message": f"Invalid value: ...: field is immutable"})
    if causes:
        name = live["metadata"]["name"]
        raise ApiError(422, "Invalid", f'Job.batch "{name}" is invalid: ' +
                       "; ".join(c["field"] + ": " + c["message"] for c in causes),
                       causes=causes, kind="Job", name=name, group="batch")
