// `run --local` writes volumes beneath its work directory only, read-only where the
// kubelet would mount them so, and refuses a host path that leads to a system directory.
#include "local/local_volumes.h"

#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "../../support/temp_dir.h"

namespace trainjob {
namespace {

using testing::mode_of;
using testing::TempDir;

LocalPlan plan_of(std::vector<LocalVolume> volumes) {
  LocalPod pod;
  pod.name = "tj-node-0-0-local";
  pod.volumes = std::move(volumes);
  LocalPlan plan;
  plan.stages.push_back({pod});
  return plan;
}

LocalVolume config_map_volume(const std::string& root, const Json& source, const Json* map) {
  LocalVolume volume;
  volume.name = "code";
  volume.kind = LocalVolume::Kind::kConfigMap;
  volume.work_relative = "tj-node-0-0-local/code";
  volume.host_dir = root + "/" + volume.work_relative;
  volume.source = source;
  volume.config_map = map;
  volume.read_only = true;
  return volume;
}

TEST_CASE("configMap files and their directories are written read-only beneath the work dir") {
  TempDir work;
  RootDir root;
  std::string error;
  REQUIRE(root.open(work.path, &error));
  Json map = Json::parse(R"J({"data": {"train.py": "print(1)", "run.sh": "echo"}})J");
  Json source = Json::parse(R"J({"name": "code", "defaultMode": 493, "items": [
      {"key": "train.py", "path": "src/deep/train.py", "mode": 420}, {"key": "run.sh"}]})J");
  REQUIRE(materialize_volumes(plan_of({config_map_volume(work.path, source, &map)}), root, false,
                              &error));
  std::string dir = work.path + "/tj-node-0-0-local/code";
  CHECK(mode_of(dir + "/src/deep/train.py") == 0444);
  CHECK(mode_of(dir + "/run.sh") == 0555);  // 0755 without write
  CHECK(mode_of(dir + "/src/deep") == 0555);
  CHECK(mode_of(dir + "/src") == 0555);
  CHECK(mode_of(dir) == 0555);
  CHECK(::access((dir + "/src/new").c_str(), F_OK) != 0);
  // remove_tree copes with what it made read-only.
  CHECK(remove_tree(work.path + "/tj-node-0-0-local"));
}

TEST_CASE("a setuid mode that slipped past the plan is masked, never created") {
  TempDir work;
  RootDir root;
  std::string error;
  REQUIRE(root.open(work.path, &error));
  Json map = Json::parse(R"J({"data": {"tool": "#!/bin/sh"}})J");
  LocalVolume volume =
      config_map_volume(work.path, Json::parse(R"J({"defaultMode": 2541})J"), &map);
  volume.read_only = false;
  REQUIRE(materialize_volumes(plan_of({volume}), root, false, &error));
  CHECK(mode_of(work.path + "/tj-node-0-0-local/code/tool") == 0755);
}

TEST_CASE("an items path that slipped past the plan still cannot leave the work dir") {
  TempDir parent;
  std::string inner = parent.path + "/work";
  REQUIRE(::mkdir(inner.c_str(), 0700) == 0);
  RootDir root;
  std::string error;
  REQUIRE(root.open(inner, &error));
  Json map = Json::parse(R"J({"data": {"k": "x"}})J");
  Json source = Json::parse(R"J({"items": [{"key": "k", "path": "../../../x"}]})J");
  CHECK_FALSE(
      materialize_volumes(plan_of({config_map_volume(inner, source, &map)}), root, false, &error));
  CHECK(error.find("pod tj-node-0-0-local, volume \"code\": refused path") == 0);
  CHECK(mode_of(parent.path + "/x") == 01000000);
}

TEST_CASE("a host path that resolves to a system directory is refused unless allowed") {
  TempDir work;
  RootDir root;
  std::string error;
  REQUIRE(root.open(work.path, &error));
  std::string link = work.path + "/to-etc";
  REQUIRE(::symlink("/etc", link.c_str()) == 0);
  LocalVolume volume;
  volume.name = "conf";
  volume.kind = LocalVolume::Kind::kHostPath;
  volume.host_dir = link;
  volume.source = Json{{"path", link}, {"type", "Directory"}};
  CHECK_FALSE(materialize_volumes(plan_of({volume}), root, false, &error));
  CHECK(error.find("is refused: a system directory (/etc)") != std::string::npos);
  error.clear();
  CHECK(materialize_volumes(plan_of({volume}), root, true, &error));
}

}  // namespace
}  // namespace trainjob
