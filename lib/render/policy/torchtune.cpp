#include "render/policy/torchtune.h"

#include <algorithm>
#include <cctype>

#include "model/jobset_labels.h"
#include "model/num_proc.h"
#include "model/vocabulary.h"
#include "render/pod_edit.h"

namespace trainjob {
namespace {

constexpr const char* kSupportedModels[] = {"llama3_2/1B", "llama3_2/3B", "llama3_3/70B",
                                            "qwen2_5/1.5B"};
/// Settings the runtime owns (its volume layout): copied from its command, never from args.
constexpr const char* kRuntimeSettings[] = {"output_dir", "tokenizer.path",
                                            "checkpointer.checkpoint_dir", "tokenizer.merges_file"};
constexpr int kRendezvousPort = 29500;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts(1);
  for (char c : text) {
    if (c == separator) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

bool is_runtime_setting(const std::string& arg) {
  std::string key = arg.substr(0, arg.find('='));
  return std::any_of(std::begin(kRuntimeSettings), std::end(kRuntimeSettings),
                     [&](const char* name) { return key == name; });
}

/// True for "key=value" entries whose key contains `item` and whose value is "true", any case.
bool bool_arg(const std::vector<std::string>& args, const std::string& item) {
  for (const std::string& arg : args) {
    size_t equals = arg.find('=');
    if (equals == std::string::npos || arg.substr(0, equals).find(item) == std::string::npos)
      continue;
    std::string value = arg.substr(equals + 1);
    value.erase(0, value.find_first_not_of(" \t\n\r\f\v"));
    value.erase(value.find_last_not_of(" \t\n\r\f\v") + 1);
    std::transform(value.begin(), value.end(), value.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (value == "true") return true;
  }
  return false;
}

bool is_integer(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(),
                                      [](unsigned char c) { return std::isdigit(c) != 0; });
}

/// The strings of the list `object[key]`; empty when there is none.
std::vector<std::string> string_list(const Json& object, const char* key) {
  std::vector<std::string> out;
  auto list = object.is_object() ? object.find(key) : object.end();
  if (list == object.end() || !list->is_array()) return out;
  for (const Json& item : *list) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

/// The GPUs of one node: resourcesPerNode when set, else the runtime's `node` container.
int64_t node_gpus(CompileState* state, const TrainerSettings& trainer) {
  if (trainer.resources.is_object()) return gpu_count(trainer.resources);
  ReplicatedJob* job = state->find_job(kNodeName);
  if (job == nullptr) job = state->trainer_job();
  const Json* node = job != nullptr ? find_container(job->pod_spec(), kNodeName) : nullptr;
  return node != nullptr && node->contains("resources") ? gpu_count((*node)["resources"]) : 0;
}

/// The TrainJob's own numProcPerNode as the webhook sees it: the integer, else "auto".
std::string trainjob_num_proc(const TrainerSettings& trainer) {
  return trainer.num_proc_per_node.is_number_integer() ? trainer.num_proc_per_node.dump() : "auto";
}

void check_qlora(const CompileState& state, const std::string& model, const std::string& config) {
  if (config.find("_qlora") == std::string::npos) return;
  if (model == "qwen2_5/1.5B") {
    state.trainjob_reader.error(
        state.trainjob.runtime_name.path(),
        "QLoRA (model.quantize_base=True) is not supported for the " + model + " model");
  }
  bool single_device = config.find("_qlora_single_device") != std::string::npos;
  if (!single_device && (model == "llama3_2/1B" || model == "llama3_2/3B")) {
    Field trainer = state.trainjob.trainer;
    std::string why = "QLoRA on the " + model + " model runs on one device: ";
    state.trainjob_reader.error(trainer["numProcPerNode"].path(), why + "expected auto or 1");
    state.trainjob_reader.error(trainer["resourcesPerNode"].path(),
                                why + "expected a GPU resource with the value 1");
  }
}

}  // namespace

std::string torchtune_model(const std::string& runtime_name) {
  std::vector<std::string> parts = split(runtime_name, '-');
  if (parts.size() != 3) return "";
  std::string family = parts[1];
  std::replace(family.begin(), family.end(), '.', '_');
  std::string size = parts[2];
  std::transform(size.begin(), size.end(), size.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return family + "/" + size;
}

bool torchtune_supported_model(const std::string& model) {
  return std::any_of(std::begin(kSupportedModels), std::end(kSupportedModels),
                     [&](const char* name) { return model == name; });
}

bool torchtune_lora(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& arg) {
    return arg.find("model.lora_attn_modules") != std::string::npos;
  });
}

bool torchtune_qlora(const std::vector<std::string>& args) {
  return !bool_arg(args, "model.use_dora") && bool_arg(args, "model.quantize_base");
}

TorchtuneRecipe torchtune_recipe(int64_t nodes, const std::string& num_proc, int64_t gpus,
                                 const std::vector<std::string>& args, const std::string& model) {
  TorchtuneRecipe out{"full_finetune_distributed", "_full"};
  bool one_device = num_proc == "1" || gpus == 1;
  if (nodes == 1 && one_device) {
    if (torchtune_qlora(args)) {
      out = {"lora_finetune_single_device", "_qlora_single_device"};
    } else if (torchtune_lora(args)) {
      out = {"lora_finetune_single_device", "_lora_single_device"};
    } else {
      out = {"full_finetune_single_device", "_full_single_device"};
    }
  } else if (nodes == 1 && torchtune_qlora(args)) {
    out = {"lora_finetune_distributed", "_qlora"};
  } else if (nodes == 1 && torchtune_lora(args)) {
    out = {"lora_finetune_distributed", "_lora"};
  } else if (nodes > 1) {
    out.config = "_full_multinode";
  }
  out.config = model + out.config;
  return out;
}

bool torchtune_distributed(int64_t nodes, const std::string& num_proc, int64_t gpus) {
  if (nodes > 1) return true;
  if (is_integer(num_proc)) return num_proc != "0" && num_proc != "1";
  return gpus > 1;
}

bool is_torchtune_run(const CompileState& state) {
  Field command = state.trainjob.trainer["command"];
  return state.ml_policy["torch"] && command && *command.value == Json::array({"tune", "run"});
}

bool check_torchtune(CompileState* mutable_state, const TrainerSettings& trainer) {
  const CompileState& state = *mutable_state;
  if (!trainer.present || !is_torchtune_run(state)) return true;
  int errors_before = state.trainjob_reader.diagnostics()->error_count();
  const FieldReader& tj = state.trainjob_reader;
  std::string model = torchtune_model(state.trainjob.runtime_name.value->get<std::string>());
  if (!torchtune_supported_model(model)) {
    std::string found = model.empty() ? "a name of another shape" : "model \"" + model + "\"";
    tj.error(state.trainjob.runtime_name.path(),
             "`tune run` needs a torchtune runtime named torchtune-<model>-<size> for one of "
             "llama3.2-1b, llama3.2-3b, llama3.3-70b, qwen2.5-1.5b; found " +
                 found);
  }
  int64_t nodes = trainer.num_nodes.value_or(1);
  Field num_nodes = state.trainjob.trainer["numNodes"];
  if (nodes > 1 && model != "llama3_3/70B") {
    tj.error(num_nodes.path(), "expected 1: torchtune runs the " + model + " model on one node");
  }
  std::vector<std::string> args = string_list(*state.trainjob.trainer.value, "args");
  int64_t gpus = node_gpus(mutable_state, trainer);
  check_qlora(state, model,
              torchtune_recipe(nodes, trainjob_num_proc(trainer), gpus, args, model).config);
  if (nodes > 1 && (torchtune_lora(args) || torchtune_qlora(args))) {
    tj.error(num_nodes.path(), "torchtune runs LoRA fine-tuning on one node only");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!is_runtime_setting(args[i])) continue;
    tj.error(state.trainjob.trainer["args"].at(i).path(),
             "\"" + args[i].substr(0, args[i].find('=')) +
                 "\" is set by the runtime's command and cannot be overridden in "
                 "spec.trainer.args");
  }
  return state.trainjob_reader.diagnostics()->error_count() == errors_before;
}

Json torchtune_command(CompileState* state, const TrainerSettings& trainer,
                       const std::string& num_proc) {
  if (!trainer.present || !is_torchtune_run(*state)) return nullptr;
  const ReplicatedJob* job = state->trainer_job();
  int64_t nodes = job != nullptr ? job->count : 1;
  int64_t gpus = node_gpus(state, trainer);
  const std::string& name = state->trainjob.name;
  Json command = Json::array({"tune", "run"});
  if (torchtune_distributed(nodes, num_proc, gpus)) {
    command.push_back("--rdzv_endpoint=" + first_node_host(name) + ":" +
                      std::to_string(kRendezvousPort));
  }
  std::string model = torchtune_model(state->trainjob.runtime_name.value->get<std::string>());
  TorchtuneRecipe recipe = torchtune_recipe(
      nodes, num_proc, gpus, string_list(*state->trainjob.trainer.value, "args"), model);
  command.push_back(recipe.recipe);
  command.push_back("--config");
  command.push_back(recipe.config);
  for (ReplicatedJob& rjob : state->replicated_jobs) {
    const Json* node =
        rjob.ancestor == kTrainerStep ? find_container(rjob.pod_spec(), kNodeName) : nullptr;
    if (node == nullptr) continue;
    for (const std::string& item : string_list(*node, "command")) {
      if (is_runtime_setting(item)) command.push_back(item);
    }
  }
  return command;
}

void apply_torchtune(CompileState* state, const Json& command) {
  ReplicatedJob* job = state->trainer_job();
  Json* node = job != nullptr ? find_container(&job->pod_spec(), kNodeName) : nullptr;
  if (command.is_null() || node == nullptr) return;
  (*node)["command"] = command;
  // The torch plugin has just added these; upstream leaves them out for torchtune, whose
  // rendezvous is the --rdzv_endpoint above (PET_MASTER_* are reserved in spec.trainer.env).
  auto env = node->find("env");
  if (env == node->end() || !env->is_array()) return;
  env->erase(std::remove_if(env->begin(), env->end(),
                            [](const Json& var) {
                              std::string name = var.value("name", "");
                              return name == "PET_MASTER_ADDR" || name == "PET_MASTER_PORT";
                            }),
             env->end());
}

}  // namespace trainjob
