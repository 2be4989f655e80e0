"""The verbs that write one object: server-side apply and JSON merge patch (PATCH), and DELETE
with its propagation policy. Each takes the request's handler (apiserver.py) and answers on it."""
import copy
import json
import threading

from apply import apply, check_immutable, check_pod_template, managed_fields
from errors import ApiError, not_found
from store import api_version, now_rfc3339

JOB_ORPHAN_WARNING = ('299 - "child pods are preserved by default when jobs are deleted; set '
                      'propagationPolicy=Background to remove them or set propagationPolicy=Orphan '
                      'to suppress this warning"')


def merge_json(target, patch):
    if not isinstance(patch, dict):
        return patch
    if not isinstance(target, dict):
        target = {}
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
        else:
            target[key] = merge_json(target.get(key), value)
    return target


def server_side_apply(handler, resource, kind, group, version, namespace, plural, name, query, body):
    content_type = handler.headers.get("Content-Type", "")
    if content_type.split(";")[0].strip() != "application/apply-patch+yaml":
        raise ApiError(415, "UnsupportedMediaType", f'the body of the request was in an unknown format - '
                       f'accepted media types include: application/apply-patch+yaml')
    manager = query.get("fieldManager", "")
    if not manager:
        raise ApiError(400, "BadRequest", 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: '
                       'Required value: is required for apply patch')
    try:
        intent = json.loads(body)
    except ValueError:
        import yaml
        intent = yaml.safe_load(body)
    if intent.get("kind") != kind or intent.get("apiVersion") != api_version(group, version):
        raise ApiError(400, "BadRequest", f"the object's kind/apiVersion does not match the URL ({kind})")
    if intent.get("metadata", {}).get("name") != name:
        raise ApiError(400, "BadRequest", "the name of the object does not match the name on the URL")
    if "managedFields" in intent.get("metadata", {}):
        raise ApiError(400, "BadRequest", "metadata.managedFields must be nil")
    dry_run = query.get("dryRun") == "All"
    store = handler.state.store
    with store.cond:
        if namespace is not None and namespace not in store.namespaces:
            raise not_found("namespaces", "", namespace)
        live = store.get(resource, namespace, name)
        key = (resource, namespace, name)
        if live is not None and live["metadata"].get("deletionTimestamp"):
            raise ApiError(409, "Conflict", f'object is being deleted: {plural} "{name}" already exists')
        owners = handler.state.owners.get(key, {})
        merged, new_owners = apply(live, intent, manager, query.get("force") in ("true", "1"), owners)
        check_immutable(kind, live, merged)
        check_pod_template(kind, group, merged)
        merged["metadata"]["managedFields"] = managed_fields(new_owners, api_version(group, version))
        if live is None:
            merged["metadata"]["namespace"] = namespace
            if dry_run:
                merged["metadata"].update({"uid": "dry-run", "creationTimestamp": now_rfc3339()})
                return handler.send_json(201, merged)
            handler.state.owners[key] = new_owners
            created = store.create(resource, namespace, merged)
            if kind == "Job":
                handler.state.cluster.job_written(namespace, created)
            return handler.send_json(201, store.get(resource, namespace, name), warning_headers(handler))
        unchanged = {k: v for k, v in merged.items() if k != "metadata"} == \
            {k: v for k, v in live.items() if k != "metadata"} and \
            merged["metadata"].get("labels") == live["metadata"].get("labels") and \
            merged["metadata"].get("annotations") == live["metadata"].get("annotations")
        if dry_run or (unchanged and new_owners == owners):
            return handler.send_json(200, merged if dry_run else live)
        handler.state.owners[key] = new_owners
        if merged.get("spec") != live.get("spec"):
            merged["metadata"]["generation"] = live["metadata"].get("generation", 1) + 1
        updated = store.update(resource, namespace, merged)
        if kind == "Job":
            handler.state.cluster.job_written(namespace, updated)
        return handler.send_json(200, updated, warning_headers(handler))


def merge_patch(handler, resource, kind, namespace, plural, group, name, body):
    """RFC 7386 JSON merge patch (what `kubectl patch --type merge` sends)."""
    try:
        patch = json.loads(body)
    except ValueError:
        raise ApiError(400, "BadRequest", "the body is not JSON")
    store = handler.state.store
    with store.cond:
        live = store.get(resource, namespace, name)
        if live is None:
            raise not_found(plural, group, name)
        merged = merge_json(copy.deepcopy(live), patch)
        if merged.get("spec") != live.get("spec"):
            merged["metadata"]["generation"] = live["metadata"].get("generation", 1) + 1
        updated = store.update(resource, namespace, merged)
        if kind == "Job":
            handler.state.cluster.job_written(namespace, updated)
        return handler.send_json(200, store.get(resource, namespace, name))


def warning_headers(handler):
    warning = getattr(handler, "pending_warning", None)
    return {"Warning": f'299 - "{warning}"'} if warning else {}


def delete(handler, resource, kind, group, namespace, plural, name, query, body):
    options = json.loads(body) if body else {}
    policy = query.get("propagationPolicy") or options.get("propagationPolicy")
    dry_run = query.get("dryRun") == "All"
    store = handler.state.store
    headers = {}
    with store.cond:
        obj = store.get(resource, namespace, name)
        if obj is None:
            raise not_found(plural, group, name)
        if dry_run:
            return handler.send_json(200, obj)
        if kind == "Job" and policy is None:
            headers["Warning"] = JOB_ORPHAN_WARNING
        dependents = []
        if kind == "Job" and policy in ("Background", "Foreground"):
            dependents = [("v1/pods", p) for p in store.list("v1/pods", namespace)
                          if any(o.get("uid") == obj["metadata"]["uid"] for o in p["metadata"].get("ownerReferences", []))]
        for res, target in [(resource, obj)] + dependents:
            if not target["metadata"].get("deletionTimestamp"):
                target["metadata"]["deletionTimestamp"] = now_rfc3339()
                store.update(res, namespace, target)
                if res == "v1/pods":
                    for (ns, pod, _, _), buf in handler.state.cluster.logs.items():
                        if ns == namespace and pod == target["metadata"]["name"]:
                            buf.closed = True
        handler.state.owners.pop((resource, namespace, name), None)
        answer = dict(obj)
    threading.Timer(handler.state.deletion_delay, finish_deletion,
                    args=[store, [(resource, obj)] + dependents, namespace]).start()
    handler.send_json(200, answer, headers)


def finish_deletion(store, targets, namespace):
    with store.cond:
        for resource, target in targets:
            store.remove(resource, namespace, target["metadata"]["name"])
