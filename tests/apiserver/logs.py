"""Pod logs as the kubelet serves them: follow, timestamps, sinceTime, tailLines, previous."""
import time

from errors import ApiError
from store import parse_rfc3339, rfc3339_nano

PODS = "v1/pods"


def pick_container(pod, query):
    names = [c["name"] for c in pod["spec"].get("containers", [])]
    name = query.get("container")
    if name:
        if name not in names:
            raise ApiError(400, "BadRequest", f'container {name} is not valid for pod {pod["metadata"]["name"]}')
        return name
    if len(names) != 1:
        raise ApiError(400, "BadRequest", f'a container name must be specified for pod {pod["metadata"]["name"]}, '
                       f'choose one of: [{" ".join(names)}]')
    return names[0]


def stream_logs(handler, namespace, pod_name, query, rule):
    store, cluster = handler.state.store, handler.state.cluster
    with store.cond:
        pod = store.get(PODS, namespace, pod_name)
        if pod is None:
            raise ApiError(404, "NotFound", f'pods "{pod_name}" not found', kind="pods", name=pod_name)
        container = pick_container(pod, query)
        status = cluster.container_status(pod, container)
        instance = status["restartCount"]
        if query.get("previous") in ("true", "1"):
            if instance == 0:
                raise ApiError(400, "BadRequest", f'previous terminated container "{container}" in pod '
                               f'"{pod_name}" not found')
            instance -= 1
        elif "waiting" in status["state"] and (namespace, pod_name, container, instance) not in cluster.logs:
            reason = status["state"]["waiting"].get("reason", "")
            raise ApiError(400, "BadRequest", f'container "{container}" in pod "{pod_name}" is waiting to start: {reason}')
        buf = cluster.buffer(namespace, pod_name, container, instance)
        lines = list(buf.lines)
        lines_at_open = list(lines)
    follow = query.get("follow") in ("true", "1") and query.get("previous") not in ("true", "1")
    stamps = query.get("timestamps") in ("true", "1")
    since = None
    if query.get("sinceTime"):
        since = parse_rfc3339(query["sinceTime"])
    elif query.get("sinceSeconds"):
        since = time.time() - float(query["sinceSeconds"])
    if since is not None:
        lines = [entry for entry in lines if entry[0] >= since]
    if query.get("tailLines") is not None:
        tail = int(query["tailLines"])
        lines = lines[-tail:] if tail > 0 else []
    drop_after = rule.get("drop_after_bytes") if rule else None
    written = 0

    def encode(entry):
        text = entry[1] + "\n"
        return ((rfc3339_nano(entry[0]) + " " + text) if stamps else text).encode()

    handler.start_chunked("text/plain")
    snapshot_size = len(lines_at_open)
    position = lines_at_open.index(lines[-1]) + 1 if lines else snapshot_size
    for entry in lines:
        data = encode(entry)
        if drop_after is not None and written + len(data) > drop_after:
            handler.write_chunk(data[: drop_after - written])  # cut mid-line
            handler.drop_connection()
            return
        handler.write_chunk(data)
        written += len(data)
    while follow:
        with store.cond:
            while len(buf.lines) <= position and not buf.closed:
                store.cond.wait(1.0)
            fresh = buf.lines[position:]
            position = len(buf.lines)
            done = buf.closed and not fresh
        if done:
            break
        data = b"".join(encode(entry) for entry in fresh)
        if drop_after is not None and written + len(data) > drop_after:
            handler.write_chunk(data[: drop_after - written])
            handler.drop_connection()
            return
        handler.write_chunk(data)
        written += len(data)
    handler.end_chunked()
