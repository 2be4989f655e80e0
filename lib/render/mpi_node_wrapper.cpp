// Upstream's MPI node pods run sshd until JobSet's successPolicy deletes them once the
// launcher completes. Plain Jobs have no such policy, so the node container's command is
// wrapped: it runs in the background, and the wrapper exits 0 once the launcher pod's DNS
// name has resolved and then stopped resolving for about 30 s (the headless Service
// publishes not-ready pods and drops finished ones). No API access, no extra RBAC.
#include "render/mpi_node_wrapper.h"

#include "model/jobset_labels.h"
#include "model/vocabulary.h"
#include "render/pod_edit.h"
#include "render/policy/mpi.h"
#include "render/policy/mpi_objects.h"

namespace trainjob {
namespace {

/// $0 is "mpi-node"; "$@" is the original command followed by the container's args.
/// Polls every 5 s; 6 misses in a row after a hit end the pod. A TERM is passed on.
constexpr const char* kScriptHead = R"(launcher=)";
constexpr const char* kScriptBody = R"(
"$@" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' TERM INT
seen=0
missing=0
while kill -0 "$child" 2>/dev/null; do
  if getent hosts "$launcher" >/dev/null 2>&1; then
    seen=1
    missing=0
  elif [ "$seen" = 1 ]; then
    missing=$((missing + 1))
    if [ "$missing" -ge 6 ]; then
      kill -TERM "$child" 2>/dev/null
      wait "$child"
      exit 0
    fi
  fi
  sleep 5
done
wait "$child"
)";

}  // namespace

std::string mpi_node_wrapper_script(const std::string& launcher_host) {
  // The host is DNS labels and dots only (checked names), so it needs no quoting.
  return kScriptHead + launcher_host + kScriptBody;
}

void wrap_mpi_node_command(CompileState* state) {
  ReplicatedJob* job = state->find_job(kMpiNodeJob);
  if (job == nullptr) return;
  Json* node = find_container(&job->pod_spec(), kNodeName);
  if (node == nullptr) return;
  auto command = node->find("command");
  if (command == node->end() || !command->is_array() || command->empty()) {
    state->runtime_reader.warning(
        job->path(),
        "container \"node\" of MPI job \"node\" has no command to wrap: "
        "its pods run until the TrainJob is deleted, as nothing ends them "
        "when the launcher completes");
    return;
  }
  std::string host =
      first_pod_hostname(state->trainjob.name, kMpiLauncherJob) + "." + mpi_subdomain(*state);
  Json wrapped = Json::array({"/bin/sh", "-c", mpi_node_wrapper_script(host), "mpi-node"});
  for (const Json& word : *command)
    wrapped.push_back(word);
  *command = std::move(wrapped);
}

}  // namespace trainjob
