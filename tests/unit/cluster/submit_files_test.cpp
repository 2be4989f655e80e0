// What submit does to the objects before it applies them: their order, and where --from-file
// puts its files.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include <doctest/doctest.h>

#include "cluster/submit.h"
#include "pipeline/config_map_files.h"
#include "status/pod_state.h"
#include "status/trainjob_status.h"

using namespace trainjob;

namespace {

/// A Job of the replicated job `step`, as render makes it.
Json step_job(const std::string& name, const std::string& step) {
  Json out = Json::parse(
      R"({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"labels": {}}, "spec": {"parallelism": 2, "suspend": false}, "status": {"active": 2, "ready": 0}})");
  out["metadata"]["name"] = name;
  out["metadata"]["labels"]["jobset.sigs.k8s.io/replicatedjob-name"] = step;
  return out;
}

}  // namespace

TEST_CASE("apply order: ConfigMaps, Service, PodGroup, initializer Jobs, the trainer's Jobs") {
  std::vector<Json> objects = {step_job("t-node-0", "node"),
                               {{"kind", "Service"}},
                               step_job("t-model-initializer-0", "model-initializer"),
                               {{"kind", "PodGroup"}},
                               {{"kind", "ConfigMap"}}};
  std::vector<Json> ordered = order_for_apply(objects);
  CHECK(ordered[0]["kind"] == "ConfigMap");
  CHECK(ordered[1]["kind"] == "Service");
  CHECK(ordered[2]["kind"] == "PodGroup");
  CHECK(ordered[3]["metadata"]["name"] == "t-model-initializer-0");
  CHECK(ordered[4]["metadata"]["name"] == "t-node-0");
  CHECK(is_initializer_job(ordered[3]));
  CHECK_FALSE(is_initializer_job(ordered[4]));
}

TEST_CASE("--from-file ConfigMaps: text as data, binary as binaryData, size, hashed name") {
  std::vector<FileEntry> files = {{"train.py", "print(1)\n"},
                                  {"weights.bin", std::string("\xff\x00\x01", 3)}};
  Json config_map = config_map_from_files("cm", "t", files);
  CHECK(config_map["data"]["train.py"] == "print(1)\n");
  CHECK(config_map["binaryData"]["weights.bin"] == "/wAB");
  CHECK(config_map_size(config_map) == 8 + 9 + 11 + 3);
  CHECK(hashed_config_map_name("t", files).rfind("t-files-", 0) == 0);
  CHECK(hashed_config_map_name("t", files).size() == 18);
  CHECK(hashed_config_map_name("t", files) !=
        hashed_config_map_name("t", {{"train.py", "print(2)\n"}}));
  CHECK(valid_utf8("héllo"));
  CHECK_FALSE(valid_utf8(std::string("\xc3", 1)));
}

TEST_CASE("--from-file without a mounted ConfigMap mounts the new one on the trainer") {
  Json trainer = Json::parse(
      R"({"kind": "Job", "metadata": {"labels": {"jobset.sigs.k8s.io/replicatedjob-name": "node"}},
    "spec": {"template": {"spec": {"containers": [{"name": "node"}, {"name": "sidecar"}]}}}})");
  std::vector<Json> objects = {trainer};
  CHECK(mounted_config_maps(objects).empty());
  mount_config_map(&objects, "t-files-0123456789");
  CHECK(mounted_config_maps(objects) == std::vector<std::string>{"t-files-0123456789"});
  const Json& containers = objects[0]["spec"]["template"]["spec"]["containers"];
  CHECK(containers[0]["volumeMounts"][0]["mountPath"] == "/workspace");
  CHECK_FALSE(containers[1].contains("volumeMounts"));
}

namespace {

/// A trainer Job whose `node` container mounts `volume` (a JSON volume source) at /workspace.
Json files_trainer_job(const std::string& volume_source) {
  Json job = Json::parse(
      R"({"kind": "Job", "metadata": {"name": "demo-node-0", "labels": {"jobset.sigs.k8s.io/replicatedjob-name": "node"}},
    "spec": {"template": {"spec": {"containers": [{"name": "node", "volumeMounts": [{"name": "code", "mountPath": "/workspace"}]}]}}}})");
  Json volume = Json::parse(volume_source);
  volume["name"] = "code";
  job["spec"]["template"]["spec"]["volumes"] = Json::array({volume});
  return job;
}

Document files_document(const std::string& file, int index, const std::string& text) {
  Document document;
  document.file = file;
  document.index = index;
  document.value = Json::parse(text);
  return document;
}

/// A rendered TrainJob "demo" whose Jobs are `jobs`, after the input documents `inputs`;
/// `objects` are all their objects, as run --local and submit hand them over.
struct FilesCase {
  RenderResult rendered;
  std::vector<Json> objects;
  FilesCase(const std::vector<std::string>& inputs, const std::vector<Json>& jobs) {
    for (const std::string& input : inputs)
      rendered.documents.push_back(files_document("demo.yaml", rendered.documents.size(), input));
    rendered.documents.push_back(files_document(
        "demo.yaml", rendered.documents.size(),
        R"({"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": "demo"}})"));
    for (size_t i = 0; i + 1 < rendered.documents.size(); ++i)
      rendered.units.push_back({&rendered.documents[i], false, {rendered.documents[i].value}});
    rendered.units.push_back({&rendered.documents.back(), true, jobs});
    for (const RenderedUnit& unit : rendered.units)
      objects.insert(objects.end(), unit.objects.begin(), unit.objects.end());
  }
};

/// `text` in a file named `name` (its ConfigMap key) in a directory of its own.
std::string write_temp_file(const std::string& name, const std::string& text) {
  std::string dir =
      std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/trainjob-unit-XXXXXX";
  if (::mkdtemp(dir.data()) == nullptr) return {};
  std::string path = dir + "/" + name;
  std::FILE* file = std::fopen(path.c_str(), "w");
  std::fputs(text.c_str(), file);
  std::fclose(file);
  return path;
}

/// Removes what write_temp_file made.
void remove_temp_file(const std::string& path) {
  std::remove(path.c_str());
  std::remove(path.substr(0, path.rfind('/')).c_str());
}

size_t count_kind(const std::vector<Json>& objects, const std::string& kind) {
  return static_cast<size_t>(std::count_if(objects.begin(), objects.end(), [&](const Json& o) {
    return string_member(o, "kind") == kind;
  }));
}

}  // namespace

TEST_CASE("--from-file replaces the script in the ConfigMap the Jobs mount (init's loop)") {
  FilesCase input(
      {R"({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "demo-script"}, "data": {"train.sh": "echo version-A\n", "conf.txt": "x"}})"},
      {files_trainer_job(R"({"configMap": {"name": "demo-script"}})")});
  std::string path = write_temp_file("train.sh", "echo version-B\n");
  std::string error;
  REQUIRE(add_files_config_map({path}, input.rendered, "", &input.objects, &error));
  remove_temp_file(path);
  CHECK(count_kind(input.objects, "ConfigMap") == 1);
  const Json& config_map = input.objects[0];
  CHECK(config_map["data"]["train.sh"] == "echo version-B\n");
  CHECK(config_map["data"]["conf.txt"] == "x");  // what the files do not name is kept
  CHECK(input.objects[1]["spec"]["template"]["spec"]["volumes"].size() == 1);
  CHECK(mounted_config_maps(input.objects) == std::vector<std::string>{"demo-script"});
}

TEST_CASE(
    "--from-file: a file no input holds goes to the ConfigMap at /workspace, else a new one") {
  FilesCase at_workspace(
      {R"({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "demo-script"}, "data": {"train.sh": "a"}})"},
      {files_trainer_job(R"({"configMap": {"name": "demo-script"}})")});
  std::string path = write_temp_file("util.sh", "echo util\n");
  std::string error;
  REQUIRE(add_files_config_map({path}, at_workspace.rendered, "", &at_workspace.objects, &error));
  CHECK(count_kind(at_workspace.objects, "ConfigMap") == 1);
  CHECK(at_workspace.objects[0]["data"]["util.sh"] == "echo util\n");

  FilesCase host_path({}, {files_trainer_job(R"({"hostPath": {"path": "/data"}})")});
  CHECK_FALSE(add_files_config_map({path}, host_path.rendered, "", &host_path.objects, &error));
  CHECK(error.find("mounts volume \"code\" at /workspace already") != std::string::npos);

  FilesCase none({}, {files_trainer_job(R"({"emptyDir": {}})")});
  none.objects[0]["spec"]["template"]["spec"]["containers"][0].erase("volumeMounts");
  REQUIRE(add_files_config_map({path}, none.rendered, "", &none.objects, &error));
  remove_temp_file(path);
  CHECK(count_kind(none.objects, "ConfigMap") == 1);
  CHECK(mounted_config_maps(none.objects).at(0).rfind("demo-files-", 0) == 0);
}

TEST_CASE("--from-file: two mounted ConfigMaps holding the file is a located error") {
  Json job = files_trainer_job(R"({"configMap": {"name": "a"}})");
  job["spec"]["template"]["spec"]["volumes"].push_back(
      {{"name", "b"}, {"configMap", {{"name", "b"}}}});
  FilesCase input(
      {R"({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"train.sh": "1"}})",
       R"({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b"}, "data": {"train.sh": "2"}})"},
      {job});
  std::string path = write_temp_file("train.sh", "3");
  std::string error;
  CHECK_FALSE(add_files_config_map({path}, input.rendered, "", &input.objects, &error));
  remove_temp_file(path);
  CHECK(error.find("ConfigMaps a (demo.yaml:") != std::string::npos);
  CHECK(error.find("both hold train.sh") != std::string::npos);
}
