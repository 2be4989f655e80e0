#!/usr/bin/python3
"""Drives the test API server from shell tests.

    ctl.py DIR ACTION [JSON]      POST /admin/ACTION with JSON (@FILE: from a file)
    ctl.py DIR get requests        GET /admin/requests

DIR is the directory `start.sh` set up (it holds `port` and `ca.pem`).
"""
import json
import os
import ssl
import sys
import urllib.request


def main():
    directory, action = sys.argv[1], sys.argv[2]
    with open(os.path.join(directory, "port")) as f:
        port = f.read().strip()
    context = ssl.create_default_context(cafile=os.path.join(directory, "ca.pem"))
    if action == "get":
        request = urllib.request.Request(f"https://127.0.0.1:{port}/admin/{sys.argv[3]}")
    else:
        body = sys.argv[3] if len(sys.argv) > 3 else "{}"
        if body.startswith("@"):  # a body too long for the command line
            with open(body[1:]) as f:
                body = f.read()
        body = body.encode()
        request = urllib.request.Request(f"https://127.0.0.1:{port}/admin/{action}", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, context=context) as response:
            print(response.read().decode())
    except urllib.error.HTTPError as error:
        print(error.read().decode(), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
