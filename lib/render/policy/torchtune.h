// `tune run` on a torch runtime: the recipe, config and rendezvous Kubeflow Trainer picks
// for torchtune (torch plugin, torchtune.go), and the checks its webhook makes first.
#ifndef TRAINJOB_RENDER_POLICY_TORCHTUNE_H_
#define TRAINJOB_RENDER_POLICY_TORCHTUNE_H_

#include <string>
#include <vector>

#include "render/compile_state.h"
#include "render/steps/trainer.h"

namespace trainjob {

/// "torchtune-llama3.2-1b" -> "llama3_2/1B": the middle of a three-part runtime name with
/// '.' as '_', then the upper-cased size; "" for names of any other shape.
std::string torchtune_model(const std::string& runtime_name);
/// llama3_2/1B, llama3_2/3B, llama3_3/70B and qwen2_5/1.5B.
bool torchtune_supported_model(const std::string& model);

/// args with an entry naming model.lora_attn_modules.
bool torchtune_lora(const std::vector<std::string>& args);
/// args with model.quantize_base=true (any case) and no model.use_dora=true.
bool torchtune_qlora(const std::vector<std::string>& args);

struct TorchtuneRecipe {
  std::string recipe;  ///< e.g. full_finetune_distributed
  std::string config;  ///< e.g. llama3_2/1B_full
};
/// The recipe and config for `nodes` pods of `num_proc` processes (an integer, or "auto"
/// or "gpu" left for torchrun) with `gpus` GPUs each.
TorchtuneRecipe torchtune_recipe(int64_t nodes, const std::string& num_proc, int64_t gpus,
                                 const std::vector<std::string>& args, const std::string& model);
/// Whether torchtune needs a rendezvous endpoint: several nodes, or several processes.
bool torchtune_distributed(int64_t nodes, const std::string& num_proc, int64_t gpus);

/// True when spec.trainer.command is exactly [tune, run] on a torch runtime.
bool is_torchtune_run(const CompileState& state);
/// The webhook's torchtune checks; located errors on the TrainJob. True when none failed.
bool check_torchtune(CompileState* state, const TrainerSettings& trainer);
/// The trainer command upstream runs for `tune run`: tune run [--rdzv_endpoint=...] RECIPE
/// --config CONFIG, then the runtime's output_dir / tokenizer / checkpointer settings.
/// Read from the runtime, so call it before apply_trainer; null when not torchtune.
Json torchtune_command(CompileState* state, const TrainerSettings& trainer,
                       const std::string& num_proc);
/// Puts `command` on the trainer's `node` container, which then gets no PET_MASTER_*
/// (torchtune takes its rendezvous from the command line). Nothing when it is null.
void apply_torchtune(CompileState* state, const Json& command);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POLICY_TORCHTUNE_H_
