#include "optimize/compile_optimization.h"

#include <cstdlib>
#include <set>
#include <tuple>

#include "optimize/optimization_job.h"
#include "optimize/trial_document.h"
#include "optimize/trial_generator.h"
#include "schema/schema_pass.h"

namespace trainjob {
namespace {

/// A finding of one trial, said once for the sweep: the trials share the template, so the
/// same field would otherwise be reported once per trial.
using FindingKey = std::tuple<int, int, std::string>;

/// What a trial name that is too long means for the OptimizationJob's name: the compiler's
/// "use at most N characters" is about the trial's, which adds `-trial-<k>`.
std::string sweep_name_hint(const std::string& message, const std::string& sweep_name,
                            int64_t num_trials) {
  std::string last = trial_name(sweep_name, num_trials);
  std::string hint = " (the trials are named " + sweep_name + "-trial-1 to " + last;
  const std::string marker = "use at most ";
  size_t at = message.find(marker);
  size_t suffix = last.size() - sweep_name.size();
  if (at == std::string::npos) return hint + ": shorten the OptimizationJob's metadata.name)";
  size_t most = std::strtoul(message.c_str() + at + marker.size(), nullptr, 10);
  if (most <= suffix) return hint + ": no OptimizationJob name is short enough)";
  return hint + ": give the OptimizationJob a name of at most " + std::to_string(most - suffix) +
         " characters)";
}

/// Copies `from` into `into` with trial paths made the OptimizationJob's, leaving out a
/// field an earlier trial already reported. A name that is too long is the sweep's name.
void add_trial_findings(const Diagnostics& from, const std::string& sweep_name, int64_t num_trials,
                        std::set<FindingKey>* seen, Diagnostics* into) {
  std::set<FindingKey> added;
  for (Diagnostic finding : from.all()) {
    bool about_name = finding.path == "metadata.name";
    finding.path = optimization_path(finding.path);
    FindingKey key{finding.pos.line, finding.pos.column, finding.path};
    if (seen->count(key) > 0) continue;
    added.insert(key);
    if (about_name) finding.message += sweep_name_hint(finding.message, sweep_name, num_trials);
    into->add(std::move(finding));
  }
  seen->insert(added.begin(), added.end());
}

/// The seed of a random search: the spec's, else --seed, else (validate) 0. Without one,
/// render refuses: an unseeded sweep would render other trials every time.
std::optional<uint64_t> sweep_seed(const Document& document, const OptimizationJob& job,
                                   const SweepOptions& sweep, Diagnostics* diagnostics) {
  if (job.seed) return static_cast<uint64_t>(*job.seed);
  if (sweep.seed) return static_cast<uint64_t>(*sweep.seed);
  if (sweep.check_only) return 0;
  diagnostics->error(document.file, document.message_pos_of(job.seed_path), job.seed_path,
                     "random search without a seed: every render would draw other trials, so "
                     "the output could not be kept in Git; set spec.searchAlgorithm.random.seed, "
                     "or pass --seed N");
  return std::nullopt;
}

/// Every trial of the sweep, in order; nothing when a random one has no seed. The seed drawn
/// with becomes the job's, so that the trials record it.
std::optional<std::vector<Trial>> sweep_trials(const Document& document, OptimizationJob* job,
                                               const SweepOptions& sweep,
                                               Diagnostics* diagnostics) {
  if (!job->grid) {
    std::optional<uint64_t> seed = sweep_seed(document, *job, sweep, diagnostics);
    if (!seed) return std::nullopt;
    job->seed = static_cast<int64_t>(*seed);
    return random_trials(*job, *seed);
  }
  uint64_t size = 0;
  std::vector<Trial> trials = grid_trials(*job, &size);
  if (size < static_cast<uint64_t>(job->num_trials)) {
    const char* path = "spec.numTrials";
    diagnostics->warning(document.file, document.message_pos_of(path), path,
                         "the grid has " + std::to_string(size) + " points, fewer than numTrials " +
                             std::to_string(job->num_trials) + ": " + std::to_string(size) +
                             " trials are rendered; set numTrials to " + std::to_string(size));
  }
  return trials;
}

/// The trials to compile: all, or the one --trial names.
std::vector<Trial> selected_trials(const Document& document, std::vector<Trial> trials,
                                   const SweepOptions& sweep, Diagnostics* diagnostics) {
  if (sweep.trial) {
    int64_t k = *sweep.trial;
    if (k >= 1 && k <= static_cast<int64_t>(trials.size())) return {trials[k - 1]};
    diagnostics->error(document.file, document.pos_of("metadata.name"), "metadata.name",
                       "--trial " + std::to_string(k) + ": OptimizationJob " + document.name() +
                           " has trials 1 to " + std::to_string(trials.size()));
    return {};
  }
  return trials;
}

}  // namespace

std::vector<Json> compile_optimization_job(const Document& document,
                                           const RuntimeRegistry& registry,
                                           const CompileOptions& options, const SweepOptions& sweep,
                                           InputSchemas* schemas, Diagnostics* schema_findings,
                                           Diagnostics* diagnostics) {
  std::optional<OptimizationJob> job = read_optimization_job(document, diagnostics);
  if (!job) return {};
  std::optional<std::vector<Trial>> all = sweep_trials(document, &*job, sweep, diagnostics);
  if (!all) return {};
  int64_t num_trials = static_cast<int64_t>(all->size());
  std::vector<Json> objects;
  std::set<FindingKey> seen_schema;
  std::set<FindingKey> seen;
  bool template_checked = false;  // the template is the same in every trial
  for (const Trial& trial : selected_trials(document, std::move(*all), sweep, diagnostics)) {
    Document trial_doc = trial_document(document, trial);
    Diagnostics trial_schema;
    Diagnostics trial_findings;
    if (!template_checked)
      InputCheck::check_schema(trial_doc, options.dialect, schemas, &trial_schema);
    template_checked = true;
    std::vector<Json> compiled = compile_trainjob(trial_doc, registry, options, &trial_findings);
    add_trial_findings(trial_schema, document.name(), num_trials, &seen_schema, schema_findings);
    add_trial_findings(trial_findings, document.name(), num_trials, &seen, diagnostics);
    for (Json& object : compiled) {
      mark_trial_object(*job, trial, num_trials, &object);
      objects.push_back(std::move(object));
    }
  }
  if (diagnostics->has_errors() || schema_findings->has_errors()) return {};
  return objects;
}

}  // namespace trainjob
