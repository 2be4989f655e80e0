// The objects the MPI policy adds beside the Jobs: the hostfile ConfigMap and the SSH key
// Secret.
#include "render/policy/mpi_objects.h"

#include <string>

#include "model/jobset_labels.h"
#include "render/extra_objects.h"
#include "render/pod_edit.h"

namespace trainjob {
namespace {

/// A ConfigMap holds at most 1 MiB; a larger hostfile could never be applied.
constexpr size_t kMaxHostfileBytes = size_t{1024} * 1024;

bool is_mpi_node(const ReplicatedJob& job, const MpiSettings& settings) {
  return job.name == kMpiNodeJob || (settings.launcher_as_node && job.name == kMpiLauncherJob);
}

/// One line per pod of the node jobs, in template order; false when it outgrows a ConfigMap.
bool append_hostfile_lines(const CompileState& state, const MpiSettings& settings,
                           std::string* hostfile) {
  const std::string subdomain = mpi_subdomain(state);
  const std::string slots = " slots=" + std::to_string(settings.slots) + "\n";
  for (const ReplicatedJob& job : state.replicated_jobs) {
    if (!is_mpi_node(job, settings)) continue;
    for (int64_t replica = 0; replica < job.replicas; ++replica) {
      for (int64_t pod = 0; pod < job.count; ++pod) {
        hostfile->append(state.trainjob.name).append("-").append(job.name).append("-");
        hostfile->append(std::to_string(replica)).append("-").append(std::to_string(pod));
        hostfile->append(".").append(subdomain).append(slots);
        if (hostfile->size() > kMaxHostfileBytes) return false;
      }
    }
  }
  return true;
}

}  // namespace

std::string mpi_subdomain(const CompileState& state) {
  auto network = state.jobset_spec.find("network");
  if (network != state.jobset_spec.end() && network->is_object()) {
    auto subdomain = network->find("subdomain");
    if (subdomain != network->end() && subdomain->is_string() && !subdomain->empty()) {
      return subdomain->get<std::string>();
    }
  }
  return state.trainjob.name;
}

std::string mpi_hostfile_name(const std::string& trainjob) {
  return trainjob + "-mpi-hostfile";
}

std::string mpi_ssh_secret_name(const std::string& trainjob) {
  return trainjob + "-mpi-ssh-auth";
}

Json mpi_hostfile_config_map(const CompileState& state, const MpiSettings& settings) {
  std::string hostfile;
  if (!append_hostfile_lines(state, settings, &hostfile)) {
    state.trainjob_reader.error(
        state.trainjob.trainer ? state.trainjob.trainer["numNodes"].path() : "spec",
        "expected a hostfile of at most 1 MiB (a ConfigMap's limit): the MPI "
        "jobs have too many pods");
  }
  Json config_map = Json::object();
  config_map["apiVersion"] = "v1";
  config_map["kind"] = "ConfigMap";
  config_map["metadata"] = policy_object_metadata(state, mpi_hostfile_name(state.trainjob.name));
  config_map["data"] = {{"hostfile", std::move(hostfile)}};
  return config_map;
}

void add_mpi_ssh_secret(CompileState* state) {
  const std::string name = mpi_ssh_secret_name(state->trainjob.name);
  if (!emit_generated_secret(*state, name,
                             "the SSH key the MPI launcher logs in to the nodes with")) {
    return;
  }
  std::string error;
  std::optional<Json> secret =
      ssh_auth_secret(state->trainjob.name, state->trainjob.name_space, name, &error);
  if (!secret) {
    state->trainjob_reader.error("metadata.name", "cannot make Secret \"" + name + "\": " + error);
    return;
  }
  state->extra_objects.push_back(std::move(*secret));
}

}  // namespace trainjob
