#include "output/jsonpath.h"

#include <string>

#include <doctest/doctest.h>

namespace trainjob {
namespace {

const Json& sample() {
  static const Json value = Json::parse(R"({
    "kind": "TrainJob",
    "metadata": {"name": "tune", "labels": {"app.kubernetes.io/name": "demo"}},
    "status": {
      "phase": "Complete",
      "conditions": [
        {"type": "Suspended", "status": "False"},
        {"type": "Complete", "status": "True", "reason": "AllJobsCompleted"}
      ],
      "nodes": [
        {"node": "node-0", "restarts": 0, "exitCode": 0},
        {"node": "node-1", "restarts": 2, "exitCode": 137}
      ]
    }
  })");
  return value;
}

std::string eval(const std::string& text) {
  std::string error;
  std::optional<std::string> out = evaluate_jsonpath(sample(), text, &error);
  return out ? *out : "ERROR " + error;
}

TEST_CASE("jsonpath: fields, text around them and string literals") {
  CHECK(eval("{.status.phase}") == "Complete");
  CHECK(eval("phase={.status.phase}{\"\\n\"}") == "phase=Complete\n");
  CHECK(eval("{$.metadata.name}") == "tune");
  CHECK(eval("{.metadata.labels.app\\.kubernetes\\.io/name}") == "demo");
  CHECK(eval("{.metadata['name']}") == "tune");
  CHECK(eval("{.status.missing}") == "");  // as kubectl get: a missing key prints nothing
}

TEST_CASE("jsonpath: indexes, slices, wildcards and recursive names") {
  CHECK(eval("{.status.nodes[0].node}") == "node-0");
  CHECK(eval("{.status.nodes[-1].node}") == "node-1");
  CHECK(eval("{.status.nodes[*].node}") == "node-0 node-1");
  CHECK(eval("{.status.nodes[0:1].node}") == "node-0");
  CHECK(eval("{.status.nodes[5].node}") == "");
  CHECK(eval("{..exitCode}") == "0 137");
  CHECK(eval("{.status.nodes[1]}") == R"({"node":"node-1","restarts":2,"exitCode":137})");
}

TEST_CASE("jsonpath: filters as the user guide queries conditions") {
  CHECK(eval("{.status.conditions[?(@.type==\"Complete\")].status}") == "True");
  CHECK(eval("{.status.conditions[?(@.type=='Complete')].reason}") == "AllJobsCompleted");
  CHECK(eval("{.status.conditions[?(@.status!=\"True\")].type}") == "Suspended");
  CHECK(eval("{.status.nodes[?(@.restarts>1)].node}") == "node-1");
  CHECK(eval("{.status.nodes[?(@.restarts<=0)].node}") == "node-0");
  CHECK(eval("{.status.conditions[?(@.reason)].type}") == "Complete");
}

TEST_CASE("jsonpath: range ... end repeats its body per element") {
  CHECK(eval("{range .status.nodes[*]}{.node}={.exitCode}{\"\\n\"}{end}") ==
        "node-0=0\nnode-1=137\n");
  CHECK(eval("{range .status.conditions}[{.type}]{end}") == "[Suspended][Complete]");
}

TEST_CASE("jsonpath: a template that cannot be read says why") {
  CHECK(eval("{.status.phase") == "ERROR jsonpath: unclosed '{' at offset 0 of the template");
  CHECK(eval("{range .status.nodes[*]}{.node}") == "ERROR jsonpath: {range} without {end}");
  CHECK(eval("{end}") == "ERROR jsonpath: {end} without {range}");
  CHECK(eval("{.status.nodes[x]}") == "ERROR jsonpath: expected an array index, found \"x\"");
  CHECK(eval("{}") == "ERROR jsonpath: empty {} in the template");
}

}  // namespace
}  // namespace trainjob
