#!/usr/bin/env bash
# Upstream's progress protocol: rank 0 POSTs its progress to an HTTPS status server on
# loopback (a test CA and server certificate made here, a bearer token in a file, as the
# controller's TrainJobStatus feature mounts them), and trains on when the server is down or
# refuses it, saying so once.
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

# Records every request as a JSON line in requests.jsonl; answers 200 to the right token,
# 403 to another, as the controller's server does.
start_status_server() {
  python3 - "$work" test-token <<'PY' &
import http.server, json, os, ssl, sys
work, token = sys.argv[1], sys.argv[2]
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(f"{work}/requests.jsonl", "a") as log:
            log.write(json.dumps({"method": self.command, "path": self.path,
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
  trap 'kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
  for _ in $(seq 100); do [ -s "$work/port" ] && return 0; sleep 0.05; done
  return 1
}

make_test_certificates || { echo "openssl could not make the test certificates" >&2; exit 1; }
start_status_server || { echo "the status server did not start" >&2; exit 1; }
status_path=/apis/trainer.kubeflow.org/v1alpha1/namespaces/team-a/trainjobs/sweep-7/status
url="https://127.0.0.1:$(cat "$work/port")$status_path"
printf 'test-token\n' >"$work/token"

run_reporting() {  # run_reporting URL TOKEN_FILE OUTPUT: a tiny linear run that reports
  KUBEFLOW_TRAINER_SERVER_URL=$1 KUBEFLOW_TRAINER_SERVER_CA_CERT="$work/ca.crt" \
    KUBEFLOW_TRAINER_SERVER_TOKEN=$2 "$trainer" --master-port "$(free_port)" --epochs 3 \
    >"$3.out" 2>"$3.err"
}

run_reporting "$url" "$work/token" "$work/reported"
check "reporting: training exits 0" [ $? -eq 0 ]
check "reporting: says where it reports" has "$work/reported.out" \
  "^\[rank 0\] reporting progress to $url\$"
check "reporting: no warning" lacks "$work/reported.err" 'progress not reported'
check "reporting: the requests are upstream's" python3 - "$work/requests.jsonl" "$status_path" <<'PY'
import json, re, sys
requests = [json.loads(line) for line in open(sys.argv[1])]
# A run far shorter than 5 s: the first report at once, and the last at the end.
assert len(requests) == 2, len(requests)
for request in requests:
    assert request["method"] == "POST" and request["path"] == sys.argv[2], request
    assert request["authorization"] == "Bearer test-token", request
    assert request["contentType"] == "application/json", request
    status = json.loads(request["body"])["trainerStatus"]
    assert set(status) <= {"progressPercentage", "estimatedRemainingSeconds", "metrics",
                           "lastUpdatedTime"}, status
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", status["lastUpdatedTime"]), status
first = json.loads(requests[0]["body"])["trainerStatus"]
last = json.loads(requests[-1]["body"])["trainerStatus"]
assert first["progressPercentage"] == 33, first
assert last["progressPercentage"] == 100 and last["estimatedRemainingSeconds"] == 0, last
names = [metric["name"] for metric in last["metrics"]]
assert names == ["loss", "samplesPerSecond"], names
assert all(isinstance(metric["value"], str) for metric in last["metrics"]), last
PY

# Three runs the server does not take, side by side (each is mostly libtorch's loading): no
# token, a token it refuses, and no server at all.
printf 'another-token\n' >"$work/other-token"
start=$(date +%s%N)
run_reporting "$url" /dev/null "$work/untokened" &
untokened=$!
run_reporting "$url" "$work/other-token" "$work/forbidden" &
forbidden=$!
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
check "server down: within 5 s" [ $(($(date +%s%N) - start)) -lt 5000000000 ]
finish
