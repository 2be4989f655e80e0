// `run --local` for MPI: the launcher alone, with a hostfile naming this machine.
#include "local/local_mpi.h"

#include <doctest/doctest.h>

namespace trainjob {
namespace {

Json mpi_job(const std::string& step, const Json& volumes) {
  Json container = {{"name", "node"},
                    {"image", "mpi"},
                    {"command", {"mpirun", "app"}},
                    {"volumeMounts",
                     {{{"name", "mpi-ssh-auth"}, {"mountPath", "/root/.ssh"}},
                      {{"name", "mpi-hostfile"}, {"mountPath", "/etc/mpi"}}}}};
  return Json{{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata",
               {{"name", "pi-" + step + "-0"},
                {"labels",
                 {{"jobset.sigs.k8s.io/replicatedjob-name", step},
                  {"trainer.kubeflow.org/trainjob-name", "pi"}}}}},
              {"spec",
               {{"template",
                 {{"spec", {{"containers", Json::array({container})}, {"volumes", volumes}}}}}}}};
}

Json hostfile(const std::string& text) {
  return Json{{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", {{"name", "pi-mpi-hostfile"}}},
              {"data", {{"hostfile", text}}}};
}

}  // namespace

TEST_CASE("local mpi: slots of a hostfile add up, a line without slots counts 1") {
  CHECK(hostfile_slots("a.pi slots=2\nb.pi slots=3\n") == 5);
  CHECK(hostfile_slots("a.pi\n\n# comment\nb.pi slots=4\n") == 5);
  CHECK(hostfile_slots("a slots=0\n") == 1);
  CHECK(hostfile_slots("a slots=9223372036854775807\nb slots=2\n") == INT64_MAX);
  CHECK(hostfile_slots("") == 0);
  // Intel MPI and MPICH write `host:N`.
  CHECK(hostfile_slots("a.pi.ns.svc:2\nb.pi.ns.svc:3\n") == 5);
}

TEST_CASE("local mpi: only the launcher stays, without ssh, its hostfile on localhost") {
  Json ssh = {{"name", "mpi-ssh-auth"}, {"secret", {{"secretName", "pi-mpi-ssh-auth"}}}};
  Json hosts = {{"name", "mpi-hostfile"}, {"configMap", {{"name", "pi-mpi-hostfile"}}}};
  std::vector<Json> objects = {hostfile("pi-node-0-0.pi slots=2\npi-node-0-1.pi slots=2\n"),
                               mpi_job("launcher", {ssh, hosts}),
                               mpi_job("node", Json::array({ssh}))};
  std::vector<std::string> notes;
  std::string error;
  // This machine's PATH may lack mpirun; an image directory holding one is enough.
  std::map<std::string, std::string> dirs = {{"mpi", "/usr/bin"}};
  bool found = adapt_mpi_for_local(&objects, dirs, &notes, &error);
  if (!found) {
    CHECK(error.find("needs mpirun") != std::string::npos);
    return;
  }
  REQUIRE(objects.size() == 2);
  CHECK(objects[0]["data"]["hostfile"] == "localhost slots=4\n");
  CHECK(objects[1]["metadata"]["name"] == "pi-launcher-0");
  const Json& pod = objects[1]["spec"]["template"]["spec"];
  CHECK(pod["volumes"].size() == 1);
  CHECK(pod["volumes"][0]["name"] == "mpi-hostfile");
  CHECK(pod["containers"][0]["volumeMounts"].size() == 1);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("localhost slots=4") != std::string::npos);
}

TEST_CASE("local mpi: without mpirun anywhere, an MPI TrainJob is refused; others pass") {
  Json hosts = {{"name", "mpi-hostfile"}, {"configMap", {{"name", "pi-mpi-hostfile"}}}};
  std::vector<Json> objects = {hostfile("a slots=1\n"), mpi_job("launcher", Json::array({hosts}))};
  std::vector<std::string> notes;
  std::string error;
  const char* path = std::getenv("PATH");
  std::string saved = path == nullptr ? "" : path;
  ::setenv("PATH", "/nonexistent", 1);
  bool ok = adapt_mpi_for_local(&objects, {}, &notes, &error);
  std::vector<Json> plain = {hostfile("a slots=1\n")};
  bool plain_ok = adapt_mpi_for_local(&plain, {}, &notes, &error);
  ::setenv("PATH", saved.c_str(), 1);
  CHECK_FALSE(ok);
  CHECK(error.find("pi-launcher-0 needs mpirun, which is not on PATH") != std::string::npos);
  CHECK(plain_ok);
}

}  // namespace trainjob
