#include "render/policy/torchtune.h"

#include <doctest/doctest.h>

using trainjob::torchtune_distributed;
using trainjob::torchtune_lora;
using trainjob::torchtune_model;
using trainjob::torchtune_qlora;
using trainjob::torchtune_recipe;
using trainjob::torchtune_supported_model;
using trainjob::TorchtuneRecipe;

namespace {

std::string recipe_of(int64_t nodes, const std::string& num_proc, int64_t gpus,
                      const std::vector<std::string>& args, const std::string& model) {
  TorchtuneRecipe r = torchtune_recipe(nodes, num_proc, gpus, args, model);
  return r.recipe + " " + r.config;
}

}  // namespace

TEST_CASE("torchtune: the model comes from a three-part runtime name") {
  CHECK(torchtune_model("torchtune-llama3.2-1b") == "llama3_2/1B");
  CHECK(torchtune_model("torchtune-qwen2.5-1.5b") == "qwen2_5/1.5B");
  CHECK(torchtune_model("torchtune-llama3.3-70b") == "llama3_3/70B");
  CHECK(torchtune_model("torch-distributed") == "");
  CHECK(torchtune_model("a-b-c-d") == "");
  CHECK(torchtune_supported_model("llama3_2/3B"));
  CHECK_FALSE(torchtune_supported_model("llama3_2/8B"));
  CHECK_FALSE(torchtune_supported_model(""));
}

TEST_CASE("torchtune: LoRA and QLoRA are told from the args") {
  CHECK(torchtune_lora({"model.lora_attn_modules=[q_proj]"}));
  CHECK_FALSE(torchtune_lora({"dtype=bf16"}));
  CHECK(torchtune_qlora({"model.quantize_base=True"}));
  CHECK(torchtune_qlora({"model.quantize_base= TRUE "}));
  CHECK_FALSE(torchtune_qlora({"model.quantize_base=False"}));
  CHECK_FALSE(torchtune_qlora({"model.quantize_base"}));
  CHECK_FALSE(torchtune_qlora({"model.quantize_base=True", "model.use_dora=true"}));
  CHECK(torchtune_qlora({"model.quantize_base=True", "model.use_dora=false"}));
}

TEST_CASE("torchtune: recipe and config follow nodes, processes, GPUs and LoRA") {
  const std::string m = "llama3_2/1B";
  CHECK(recipe_of(1, "auto", 4, {}, m) == "full_finetune_distributed llama3_2/1B_full");
  CHECK(recipe_of(1, "1", 0, {}, m) ==
        "full_finetune_single_device llama3_2/1B_full_single_device");
  CHECK(recipe_of(1, "auto", 1, {}, m) ==
        "full_finetune_single_device llama3_2/1B_full_single_device");
  CHECK(recipe_of(2, "8", 8, {}, "llama3_3/70B") ==
        "full_finetune_distributed llama3_3/70B_full_multinode");
  CHECK(recipe_of(1, "1", 1, {"model.lora_attn_modules=[q]"}, m) ==
        "lora_finetune_single_device llama3_2/1B_lora_single_device");
  CHECK(recipe_of(1, "1", 1, {"model.quantize_base=True"}, m) ==
        "lora_finetune_single_device llama3_2/1B_qlora_single_device");
  CHECK(recipe_of(1, "auto", 2, {"model.lora_attn_modules=[q]"}, m) ==
        "lora_finetune_distributed llama3_2/1B_lora");
  CHECK(recipe_of(1, "auto", 2, {"model.quantize_base=True"}, m) ==
        "lora_finetune_distributed llama3_2/1B_qlora");
  // Several nodes drop LoRA (the webhook rejects that combination first).
  CHECK(recipe_of(2, "auto", 2, {"model.lora_attn_modules=[q]"}, m) ==
        "full_finetune_distributed llama3_2/1B_full_multinode");
}

TEST_CASE("torchtune: a rendezvous endpoint only for several nodes or processes") {
  CHECK(torchtune_distributed(2, "1", 0));
  CHECK(torchtune_distributed(1, "2", 0));
  CHECK_FALSE(torchtune_distributed(1, "1", 8));
  CHECK(torchtune_distributed(1, "auto", 2));
  CHECK_FALSE(torchtune_distributed(1, "auto", 1));
}
