// The Flux policy's pure parts: Z85, the CURVE certificate, the hostlist and script
// generators (ports of upstream's flux_test.go TestGenerateRange, TestGenerateHostlist,
// TestEncodeZ85 and TestBuildCurveSecret), and a whole compile with generated secrets.
#include <string>

#include <doctest/doctest.h>

#include "crypto/base64.h"
#include "load/yaml_loader.h"
#include "model/jobset_labels.h"
#include "model/runtime_registry.h"
#include "render/compile.h"
#include "render/policy/flux_curve.h"
#include "render/policy/flux_scripts.h"

using namespace trainjob;

namespace {

std::string bytes(std::initializer_list<unsigned> values) {
  std::string out;
  for (unsigned v : values)
    out.push_back(static_cast<char>(v));
  return out;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

FluxCluster cluster(int64_t nodes, int64_t tasks, int64_t gpus) {
  FluxCluster c;
  c.trainjob = "lammps";
  c.name_space = "hpc";
  c.nodes = nodes;
  c.tasks_per_node = tasks;
  c.gpus_per_node = gpus;
  return c;
}

}  // namespace

TEST_CASE("flux: Z85 encodes RFC 32's test vector and decodes it back") {
  std::string hello = bytes({0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B});
  CHECK(encode_z85(hello) == "HelloWorld");
  CHECK(decode_z85("HelloWorld") == hello);
  CHECK(encode_z85(std::string(4, '\0')) == "00000");
  CHECK(encode_z85(std::string(32, '\0'))->size() == 40);
  CHECK(encode_z85(std::string(4, '\xff')) == "%nSc0");
  CHECK(decode_z85("%nSc0") == std::string(4, '\xff'));
}

TEST_CASE("flux: Z85 refuses sizes that are not whole groups and bad characters") {
  CHECK_FALSE(encode_z85(bytes({1, 2, 3})));
  CHECK_FALSE(decode_z85("Hello Worl"));  // a space is no Z85 digit
  CHECK_FALSE(decode_z85("Hell"));
  CHECK_FALSE(decode_z85("#####"));  // 85^5 - 1 does not fit in 32 bits
  CHECK(decode_z85("") == std::string());
}

TEST_CASE("flux: a generated certificate parses back and its public key is its secret's") {
  std::optional<CurveKeyPair> keys = generate_curve_key_pair();
  REQUIRE(keys);
  CHECK(keys->public_key.size() == 32);
  CHECK(keys->secret_key.size() == 32);
  std::string cert = curve_certificate("test-job", *keys);
  // The layout flux keygen writes, with its 4-space indentation.
  CHECK(contains(cert, "metadata\n    name = \"test-job\"\ncurve\n    public-key = \""));
  CHECK(contains(cert, "\n    secret-key = \""));
  std::optional<CurveKeyPair> parsed = parse_curve_certificate(cert);
  REQUIRE(parsed);
  CHECK(parsed->public_key == keys->public_key);
  CHECK(parsed->secret_key == keys->secret_key);
  CHECK(curve_public_key(parsed->secret_key) == keys->public_key);
  // Fresh keys each time: no two TrainJobs share a certificate.
  CHECK(generate_curve_key_pair()->secret_key != keys->secret_key);
}

TEST_CASE("flux: the X25519 public key matches RFC 7748's test vector") {
  // RFC 7748 section 6.1, Alice's key pair.
  std::string secret = bytes({0x77, 0x07, 0x6d, 0x0a, 0x73, 0x18, 0xa5, 0x7d, 0x3c, 0x16, 0xc1,
                              0x72, 0x51, 0xb2, 0x66, 0x45, 0xdf, 0x4c, 0x2f, 0x87, 0xeb, 0xc0,
                              0x99, 0x2a, 0xb1, 0x77, 0xfb, 0xa5, 0x1d, 0xb9, 0x2c, 0x2a});
  std::string pub = bytes({0x85, 0x20, 0xf0, 0x09, 0x89, 0x30, 0xa7, 0x54, 0x74, 0x8b, 0x7d,
                           0xdc, 0xb4, 0x3e, 0xf7, 0x5a, 0x0d, 0xbf, 0x3a, 0x0d, 0x26, 0x38,
                           0x1a, 0xf4, 0xeb, 0xa4, 0xa9, 0x8e, 0xaa, 0x9b, 0x4e, 0x6a});
  CHECK(curve_public_key(secret) == pub);
  CHECK_FALSE(curve_public_key("short"));
}

TEST_CASE("flux: certificates without both keys do not parse") {
  CHECK_FALSE(parse_curve_certificate(""));
  CHECK_FALSE(parse_curve_certificate("curve\n    public-key = \"abc\"\n"));
  std::string bad_digit(40, '0');
  bad_digit[3] = ' ';
  CHECK_FALSE(parse_curve_certificate("    public-key = \"" + bad_digit +
                                      "\"\n    secret-key = \"" + std::string(40, '0') + "\"\n"));
  CHECK(parse_curve_certificate("    public-key = \"" + std::string(40, '0') +
                                "\"\n    secret-key = \"" + std::string(40, '0') + "\"\n"));
}

TEST_CASE("flux: ranges and hostlists as upstream writes them") {
  CHECK(flux_range(1, 0) == "0");
  CHECK(flux_range(4, 0) == "0-3");
  CHECK(flux_range(3, 10) == "10-12");
  CHECK(flux_hostlist("lammps-job", 1) == "lammps-job-node-0-[0]");
  CHECK(flux_hostlist("flux-cluster", 4) == "flux-cluster-node-0-[0-3]");
  CHECK(flux_hostlist("", 2) == "-node-0-[0-1]");
}

TEST_CASE("flux: run and resource flags count tasks per node and GPUs per task") {
  CHECK(flux_run_flags(cluster(2, 4, 0)) == "-N 2 -n 8");
  CHECK(flux_resource_flags(cluster(2, 4, 0)) == "--cores=0-3");
  CHECK(flux_run_flags(cluster(3, 1, 2)) == "-N 3 -n 3 -g 2");
  CHECK(flux_resource_flags(cluster(3, 1, 2)) == "--cores=0 --gpu=0-1");
  CHECK(flux_run_flags(cluster(INT64_MAX, 2, 0)) ==
        "-N " + std::to_string(INT64_MAX) + " -n " + std::to_string(INT64_MAX));
}

TEST_CASE("flux: the broker config addresses each pod by its DNS name") {
  std::string config = flux_broker_config(cluster(3, 1, 0));
  CHECK(contains(config, "default_bind = \"tcp://eth0:%p\"\n"));
  CHECK(contains(config, "default_connect = \"tcp://%h.lammps.hpc.svc.cluster.local:%p\"\n"));
  CHECK(contains(config, "hosts = [\n{ host=\"lammps-node-0-[0-2]\"},\n]\n"));
  CHECK(contains(config, "queue-policy = \"fcfs\"\n"));
  CHECK(contains(config, "curve_cert = \"/mnt/flux/config/etc/curve/curve.cert\"\n"));
  FluxCluster no_namespace = cluster(1, 1, 0);
  no_namespace.name_space.clear();
  no_namespace.settings.network_device = "ib0";
  no_namespace.settings.queue_policy = "easy";
  config = flux_broker_config(no_namespace);
  CHECK(contains(config, "default_connect = \"tcp://%h.lammps:%p\"\n"));
  CHECK(contains(config, "default_bind = \"tcp://ib0:%p\"\n"));
  CHECK(contains(config, "queue-policy = \"easy\"\n"));
}

TEST_CASE("flux: init.sh writes the hostlist and broker.toml; entrypoint.sh knows pod 0") {
  FluxCluster c = cluster(2, 4, 1);
  std::string init = flux_init_script(c);
  CHECK(contains(init, "hosts=\"lammps-node-0-[0-1]\"\n"));
  CHECK(contains(init, "<<'EOT'\n" + flux_broker_config(c) + "\nEOT\n"));
  std::string entry = flux_entrypoint_script(c);
  CHECK(contains(entry, "mainHost=\"lammps-node-0-0\"\n"));
  CHECK(contains(entry, "flux R encode --hosts=${hosts} --cores=0-3 --gpu=0 > /tmp/R\n"));
  CHECK(contains(entry, "flags=\"-N 2 -n 8 -g 1  \"\n"));
  for (const char* marker : {"@BASE@", "@HOSTS@", "@BROKER@", "@RESOURCES@", "@MAIN_HOST@",
                             "@FLAGS@", "@BIND@", "@CONNECT@", "@QUEUE@"}) {
    CHECK_FALSE(contains(entry, marker));  // every marker was filled
    CHECK_FALSE(contains(init, marker));
  }
}

TEST_CASE("flux: render with generated secrets emits the CURVE Secret, create-only-if-absent") {
  const char* text = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: flux-distributed}
spec:
  mlPolicy: {numNodes: 1, flux: {}}
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
            spec:
              template:
                spec:
                  containers: [{name: node, image: ubuntu:jammy}]
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: fx, namespace: hpc}
spec:
  runtimeRef: {name: flux-distributed}
  trainer: {numNodes: 2, command: [sleep, infinity]}
)";
  Diagnostics diagnostics;
  std::vector<Document> documents = load_documents("flux.yaml", text, &diagnostics);
  REQUIRE(documents.size() == 2);
  RuntimeRegistry registry;
  registry.add_layer("the inputs", documents);
  CompileOptions options;
  options.generate_secrets = true;
  std::vector<Json> objects = compile_trainjob(documents[1], registry, options, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  const Json* secret = nullptr;
  for (const Json& object : objects) {
    if (object["kind"] == "Secret") secret = &object;
  }
  REQUIRE(secret != nullptr);
  CHECK((*secret)["metadata"]["name"] == "fx-flux-curve");
  CHECK((*secret)["metadata"]["namespace"] == "hpc");
  CHECK((*secret)["metadata"]["annotations"][kCreateOnlyIfAbsentAnnotation] == "true");
  std::optional<std::string> cert =
      decode_base64((*secret)["data"]["curve.cert"].get<std::string>());
  REQUIRE(cert);
  CHECK(contains(*cert, "name = \"fx\""));
  std::optional<CurveKeyPair> keys = parse_curve_certificate(*cert);
  REQUIRE(keys);
  CHECK(curve_public_key(keys->secret_key) == keys->public_key);
  // Without the option: no Secret, and a warning says it must exist.
  Diagnostics quiet;
  objects = compile_trainjob(documents[1], registry, {}, &quiet);
  for (const Json& object : objects)
    CHECK(object["kind"] != "Secret");
  CHECK(quiet.all().size() == 1);
}
