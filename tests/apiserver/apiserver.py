#!/usr/bin/python3
"""A Kubernetes API server for tests: what kubectl-trainjob and `kubectl get` use, over TLS.

    apiserver.py --cert server.pem --key server-key.pem --client-ca ca.pem --tokens tokens.json \
                 --port-file port [--port 0]

Tests drive pods and jobs and inject faults through /admin/* (see admin.py); every other
path needs a client certificate signed by --client-ca or a bearer token from --tokens.
"""
import argparse
import json
import os
import socket
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from admin import handle_admin  # noqa: E402
from cluster import Cluster  # noqa: E402
from discovery import discovery  # noqa: E402
from errors import ApiError, not_found  # noqa: E402
from faults import Faults  # noqa: E402
from logs import stream_logs  # noqa: E402
from serve import serve_on_announced_port  # noqa: E402
from store import RESOURCES, Store, api_version  # noqa: E402
from tables import table  # noqa: E402
from watch import watch  # noqa: E402
from writes import delete, merge_patch, server_side_apply  # noqa: E402

class State:
    def __init__(self, args):
        self.store = Store()
        self.cluster = Cluster(self.store)
        self.faults = Faults()
        self.tokens = {}
        self.owners = {}  # (resource, namespace, name) -> {path: manager}
        self.requests = []  # resource requests: what tests count
        self.discovery_requests = []  # /api, /apis, /apis/GROUP/VERSION: kept apart
        self.history = []  # every change, never compacted: for tests that check ordering
        self.store.on_change = lambda rv, resource, kind, obj: self.history.append(
            {"rv": rv, "type": kind, "resource": resource, "name": obj["metadata"]["name"],
             "conditions": [c["type"] for c in obj.get("status", {}).get("conditions", []) if c.get("status") == "True"]})
        self.deletion_delay = args.deletion_delay
        if args.tokens:
            with open(args.tokens) as f:
                self.tokens.update(json.load(f))


def parse_resource_path(path):
    """-> (group, version, namespace, plural, name, subresource) or None."""
    parts = [p for p in path.split("/") if p]
    if parts[:2] == ["api", "v1"]:
        group, version, rest = "", "v1", parts[2:]
    elif len(parts) >= 3 and parts[0] == "apis":
        group, version, rest = parts[1], parts[2], parts[3:]
    else:
        return None
    namespace = None
    if len(rest) >= 2 and rest[0] == "namespaces" and len(rest) != 2:
        namespace, rest = rest[1], rest[2:]
    if not rest or (group, version, rest[0]) not in RESOURCES:
        return None
    name = rest[1] if len(rest) > 1 else None
    sub = rest[2] if len(rest) > 2 else None
    return group, version, namespace, rest[0], name, sub


def is_discovery_path(path):
    """/version, /api, /api/v1, /apis, /apis/GROUP, /apis/GROUP/VERSION (served or not)."""
    parts = [p for p in path.split("/") if p]
    return parts in (["version"], ["api"], ["api", "v1"]) or (parts[:1] == ["apis"] and len(parts) <= 3)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set by main

    def log_message(self, fmt, *args):
        pass

    def setup(self):
        super().setup()
        # Headers and body go out in separate writes: without this, Nagle's algorithm and
        # delayed ACKs add 40 ms to every answer.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            self.request.do_handshake()
        except (ssl.SSLError, OSError):
            self.close_connection = True

    # --- plumbing ---------------------------------------------------------------------
    def send_json(self, code, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def send_error_status(self, error):
        headers = dict(error.headers)
        if error.retry_after is not None:
            headers["Retry-After"] = str(error.retry_after)
        self.send_json(error.code, error.status(), headers)

    def start_chunked(self, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def write_chunk(self, data):
        if data:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

    def end_chunked(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def drop_connection(self):
        """A connection cut mid-stream: no final chunk."""
        self.wfile.flush()
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def authenticate(self):
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Bearer "):
            entry = self.state.tokens.get(auth[7:])
            if entry is None or (entry.get("expires") and entry["expires"] < time.time()):
                raise ApiError(401, "Unauthorized", "Unauthorized")
            return entry
        cert = self.connection.getpeercert() if hasattr(self.connection, "getpeercert") else None
        if cert:
            for rdn in cert.get("subject", ()):
                for key, value in rdn:
                    if key == "commonName":
                        return {"user": value}
        raise ApiError(401, "Unauthorized", "Unauthorized")

    # --- dispatch ---------------------------------------------------------------------
    def do_GET(self):
        self.dispatch("GET")

    def do_PATCH(self):
        self.dispatch("PATCH")

    def do_DELETE(self):
        self.dispatch("DELETE")

    def do_POST(self):
        self.dispatch("POST")

    def do_PUT(self):
        self.dispatch("PUT")

    def dispatch(self, method):
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        body = self.read_body()
        try:
            if url.path.startswith("/admin/"):
                return handle_admin(self, method, url.path, query, body)
            user = self.authenticate()
            with self.state.store.cond:
                entry = {"method": method, "path": url.path, "query": query, "user": user["user"],
                         "time": time.time()}
                discovering = method == "GET" and is_discovery_path(url.path)
                (self.state.discovery_requests if discovering else self.state.requests).append(entry)
            rule = self.state.faults.match(method, url.path, query)
            if rule and rule.get("delay"):
                time.sleep(rule["delay"])
            if rule and rule.get("status"):
                raise ApiError(rule["status"], rule.get("reason", "InternalError"),
                               rule.get("message", "injected fault"), retry_after=rule.get("retry_after"),
                               causes=rule.get("causes"))
            if rule and rule.get("warning"):
                self.pending_warning = rule["warning"]
            self.route(method, url.path, query, body, user, rule)
        except ApiError as error:
            self.send_error_status(error)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            self.close_connection = True

    def route(self, method, path, query, body, user, rule):
        answer = discovery(path, self.headers.get("Host", ""))
        if answer is not None and method == "GET":
            return self.send_json(200, answer)
        parsed = parse_resource_path(path)
        if parsed is None:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        group, version, namespace, plural, name, sub = parsed
        kind, namespaced = RESOURCES[(group, version, plural)]
        resource = f"{api_version(group, version)}/{plural}"
        if method != "GET" and user.get("readonly"):
            verb = {"PATCH": "patch", "DELETE": "delete", "POST": "create", "PUT": "update"}[method]
            qualified = f"{plural}.{group}" if group else plural
            raise ApiError(403, "Forbidden",
                           f'{qualified} "{name or ""}" is forbidden: User "{user["user"]}" cannot {verb} '
                           f'resource "{plural}" in API group "{group}" in the namespace "{namespace}"')
        if sub == "log" and method == "GET":
            return stream_logs(self, namespace, name, query, rule)
        if name is None and method == "GET":
            if query.get("watch") in ("1", "true"):
                return watch(self, resource, kind, namespace, query, rule)
            return self.list(resource, kind, group, version, namespace, query)
        if name is None:
            raise ApiError(405, "MethodNotAllowed", f"{method} is not supported on a collection here")
        if plural == "namespaces" and method == "GET":
            if name not in self.state.store.namespaces:
                raise not_found("namespaces", "", name)
            return self.send_json(200, {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name},
                                        "status": {"phase": "Active"}})
        if method == "GET":
            with self.state.store.cond:
                obj = self.state.store.get(resource, namespace, name)
            if obj is None:
                raise not_found(plural, group, name)
            return self.send_json(200, obj)
        if method == "PATCH" and self.headers.get("Content-Type", "").startswith("application/merge-patch+json"):
            return merge_patch(self, resource, kind, namespace, plural, group, name, body)
        if method == "PATCH":
            return server_side_apply(self, resource, kind, group, version, namespace, plural, name, query, body)
        if method == "DELETE":
            return delete(self, resource, kind, group, namespace, plural, name, query, body)
        raise ApiError(405, "MethodNotAllowed", f"{method} is not supported here")

    def list(self, resource, kind, group, version, namespace, query):
        with self.state.store.cond:
            items = self.state.store.list(resource, namespace, query.get("labelSelector", ""),
                                          query.get("fieldSelector", ""))
            rv = str(self.state.store.rv)
        if "as=Table" in self.headers.get("Accept", ""):
            return self.send_json(200, table(kind, items, rv))
        self.send_json(200, {"kind": kind + "List", "apiVersion": api_version(group, version),
                             "metadata": {"resourceVersion": rv},
                             "items": [dict(item, kind=kind, apiVersion=api_version(group, version)) for item in items]})

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--client-ca")
    parser.add_argument("--tokens")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--deletion-delay", type=float, default=0.2)
    args = parser.parse_args()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    if args.client_ca:
        context.load_verify_locations(args.client_ca)
        context.verify_mode = ssl.CERT_OPTIONAL
    Handler.state = State(args)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    serve_on_announced_port(server, args.port_file)


if __name__ == "__main__":
    main()
