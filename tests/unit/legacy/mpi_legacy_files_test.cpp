#include "legacy/mpi_legacy_files.h"

#include <string>

#include <doctest/doctest.h>

namespace {

trainjob::MpiHosts hosts(const std::string& job, int64_t workers, int64_t slots, bool launcher) {
  trainjob::MpiHosts out;
  out.job = job;
  out.name_space = "tenant-a";
  out.workers = workers;
  out.slots = slots;
  out.launcher_first = launcher;
  return out;
}

}  // namespace

using trainjob::MpiImplementation;

// mpi-operator's TestNewConfigMap cases.
TEST_CASE("mpi v2beta1 hostfile: launcher first when it runs as a worker") {
  std::string out;
  REQUIRE(trainjob::mpi_v2beta1_hostfile(hosts("openmpi-without-slots", 2, 1, true),
                                         MpiImplementation::kOpenMpi, &out));
  CHECK(out ==
        "openmpi-without-slots-launcher.openmpi-without-slots.tenant-a.svc slots=1\n"
        "openmpi-without-slots-worker-0.openmpi-without-slots.tenant-a.svc slots=1\n"
        "openmpi-without-slots-worker-1.openmpi-without-slots.tenant-a.svc slots=1\n");
}

TEST_CASE("mpi v2beta1 hostfile: no workers leaves the launcher alone, or nothing") {
  std::string with_launcher;
  REQUIRE(trainjob::mpi_v2beta1_hostfile(hosts("j", 0, 1, true), MpiImplementation::kOpenMpi,
                                         &with_launcher));
  CHECK(with_launcher == "j-launcher.j.tenant-a.svc slots=1\n");
  std::string empty;
  REQUIRE(
      trainjob::mpi_v2beta1_hostfile(hosts("j", 0, 1, false), MpiImplementation::kOpenMpi, &empty));
  CHECK(empty.empty());
}

TEST_CASE("mpi v2beta1 hostfile: slotsPerWorker, and the Intel/MPICH line format") {
  std::string open_mpi;
  REQUIRE(trainjob::mpi_v2beta1_hostfile(hosts("openmpi-with-slots", 1, 10, false),
                                         MpiImplementation::kOpenMpi, &open_mpi));
  CHECK(open_mpi == "openmpi-with-slots-worker-0.openmpi-with-slots.tenant-a.svc slots=10\n");
  std::string intel;
  REQUIRE(
      trainjob::mpi_v2beta1_hostfile(hosts("i", 2, 4, true), MpiImplementation::kIntel, &intel));
  CHECK(intel ==
        "i-launcher.i.tenant-a.svc:4\ni-worker-0.i.tenant-a.svc:4\ni-worker-1.i.tenant-a.svc:4\n");
  std::string mpich;
  REQUIRE(
      trainjob::mpi_v2beta1_hostfile(hosts("m", 1, 2, false), MpiImplementation::kMpich, &mpich));
  CHECK(mpich == "m-worker-0.m.tenant-a.svc:2\n");
}

TEST_CASE("mpi v2beta1 discover_hosts.sh lists every host by FQDN") {
  std::string out;
  REQUIRE(trainjob::mpi_v2beta1_discover_hosts(hosts("j", 2, 3, true), &out));
  CHECK(out ==
        "#!/bin/sh\necho j-launcher.j.tenant-a.svc\necho j-worker-0.j.tenant-a.svc\n"
        "echo j-worker-1.j.tenant-a.svc\n");
}

TEST_CASE("mpi generators stop at a ConfigMap's size instead of growing without bound") {
  std::string out;
  CHECK_FALSE(trainjob::mpi_v2beta1_hostfile(hosts("j", int64_t{1} << 31, 1, false),
                                             MpiImplementation::kOpenMpi, &out));
  CHECK(out.size() <= trainjob::kMpiMaxConfigBytes + 200);
  std::string v1;
  CHECK_FALSE(trainjob::mpi_v1_discover_hosts(hosts("j", int64_t{1} << 31, 1, false), &v1));
}

// training-operator's MPIJob v1: pod names, launcher first with a GPU.
TEST_CASE("mpi v1 hostfile and discover_hosts.sh name pods") {
  std::string hostfile;
  REQUIRE(trainjob::mpi_v1_hostfile(hosts("mpi-job", 2, 1, true), &hostfile));
  CHECK(hostfile ==
        "mpi-job-launcher slots=1\nmpi-job-worker-0 slots=1\nmpi-job-worker-1 slots=1\n");
  std::string discover;
  REQUIRE(trainjob::mpi_v1_discover_hosts(hosts("mpi-job", 2, 2, false), &discover));
  CHECK(discover == "#!/bin/sh\necho mpi-job-worker-0:2\necho mpi-job-worker-1:2");
}

TEST_CASE("mpi v1 kubexec.sh finds the pod by labels and execs in the main container") {
  std::string script = trainjob::mpi_v1_kubexec("mpi-job", "mpi");
  CHECK(script.rfind("#!/bin/sh\n", 0) == 0);
  CHECK(script.find("mpi-job-launcher) labels='training.kubeflow.org/job-name=mpi-job,"
                    "training.kubeflow.org/replica-type=launcher' ;;") != std::string::npos);
  CHECK(
      script.find("*) labels='training.kubeflow.org/job-name=mpi-job,training.kubeflow.org/"
                  "replica-type=worker,training.kubeflow.org/replica-index='\"${host##*-}\" ;;") !=
      std::string::npos);
  CHECK(script.find("--field-selector=status.phase=Running") != std::string::npos);
  CHECK(script.find(
            "exec /opt/kube/kubectl exec \"$pod\" --container 'mpi' -- /bin/sh -c \"$*\"\n") !=
        std::string::npos);
  // Without spec.mainContainer kubectl picks the pod's default container.
  CHECK(trainjob::mpi_v1_kubexec("j", "").find("--container") == std::string::npos);
  // A quote in a name cannot end the shell word.
  CHECK(trainjob::mpi_v1_kubexec("j", "a'b").find("--container 'a'\\''b'") != std::string::npos);
}

TEST_CASE("mpi v1 discover_hosts.sh: a GPU launcher's line, then workers in pod-name order") {
  std::string discover;
  REQUIRE(trainjob::mpi_v1_discover_hosts(hosts("j", 11, 1, true), &discover));
  CHECK(discover.rfind("#!/bin/sh\necho j-launcher:1\n\necho j-worker-0:1\necho j-worker-1:1\n"
                       "echo j-worker-10:1\necho j-worker-2:1",
                       0) == 0);
}
