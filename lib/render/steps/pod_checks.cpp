#include "render/steps/pod_checks.h"

#include "k8s/container_rules.h"
#include "k8s/image_reference.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// One container of a compiled pod template, and what is needed to say where it came from.
struct PodContainer {
  const ReplicatedJob* job = nullptr;
  const char* list = "containers";  ///< or initContainers
  size_t index = 0;
  const Json* value = nullptr;
  bool trainer_node = false;  ///< the trainer job's `node` container, which spec.trainer edits
};

std::string container_name(const PodContainer& c) {
  return string_member(*c.value, "name");
}

/// `container "node" of replicated job "node" of ClusterTrainingRuntime "torch-distributed"`.
std::string describe_container(const CompileState& state, const PodContainer& c) {
  const Document& runtime = state.runtime_reader.document();
  return std::string(std::string_view(c.list) == "containers" ? "container" : "init container") +
         " \"" + container_name(c) + "\" of replicated job \"" + c.job->name + "\" of " +
         runtime.kind() + " \"" + runtime.name() + "\"";
}

/// The field as the API server names it in the Job it refuses.
std::string job_field(const PodContainer& c, const std::string& field) {
  return std::string("spec.template.spec.") + c.list + "[" + std::to_string(c.index) + "]." + field;
}

/// Where a value the runtime wrote is reported in the TrainJob: spec.trainer for the
/// container it edits, spec.runtimeRef for the others.
std::string runtime_anchor(const CompileState& state, const PodContainer& c) {
  Field spec = state.trainjob_reader.root()["spec"];
  return (c.trainer_node && state.trainjob.trainer ? spec["trainer"] : spec["runtimeRef"]).path();
}

bool check_image(const CompileState& state, const PodContainer& c) {
  const FieldReader& tj = state.trainjob_reader;
  Field from_trainer = c.trainer_node ? state.trainjob.trainer["image"] : Field();
  const std::string& image = string_member_ref(*c.value, "image");
  if (image.empty()) {
    std::string refused =
        "the API server refuses the Jobs (" + job_field(c, "image") + ": Required value)";
    if (from_trainer) {
      tj.error(from_trainer.path(), "expected the container's image, found \"\": " + refused);
    } else {
      tj.error(runtime_anchor(state, c),
               describe_container(state, c) + " has no image" +
                   (c.trainer_node ? " and spec.trainer.image sets none: " + refused +
                                         "; set spec.trainer.image"
                                   : ": " + refused + "; the runtime must give it one"));
    }
    return false;
  }
  std::string message = image_reference_error(image);
  if (message.empty()) return true;
  if (from_trainer) {
    tj.error(from_trainer.path(), message);
  } else {
    tj.error(runtime_anchor(state, c),
             "the image of " + describe_container(state, c) + ": " + message);
  }
  return false;
}

/// resourcesPerNode's request of `resource`, else its limit: the TrainJob's part in the
/// container's resources. Empty for a container spec.trainer does not write.
Field trainer_resource(const CompileState& state, const PodContainer& c,
                       const std::string& resource) {
  if (!c.trainer_node) return Field();
  Field per_node = state.trainjob.trainer["resourcesPerNode"];
  Field request = per_node["requests"][resource];
  return request ? request : per_node["limits"][resource];
}

bool check_requests(const CompileState& state, const PodContainer& c) {
  bool ok = true;
  for (const RefusedRequest& refused : refused_requests(json_member(*c.value, "resources"))) {
    std::string message = refused_request_message(refused, " in " + describe_container(state, c),
                                                  job_field(c, "resources"));
    Field from_trainer = trainer_resource(state, c, refused.resource);
    state.trainjob_reader.error(from_trainer ? from_trainer.path() : runtime_anchor(state, c),
                                message);
    ok = false;
  }
  return ok;
}

/// A warning at word `word` of the container's command: where the TrainJob's trainer wrote
/// it, else (the runtime's command) at the TrainJob, naming the container.
void warn_at_command_word(const CompileState& state, const PodContainer& c, size_t word,
                          const std::string& message) {
  auto [list_name, index] = container_word_field(*c.value, word);
  Field list = state.trainjob.trainer[list_name];
  if (list) {
    state.trainjob_reader.warning(list.at(index).path(), message);
  } else {
    state.trainjob_reader.warning(
        runtime_anchor(state, c),
        "the command of " + describe_container(state, c) + ": " + message);
  }
}

/// torchrun's own --nnodes wins over PET_NNODES, so it must agree with the job's size.
void warn_torchrun_nodes(const CompileState& state, const PodContainer& c) {
  if (!c.trainer_node) return;
  std::optional<TorchrunNodes> nodes = torchrun_fixed_nodes(container_words(*c.value));
  if (!nodes || nodes->nodes == c.job->count) return;
  std::string message = torchrun_nodes_problem(*nodes, c.job->count) +
                        "; drop the flag (torchrun then reads PET_NNODES) or set numNodes to " +
                        std::to_string(nodes->nodes);
  warn_at_command_word(state, c, nodes->word, message);
}

/// numProcPerNode as written, the TrainJob's else the runtime's, when a whole number ("auto",
/// "cpu" and "gpu" start as many processes as there are CPUs or GPUs: never too many).
struct WrittenProcs {
  const FieldReader* reader;
  std::string path;
  int64_t count;
};
std::optional<WrittenProcs> written_num_proc(const CompileState& state) {
  Field field = state.trainjob.trainer["numProcPerNode"];
  const FieldReader* reader = &state.trainjob_reader;
  if (!field) {
    field = state.ml_policy["torch"]["numProcPerNode"];
    reader = &state.runtime_reader;
  }
  if (!field) return std::nullopt;
  const Json& value = *field.value;
  if (value.is_number_integer()) return WrittenProcs{reader, field.path(), value.get<int64_t>()};
  return std::nullopt;
}

/// More processes per node than GPUs per node: torchrun's --nproc_per_node, else the
/// numProcPerNode the torch policy passes on as PET_NPROC_PER_NODE.
void warn_procs_over_gpus(const CompileState& state, const PodContainer& c) {
  if (!c.trainer_node) return;
  std::optional<GpuRequest> gpus = container_gpus(*c.value);
  if (!gpus) return;
  std::vector<std::string> words = container_words(*c.value);
  if (std::optional<TorchrunNodes> procs = torchrun_fixed_procs(words)) {
    std::string problem = procs_over_gpus_problem("torchrun " + procs->text, procs->nodes, *gpus);
    if (problem.empty()) return;
    std::string message = problem + "; use --nproc_per_node=$(PET_NPROC_PER_NODE) or " +
                          std::to_string(gpus->count) + ", or request " +
                          std::to_string(procs->nodes) + " " + gpus->resource;
    warn_at_command_word(state, c, procs->word, message);
    return;
  }
  std::optional<WrittenProcs> procs = written_num_proc(state);
  if (!procs) return;
  std::string problem = procs_over_gpus_problem("numProcPerNode " + std::to_string(procs->count),
                                                procs->count, *gpus);
  if (problem.empty()) return;
  procs->reader->warning(procs->path, problem + "; set numProcPerNode to " +
                                          std::to_string(gpus->count) + ", or request " +
                                          std::to_string(procs->count) + " " + gpus->resource +
                                          " in resourcesPerNode");
}

bool check_pod_container(const CompileState& state, const PodContainer& c) {
  bool ok = check_image(state, c);
  ok = check_requests(state, c) && ok;
  warn_torchrun_nodes(state, c);
  warn_procs_over_gpus(state, c);
  return ok;
}

}  // namespace

bool check_pod_templates(const CompileState& state) {
  const ReplicatedJob* trainer = nullptr;
  for (const ReplicatedJob& job : state.replicated_jobs) {
    if (trainer == nullptr && job.ancestor == kTrainerStep) trainer = &job;
  }
  bool ok = true;
  for (const ReplicatedJob& job : state.replicated_jobs) {
    const Json& pod_spec =
        json_member(json_member(json_member(job.job_template, "spec"), "template"), "spec");
    for (const char* list : {"containers", "initContainers"}) {
      const Json& containers = json_member(pod_spec, list);
      if (!containers.is_array()) continue;
      for (size_t i = 0; i < containers.size(); ++i) {
        if (!containers[i].is_object()) continue;
        PodContainer c{&job, list, i, &containers[i]};
        c.trainer_node = &job == trainer && std::string_view(list) == "containers" &&
                         container_name(c) == kNodeName;
        ok = check_pod_container(state, c) && ok;
      }
    }
  }
  return ok;
}

}  // namespace trainjob
