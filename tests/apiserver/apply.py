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


def pod_spec_causes(spec, prefix):
    """What the API server's pod validation says about repeated volume names and mount paths."""
    causes = []
    seen = set()
    for i, volume in enumerate(spec.get("volumes") or []):
        name = volume.get("name")
        if name in seen:
            causes.append({"reason": "FieldValueDuplicate", "field": f"{prefix}.volumes[{i}].name",
                           "message": f'Duplicate value: "{name}"'})
        seen.add(name)
    for kind in ("initContainers", "containers"):
        for c, container in enumerate(spec.get(kind) or []):
            paths = set()
            for m, mount in enumerate(container.get("volumeMounts") or []):
                path = mount.get("mountPath")
                if path in paths:
                    causes.append({"reason": "FieldValueInvalid",
                                   "field": f"{prefix}.{kind}[{c}].volumeMounts[{m}].mountPath",
                                   "message": f'Invalid value: "{path}": must be unique'})
                paths.add(path)
    return causes


def check_pod_template(kind, group, obj):
    """422 for a Job or Pod whose pod spec repeats a volume name or a container's mount path."""
    if kind == "Job":
        causes = pod_spec_causes(get_path(obj, ("spec", "template", "spec")) or {}, "spec.template.spec")
    elif kind == "Pod":
        causes = pod_spec_causes(obj.get("spec") or {}, "spec")
    else:
        return
    if causes:
        name = obj["metadata"]["name"]
        kind_name = kind + "." + group if group else kind
        raise ApiError(422, "Invalid", f'{kind_name} "{name}" is invalid: ' +
                       "; ".join(c["field"] + ": " + c["message"] for c in causes),
                       causes=causes, kind=kind, name=name, group=group)
