// The files the MPI operators put in the ConfigMap `J-config` (hostfile, discover_hosts.sh,
// kubexec.sh), written from the job's shape alone: pure functions of names and counts.
// mpi-operator (kubeflow.org/v2beta1) names hosts by DNS, `<host>.J.N.svc`; the Training
// Operator's MPIJob (kubeflow.org/v1) names them by pod, reached through `kubectl exec`.
#ifndef TRAINJOB_LEGACY_MPI_LEGACY_FILES_H_
#define TRAINJOB_LEGACY_MPI_LEGACY_FILES_H_

#include <cstdint>
#include <string>

namespace trainjob {

/// A ConfigMap holds at most 1 MiB: the generators stop (and return false) beyond it, so
/// a job of two billion workers costs no memory.
inline constexpr size_t kMpiMaxConfigBytes = size_t{1024} * 1024;

/// mpi-operator's `mpiImplementation`: how a hostfile line gives the slots.
enum class MpiImplementation { kOpenMpi, kIntel, kMpich };

/// The hosts of an MPI job in the order the operators list them.
struct MpiHosts {
  std::string job;              ///< metadata.name: `J`
  std::string name_space;       ///< the namespace DNS names resolve in (v2beta1 only)
  int64_t workers = 0;          ///< Worker replicas
  int64_t slots = 1;            ///< slotsPerWorker
  bool launcher_first = false;  ///< v2beta1 runLauncherAsWorker; v1 a launcher with a GPU
};

/// `J-launcher`, `J-worker-3`: host names, pod names (v1) and Job names alike.
std::string mpi_launcher_host(const std::string& job);
std::string mpi_worker_host(const std::string& job, int64_t index);

/// v2beta1: `<host>.J.N.svc`, the name the headless Service `J` and the pod's subdomain
/// give every pod.
std::string mpi_v2beta1_fqdn(const MpiHosts& hosts, const std::string& host);
/// v2beta1 hostfile: `<fqdn> slots=S` (OpenMPI) or `<fqdn>:S` (Intel, MPICH) per host.
bool mpi_v2beta1_hostfile(const MpiHosts& hosts, MpiImplementation implementation,
                          std::string* out);
/// v2beta1 discover_hosts.sh: `echo <fqdn>` per host. The operator lists the Running
/// workers; rendered ahead of time it lists them all.
bool mpi_v2beta1_discover_hosts(const MpiHosts& hosts, std::string* out);

/// v1 hostfile: `<pod> slots=S` per host.
bool mpi_v1_hostfile(const MpiHosts& hosts, std::string* out);
/// v1 discover_hosts.sh: `echo <pod>:S` per host (all of them, as above).
bool mpi_v1_discover_hosts(const MpiHosts& hosts, std::string* out);
/// v1 kubexec.sh, the launcher's rsh agent: `kubexec.sh <host> <command...>`. The operator
/// execs into the pod named like the host; Job pods carry a random suffix, so the script
/// finds the Running pod by the labels it has instead, then runs the command in container
/// `main_container` (spec.mainContainer), or the pod's default container when empty.
std::string mpi_v1_kubexec(const std::string& job, const std::string& main_container);

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_MPI_LEGACY_FILES_H_
