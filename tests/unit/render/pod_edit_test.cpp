#include "render/pod_edit.h"

#include <doctest/doctest.h>

using trainjob::Json;
using trainjob::place_policy_env;

namespace {

Json names(const Json& container) {
  Json out = Json::array();
  for (const Json& var : container["env"])
    out.push_back(var["name"]);
  return out;
}

}  // namespace

TEST_CASE("policy env: before spec.trainer.env, a TrainJob's value where the policy put it") {
  // The runtime's RUNTIME_VAR, then the TrainJob's B (a policy variable) and LOG_LEVEL.
  Json container = {{"env",
                     {{{"name", "RUNTIME_VAR"}, {"value", "r"}},
                      {{"name", "B"}, {"value", "user"}},
                      {{"name", "LOG_LEVEL"}, {"value", "info"}}}}};
  Json trainer_env = {{{"name", "B"}, {"value", "user"}},
                      {{"name", "LOG_LEVEL"}, {"value", "info"}}};
  Json policy = {{{"name", "A"}, {"value", "1"}}, {{"name", "B"}, {"value", "2"}}};
  place_policy_env(&container, policy, trainer_env);
  CHECK(names(container) == Json{"RUNTIME_VAR", "A", "B", "LOG_LEVEL"});
  CHECK(container["env"][2]["value"] == "user");
}

TEST_CASE("policy env: a runtime's own variable keeps its place and value") {
  Json container = {{"env", {{{"name", "A"}, {"value", "runtime"}}}}};
  place_policy_env(&container,
                   Json{{{"name", "A"}, {"value", "1"}}, {{"name", "C"}, {"value", "3"}}}, Json());
  CHECK(names(container) == Json{"A", "C"});
  CHECK(container["env"][0]["value"] == "runtime");
}
