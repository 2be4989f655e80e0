#include "optimize/optimization_job.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

#include "model/field.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// A min or max the schema accepted (its pattern is a decimal number); nothing otherwise,
/// since the schema pass has reported it.
std::optional<double> read_bound(const Field& field) {
  if (!field || !field.value->is_string()) return std::nullopt;
  const std::string& text = field.value->get_ref<const std::string&>();
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<int64_t> optional_integer(const Field& field) {
  if (!field || !field.value->is_number_integer()) return std::nullopt;
  return field.value->get<int64_t>();
}

/// uniform and logUniform: the CEL rules on min and max, and an Int range that holds an
/// integer (the CRD lets `min: "0.2", max: "0.8", type: Int` through; no value fits it).
bool read_range(const FieldReader& reader, const Field& space, SearchParameter* parameter) {
  std::optional<double> min = read_bound(space["min"]);
  std::optional<double> max = read_bound(space["max"]);
  Field type = space["type"];
  parameter->integer = type && type.value->is_string() && *type.value == "Int";
  if (!min || !max) return false;
  parameter->min = *min;
  parameter->max = *max;
  bool ok = true;
  if (parameter->kind == SearchSpaceKind::kLogUniform && *min <= 0) {
    reader.error(space["min"].path(),
                 "min must be strictly greater than 0: a log-uniform range draws in log space; "
                 "give a positive min, or use uniform");
    ok = false;
  }
  if (*min >= *max) {
    reader.error(space["max"].path(),
                 "min must be strictly less than max: found min " +
                     space["min"].value->get<std::string>() + " and max " +
                     space["max"].value->get<std::string>() +
                     "; raise max above min, or use categorical for one value");
    return false;
  }
  if (ok && parameter->integer && std::ceil(*min) > std::floor(*max)) {
    reader.error(space["type"].path(),
                 "type Int: no integer lies between min and max; widen "
                 "the range, or use type: Float");
    ok = false;
  }
  return ok;
}

/// Repeated choices are the schema's finding (the list is a set).
bool read_choices(const Field& space, SearchParameter* parameter) {
  Field choices = space["choices"];
  if (!choices || !choices.value->is_array()) return false;
  for (const Json& choice : *choices.value) {
    if (!choice.is_string()) return false;
    parameter->choices.push_back(choice.get<std::string>());
  }
  return !parameter->choices.empty();
}

/// spec.parameters[i].searchSpace: exactly one of the three, then its own rules.
bool read_search_space(const FieldReader& reader, const Field& space, SearchParameter* parameter) {
  if (!space || !space.value->is_object()) return false;
  int set = 0;
  for (const char* key : {"uniform", "logUniform", "categorical"})
    set += space[key] ? 1 : 0;
  if (set != 1) {
    reader.error(space.path(),
                 "exactly one of the fields in [uniform logUniform categorical] must be set, "
                 "found " +
                     std::to_string(set) + "; keep one search space per parameter");
    return false;
  }
  if (space["categorical"]) {
    parameter->kind = SearchSpaceKind::kCategorical;
    return read_choices(space["categorical"], parameter);
  }
  parameter->kind = space["uniform"] ? SearchSpaceKind::kUniform : SearchSpaceKind::kLogUniform;
  return read_range(reader, space["uniform"] ? space["uniform"] : space["logUniform"], parameter);
}

/// Repeated names are the schema's finding (a list-map key); two names that give one env
/// name would overwrite each other in the trial's env.
bool check_env_name(const FieldReader& reader, const Field& name, std::set<std::string>* names,
                    std::set<std::string>* envs) {
  const std::string& text = name.value->get_ref<const std::string&>();
  std::string env = optimization_env_name(text);
  if (!names->insert(text).second || envs->insert(env).second) return true;
  reader.error(name.path(), "parameter \"" + text + "\" gives the env name " + env +
                                ", as an earlier parameter does; rename one of them");
  return false;
}

bool read_parameters(const FieldReader& reader, const Field& list, OptimizationJob* job) {
  if (!list || !list.value->is_array() || list.value->empty()) return false;
  std::set<std::string> names;
  std::set<std::string> envs;
  bool ok = true;
  for (size_t i = 0; i < list.value->size(); ++i) {
    Field entry = list.at(i);
    Field name = entry["name"];
    SearchParameter parameter;
    if (!name || !name.value->is_string()) {
      ok = false;
    } else {
      parameter.name = name.value->get<std::string>();
      ok = check_env_name(reader, name, &names, &envs) && ok;
    }
    ok = read_search_space(reader, entry["searchSpace"], &parameter) && ok;
    job->parameters.push_back(std::move(parameter));
  }
  return ok;
}

bool read_search_algorithm(const FieldReader& reader, const Field& algorithm,
                           OptimizationJob* job) {
  job->seed_path = algorithm ? algorithm.path() : "spec";
  if (!algorithm) return true;  // the CRD's default: random, no seed
  if (!algorithm.value->is_object()) return false;
  if ((algorithm["random"] ? 1 : 0) + (algorithm["grid"] ? 1 : 0) != 1) {
    reader.error(algorithm.path(),
                 "exactly one of the fields in [random grid] must be set; "
                 "keep `random: {seed: N}` or `grid: {}`");
    return false;
  }
  job->grid = static_cast<bool>(algorithm["grid"]);
  if (algorithm["random"]) {
    job->seed_path = algorithm["random"].path();
    job->seed = optional_integer(algorithm["random"]["seed"]);
  }
  return true;
}

}  // namespace

namespace {

/// The template's own KUBEFLOW_TRAINER_OPT_<NAME> of a parameter would stand beside the
/// trial's value in the env, and which one a program sees depends on how it reads it.
bool check_template_env(const FieldReader& reader, const Field& env, const OptimizationJob& job) {
  if (!env || !env.value->is_array()) return true;
  bool ok = true;
  for (size_t i = 0; i < env.value->size(); ++i) {
    Field name = env.at(i)["name"];
    if (!name || !name.value->is_string()) continue;
    for (const SearchParameter& parameter : job.parameters) {
      if (optimization_env_name(parameter.name) != name.value->get_ref<const std::string&>())
        continue;
      reader.error(name.path(), name.value->get<std::string>() +
                                    " is set by each trial from "
                                    "parameter \"" +
                                    parameter.name + "\": remove it from the template");
      ok = false;
    }
  }
  return ok;
}

/// The rules between fields: parallelTrials ≤ numTrials, grid over categorical parameters
/// only, and a template without a name or namespace (each trial gets its own name).
bool check_cross_rules(const FieldReader& reader, const Field& spec, const OptimizationJob& job) {
  bool ok = true;
  if (job.parallel_trials > job.num_trials) {
    reader.error(spec["parallelTrials"].path(),
                 "parallelTrials cannot exceed numTrials: found parallelTrials " +
                     std::to_string(job.parallel_trials) + " and numTrials " +
                     std::to_string(job.num_trials) + "; lower parallelTrials or raise numTrials");
    ok = false;
  }
  for (size_t i = 0; job.grid && i < job.parameters.size(); ++i) {
    if (job.parameters[i].kind == SearchSpaceKind::kCategorical) continue;
    reader.error(spec["parameters"].at(i)["searchSpace"].path(),
                 "Grid search requires all parameters to be Categorical; Uniform and LogUniform "
                 "are not supported: list the values as categorical choices, or use random");
    ok = false;
  }
  ok = check_template_env(reader, spec["trainJobTemplate"]["spec"]["trainer"]["env"], job) && ok;
  Field metadata = spec["trainJobTemplate"]["metadata"];
  for (const char* key : {"name", "namespace"}) {
    if (!metadata[key]) continue;
    reader.error(metadata[key].path(),
                 "name and namespace cannot be set in a template: each trial is named "
                 "<name>-trial-<k> in the OptimizationJob's namespace; remove it");
    ok = false;
  }
  return ok;
}

}  // namespace

std::string optimization_env_name(const std::string& parameter) {
  std::string out = kOptimizationEnvPrefix;
  for (char c : parameter) {
    unsigned char byte = static_cast<unsigned char>(c);
    out += std::isalnum(byte) && byte < 0x80 ? static_cast<char>(std::toupper(byte)) : '_';
  }
  return out;
}

std::optional<OptimizationJob> read_optimization_job(const Document& document,
                                                     Diagnostics* diagnostics) {
  FieldReader reader(document, diagnostics);
  Field spec = reader.root()["spec"];
  if (!spec || !spec.value->is_object()) return std::nullopt;
  OptimizationJob job;
  job.name = document.name();
  job.num_trials = optional_integer(spec["numTrials"]).value_or(1);
  job.parallel_trials = optional_integer(spec["parallelTrials"]).value_or(1);
  Field objective = spec["objectives"].at(0);
  if (objective && objective.value->is_object()) {
    job.metric = string_member(*objective.value, "metric");
    job.direction = string_member(*objective.value, "direction", "Minimize");
  }
  bool ok = read_search_algorithm(reader, spec["searchAlgorithm"], &job);
  ok = read_parameters(reader, spec["parameters"], &job) && ok;
  ok = check_cross_rules(reader, spec, job) && ok;
  // The schema bounds these; out of them, the schema pass has said so.
  ok = ok && job.num_trials >= 1 && job.num_trials <= 100 && job.parallel_trials >= 1;
  if (!ok) return std::nullopt;
  return job;
}

}  // namespace trainjob
