#include "legacy/mpi_legacy_files.h"

#include <algorithm>
#include <vector>

#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// kubectl unpacked by the launcher's init container (kubectl-delivery), as in v1.
constexpr const char* kKubectl = "/opt/kube/kubectl";

/// Calls `line(host)` for each host in order, appending to *out; false once *out outgrows a
/// ConfigMap.
template <typename Line>
bool for_each_host(const MpiHosts& hosts, std::string* out, Line line) {
  if (hosts.launcher_first) {
    line(mpi_launcher_host(hosts.job));
    if (out->size() > kMpiMaxConfigBytes) return false;
  }
  for (int64_t index = 0; index < hosts.workers; ++index) {
    line(mpi_worker_host(hosts.job, index));
    if (out->size() > kMpiMaxConfigBytes) return false;
  }
  return true;
}

/// `'word'`: a POSIX shell word that stands for `word` whatever its characters.
std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace

std::string mpi_launcher_host(const std::string& job) {
  return job + "-launcher";
}

std::string mpi_worker_host(const std::string& job, int64_t index) {
  return job + "-worker-" + std::to_string(index);
}

std::string mpi_v2beta1_fqdn(const MpiHosts& hosts, const std::string& host) {
  return host + "." + hosts.job + "." + hosts.name_space + ".svc";
}

bool mpi_v2beta1_hostfile(const MpiHosts& hosts, MpiImplementation implementation,
                          std::string* out) {
  const std::string slots = implementation == MpiImplementation::kOpenMpi
                                ? " slots=" + std::to_string(hosts.slots) + "\n"
                                : ":" + std::to_string(hosts.slots) + "\n";
  return for_each_host(hosts, out, [&](const std::string& host) {
    out->append(mpi_v2beta1_fqdn(hosts, host)).append(slots);
  });
}

bool mpi_v2beta1_discover_hosts(const MpiHosts& hosts, std::string* out) {
  out->append("#!/bin/sh\n");
  return for_each_host(hosts, out, [&](const std::string& host) {
    out->append("echo ").append(mpi_v2beta1_fqdn(hosts, host)).append("\n");
  });
}

bool mpi_v1_hostfile(const MpiHosts& hosts, std::string* out) {
  const std::string slots = " slots=" + std::to_string(hosts.slots) + "\n";
  return for_each_host(hosts, out,
                       [&](const std::string& host) { out->append(host).append(slots); });
}

bool mpi_v1_discover_hosts(const MpiHosts& hosts, std::string* out) {
  // As the operator writes it: the launcher's line (a GPU launcher only) ends with a newline,
  // each worker's starts with one, and the workers come in the order of their pod names
  // (`J-worker-10` before `J-worker-2`).
  out->append("#!/bin/sh");
  const std::string slots = ":" + std::to_string(hosts.slots);
  if (hosts.launcher_first)
    out->append("\necho ").append(mpi_launcher_host(hosts.job)) += slots + "\n";
  // Each worker's line is longer than this: too many workers are known before listing them.
  const size_t shortest = std::string("\necho -worker-0").size() + hosts.job.size() + slots.size();
  if (hosts.workers > 0 && static_cast<uint64_t>(hosts.workers) > kMpiMaxConfigBytes / shortest)
    return false;
  std::vector<std::string> workers;
  for (int64_t index = 0; index < hosts.workers; ++index)
    workers.push_back(mpi_worker_host(hosts.job, index));
  std::sort(workers.begin(), workers.end());
  for (const std::string& host : workers) {
    out->append("\necho ").append(host).append(slots);
    if (out->size() > kMpiMaxConfigBytes) return false;
  }
  return true;
}

std::string mpi_v1_kubexec(const std::string& job, const std::string& main_container) {
  // The host is `J-launcher` or `J-worker-<i>`; its pod carries the operator's labels.
  const std::string selector = std::string(kLegacyJobNameLabel) + "=" + job;
  std::string script = "#!/bin/sh\nset -e\nhost=$1\nshift\n";
  script += "case \"$host\" in\n";
  script += "  " + mpi_launcher_host(job) +
            ") labels=" + shell_quote(selector + "," + kReplicaTypeLabel + "=launcher") + " ;;\n";
  script +=
      "  *) labels=" +
      shell_quote(selector + "," + kReplicaTypeLabel + "=worker," + kReplicaIndexLabel + "=") +
      "\"${host##*-}\" ;;\n";
  script += "esac\n";
  script += std::string("pod=$(") + kKubectl +
            " get pods -l \"$labels\" --field-selector=status.phase=Running"
            " -o 'jsonpath={.items[0].metadata.name}')\n";
  script += "if [ -z \"$pod\" ]; then\n";
  script += "  echo \"kubexec.sh: no Running pod for host $host\" >&2\n";
  script += "  exit 1\n";
  script += "fi\n";
  script += std::string("exec ") + kKubectl + " exec \"$pod\"";
  if (!main_container.empty()) script += " --container " + shell_quote(main_container);
  script += " -- /bin/sh -c \"$*\"\n";
  return script;
}

}  // namespace trainjob
