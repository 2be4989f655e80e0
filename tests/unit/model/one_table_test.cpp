// Facts kept in one table each: the tables that must follow them are checked against them
// here, so adding an ML policy or an operator kind is one entry where CONTRIBUTING.md says.
#include <cstring>
#include <string>

#include <doctest/doctest.h>

#include "legacy/legacy_kinds.h"
#include "model/runtime_policy.h"
#include "render/policy/plugins.h"
#include "status/trainjob_names.h"

TEST_CASE("one table: each ML policy of the model has its plugin, in the same order") {
  const auto& names = trainjob::ml_policy_names();
  const auto& plugins = trainjob::policy_plugins();
  REQUIRE(plugins.size() == names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    CAPTURE(names[i].name);
    CHECK(std::strcmp(plugins[i]->name, names[i].name) == 0);
    CHECK(trainjob::policy_releases(names[i].name).first == names[i].since);
  }
}

TEST_CASE("one table: each operator kind is one the cluster commands manage") {
  for (const trainjob::LegacyKind* kind : trainjob::all_legacy_kinds()) {
    CAPTURE(kind->kind);
    const trainjob::ManagedKind* managed = trainjob::find_managed_kind(kind->kind);
    REQUIRE(managed != nullptr);
    CHECK(managed->kind == kind->kind);
    CHECK(std::string(kind->api_version).rfind(managed->group + "/", 0) == 0);
  }
}
