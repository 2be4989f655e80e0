#!/usr/bin/env bash
# Upstream's progress protocol: rank 0 POSTs its progress to an HTTPS status server on
# loopback (a test CA and server certificate made here, a bearer token in a file, as the
# controller's TrainJobStatus feature mounts them), and trains on when the server is down,
# refuses it or never answers, saying so once. Every check holds on a loaded machine: counts
# are bounded by what the protocol promises, measured with the server's own clock, and the
# one time bound is the exit's wait for the server, measured from the trainer's last line.
. "$(dirname "$0")/lib.sh"
command -v openssl >/dev/null && command -v python3 >/dev/null || exit 77

# The CA, and a certificate for 127.0.0.1 that it signs.
make_test_certificates() {
  local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -x509 "${ec[@]}" -keyout "$work/ca.key" -out "$work/ca.crt" -days 1 \
    -subj /CN=trainjob-test-ca 2>/dev/null &&
    openssl req "${ec[@]}" -keyout "$work/server.key" -out "$work/server.csr" \
      -subj /CN=127.0.0.1 2>/dev/null &&
    printf 'subjectAltName=IP:127.0.0.1\n' >"$work/san.ext" &&
    openssl x509 -req -in "$work/server.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" \
      -CAcreateserial -days 1 -extfile "$work/san.ext" -out "$work/server.crt" 2>/dev/null
}

# Records every request as a JSON line in requests.jsonl, with the time it came (the
# server's monotonic clock, in seconds); answers 200 to the right token, 403 to another, as
# the controller's server does.
start_status_server() {
  python3 - "$work" test-token <<'PY' &
import http.server, json, os, ssl, sys, time
work, token = sys.argv[1], sys.argv[2]
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        came = time.monotonic()
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(f"{work}/requests.jsonl", "a") as log:
            log.write(json.dumps({"time": came, "method": self.command, "path": self.path,
                                  "authorization": self.headers.get("Authorization"),
                                  "contentType": self.headers.get("Content-Type"),
                                  "body": body.decode()}) + "\n")
        allowed = self.headers.get("Authorization") == f"Bearer {token}"
        answer = body if allowed else b'{"kind":"Status","message":"Forbidden","code":403}'
        self.send_response(200 if allowed else 403)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(f"{work}/server.crt", f"{work}/server.key")
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(f"{work}/port.tmp", "w") as out:
    out.write(str(server.server_address[1]))
os.rename(f"{work}/port.tmp", f"{work}/port")
server.serve_forever()
PY
  server_pid=$!
  trap 'kill "$server_pid" ${silent_pid:-} 2>/dev/null; rm -rf "$work"' EXIT
  wait_for_file "$work/port"
}

# A server that takes connections (the kernel's backlog) and never reads or answers them.
start_silent_server() {
  python3 - "$work" <<'PY' &
import os, socket, sys, time
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(16)
with open(f"{sys.argv[1]}/silent-port.tmp", "w") as out:
    out.write(str(listener.getsockname()[1]))
os.rename(f"{sys.argv[1]}/silent-port.tmp", f"{sys.argv[1]}/silent-port")
while True:
    time.sleep(3600)
PY
  silent_pid=$!
  wait_for_file "$work/silent-port"
}

wait_for_file() {  # until a starting server has written it; 20 s at most
  for _ in $(seq 400); do [ -s "$1" ] && return 0; sleep 0.05; done
  return 1
}

make_test_certificates || { echo "openssl could not make the test certificates" >&2; exit 1; }
start_status_server || { echo "the status server did not start" >&2; exit 1; }
start_silent_server || { echo "the silent server did not start" >&2; exit 1; }
status_path=/apis/trainer.kubeflow.org/v1alpha1/namespaces/team-a/trainjobs/sweep-7/status
url="https://127.0.0.1:$(cat "$work/port")$status_path"
printf 'test-token\n' >"$work/token"

# Runs a command with its stdout into OUTPUT.out, its stderr into OUTPUT.err, and writes to
# OUTPUT.wait the milliseconds from rank 0's last line (its parameter checksum, printed before
# the last report is sent) to the command's exit; exits with the command's status.
timed_run() {  # timed_run OUTPUT COMMAND...
  python3 - "$@" <<'PY'
import subprocess, sys, time
output, command = sys.argv[1], sys.argv[2:]
last_line = None
with open(f"{output}.out", "wb") as out, open(f"{output}.err", "wb") as err:
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err)
    for line in child.stdout:
        out.write(line)
        if line.startswith(b"[rank 0] parameter checksum"):
            last_line = time.monotonic()
    status = child.wait()
exited = time.monotonic()
with open(f"{output}.wait", "w") as wait:
    wait.write(str(round((exited - last_line) * 1000)) if last_line is not None else "none")
sys.exit(status)
PY
}

run_reporting() {  # run_reporting URL TOKEN_FILE OUTPUT: a tiny linear run that reports
  KUBEFLOW_TRAINER_SERVER_URL=$1 KUBEFLOW_TRAINER_SERVER_CA_CERT="$work/ca.crt" \
    KUBEFLOW_TRAINER_SERVER_TOKEN=$2 timed_run "$3" "$trainer" --master-port "$(free_port)" \
    --epochs 3
}

# The run's exit came at most MILLISECONDS after rank 0's last line: the wait for the server
# plus the worker's and the launcher's own exit (up to about 1 s on a busy 2-core machine).
exit_waited_at_most() {  # exit_waited_at_most OUTPUT MILLISECONDS
  local waited
  waited=$(cat "$1.wait")
  [ "$waited" != none ] && [ "$waited" -le "$2" ] ||
    { echo "$1: the exit waited $waited ms (at most $2 expected)" >&2; return 1; }
}

run_reporting "$url" "$work/token" "$work/reported"
check "reporting: training exits 0" [ $? -eq 0 ]
check "reporting: says where it reports" has "$work/reported.out" \
  "^\[rank 0\] reporting progress to $url\$"
check "reporting: no warning" lacks "$work/reported.err" 'progress not reported'
check "reporting: the requests are upstream's" python3 - "$work/requests.jsonl" "$status_path" <<'PY'
import json, math, re, sys
requests = [json.loads(line) for line in open(sys.argv[1])]
# At most one call per 5 s, and the last report at the end. The first call came at most one
# call timeout (2.5 s) after it was started, so requests that span T s by the server's clock
# are at most 2 + floor((T + 2.5) / 5). (Reports a busy machine let the next one supersede
# before the reporting thread woke are dropped, so there may be just one, the last.)
span = requests[-1]["time"] - requests[0]["time"]
assert 1 <= len(requests) <= 2 + math.floor((span + 2.5) / 5), (len(requests), span)
for request in requests:
    assert request["method"] == "POST" and request["path"] == sys.argv[2], request
    assert request["authorization"] == "Bearer test-token", request
    assert request["contentType"] == "application/json", request
    status = json.loads(request["body"])["trainerStatus"]
    assert set(status) <= {"progressPercentage", "estimatedRemainingSeconds", "metrics",
                           "lastUpdatedTime"}, status
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", status["lastUpdatedTime"]), status
# Epoch ends of a 3-epoch run, in order, the last one last.
percentages = [json.loads(r["body"])["trainerStatus"]["progressPercentage"] for r in requests]
assert percentages == sorted(set(percentages)) and set(percentages) <= {33, 66, 100}, percentages
last = json.loads(requests[-1]["body"])["trainerStatus"]
assert last["progressPercentage"] == 100 and last["estimatedRemainingSeconds"] == 0, last
names = [metric["name"] for metric in last["metrics"]]
assert names == ["loss", "samplesPerSecond"], names
assert all(isinstance(metric["value"], str) for metric in last["metrics"]), last
PY

# Four runs the server does not take, side by side (each is mostly libtorch's loading): no
# token, a token it refuses, no server at all, and a server that never answers.
printf 'another-token\n' >"$work/other-token"
run_reporting "$url" /dev/null "$work/untokened" &
untokened=$!
run_reporting "$url" "$work/other-token" "$work/forbidden" &
forbidden=$!
run_reporting "https://127.0.0.1:$(cat "$work/silent-port")$status_path" "$work/token" \
  "$work/silent" &
silent=$!
run_reporting "https://127.0.0.1:$(free_port)$status_path" "$work/token" "$work/down"
down_status=$?
wait "$untokened"
check "no token: training exits 0" [ $? -eq 0 ]
check "no token: said once, naming the token file" \
  [ "$(grep -c 'progress not reported.*: the token file /dev/null is empty' \
    "$work/untokened.err")" -eq 1 ]
wait "$forbidden"
check "forbidden: training exits 0" [ $? -eq 0 ]
check "forbidden: said once, with the server's answer" \
  [ "$(grep -c 'progress not reported.*: HTTP 403: {"kind":"Status"' "$work/forbidden.err")" -eq 1 ]
check "server down: training exits 0" [ "$down_status" -eq 0 ]
check "server down: trained" has "$work/down.out" '^Final parameters:'
check "server down: said once" [ "$(grep -c 'progress not reported' "$work/down.err")" -eq 1 ]
check "server down: the exit did not wait a call timeout" exit_waited_at_most "$work/down" 2500
wait "$silent"
check "silent server: training exits 0" [ $? -eq 0 ]
check "silent server: trained" has "$work/silent.out" '^Final parameters:'
check "silent server: said once, a timeout" \
  [ "$(grep -c 'progress not reported.*[Tt]imed\? \?out' "$work/silent.err")" -eq 1 ]
# A call in flight and the last one share the 2.5 s: the exit never waits two timeouts (5 s,
# as it did when the last call had 2.5 s of its own).
check "silent server: the exit waited one call timeout at most" \
  exit_waited_at_most "$work/silent" 4500
finish
