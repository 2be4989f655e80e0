"""Watch streams: newline-delimited events after a resourceVersion, 410 once compacted."""
import json
import time

from store import selector_matches, fields_match


def event_line(kind, obj):
    return (json.dumps({"type": kind, "object": obj}) + "\n").encode()


def watch(handler, resource, kind, namespace, query, rule):
    store = handler.state.store
    selector, fields = query.get("labelSelector", ""), query.get("fieldSelector", "")
    timeout = min(float(query.get("timeoutSeconds", 60)), 300)
    deadline = time.time() + timeout
    since = query.get("resourceVersion", "")
    drop_after = rule.get("drop_after_events") if rule else None
    sent = 0

    def matches(res, ns, obj):
        return res == resource and (namespace is None or ns == namespace) and \
            selector_matches(selector, obj["metadata"].get("labels")) and fields_match(fields, obj)

    handler.start_chunked("application/json")
    with store.cond:
        compactions = store.compactions
        if since not in ("", "0") and int(since) < store.compacted_rv:
            status = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "Expired", "code": 410,
                      "message": f"too old resource version: {since} ({store.compacted_rv})"}
            handler.write_chunk(event_line("ERROR", status))
            handler.end_chunked()
            return
        last = int(since) if since not in ("", "0") else store.rv
        if since in ("", "0"):  # no version: the current objects come first, as ADDED
            for obj in store.list(resource, namespace, selector, fields):
                handler.write_chunk(event_line("ADDED", dict(obj, kind=kind)))
    while True:
        with store.cond:
            pending = [e for e in store.events if e[0] > last]
            if not pending:
                remaining = deadline - time.time()
                if remaining <= 0:
                    break
                store.cond.wait(min(remaining, 1.0))
                if store.compactions != compactions:  # the watch cache was reset under us
                    status = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "Expired",
                              "code": 410, "message": "too old resource version"}
                    handler.write_chunk(event_line("ERROR", status))
                    break
                continue
        for rv, res, ns, event_type, obj in pending:
            last = rv
            if matches(res, ns, obj):
                handler.write_chunk(event_line(event_type, dict(obj, kind=kind)))
                sent += 1
                if drop_after is not None and sent >= drop_after:
                    handler.drop_connection()
                    return
    handler.end_chunked()
