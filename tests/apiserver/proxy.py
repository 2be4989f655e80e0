#!/usr/bin/python3
"""An HTTP CONNECT proxy for tests of `proxy-url`: tunnels bytes and appends each CONNECT
target to a log file.

    proxy.py --port-file FILE --log FILE
"""
import argparse
import select
import socket
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from serve import serve_on_announced_port


class Proxy(BaseHTTPRequestHandler):
    log_path = None

    def log_message(self, fmt, *args):
        pass

    def do_CONNECT(self):
        host, _, port = self.path.rpartition(":")
        with open(self.log_path, "a") as log:
            log.write(self.path + "\n")
        try:
            upstream = socket.create_connection((host, int(port)))
        except OSError:
            self.send_error(502)
            return
        self.send_response(200, "Connection established")
        self.end_headers()
        sockets = [self.connection, upstream]
        while True:
            ready, _, _ = select.select(sockets, [], [], 30)
            if not ready:
                break
            for sock in ready:
                data = sock.recv(65536)
                if not data:
                    upstream.close()
                    return
                (upstream if sock is self.connection else self.connection).sendall(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    Proxy.log_path = args.log
    server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    server.daemon_threads = True
    serve_on_announced_port(server, args.port_file)


if __name__ == "__main__":
    main()
