"""Serving a test server on a free port and telling the test which one."""
import os


def serve_on_announced_port(server, port_file):
    """Writes the server's port to port_file (atomically: the test polls for the file), then
    serves until killed."""
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()
