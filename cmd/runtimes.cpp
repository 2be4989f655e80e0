// `kubectl trainjob runtimes`: the runtimes this binary can compile against offline, and
// with --runtimes-from-cluster those the cluster has; `runtimes get NAME` prints one.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "cluster/cluster_runtimes.h"
#include "cluster_flags.h"
#include "command.h"
#include "model/embedded_runtimes.h"
#include "model/runtime_policy.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"
#include "status/cluster_output.h"
#include "util/suggest.h"

namespace trainjob {
namespace {

struct RuntimesFlags {
  ConnectionFlags connection;
  std::string from_cluster;  ///< "true" with --runtimes-from-cluster
  CLI::App* get = nullptr;   ///< `runtimes get`
  std::string name;          ///< of `get`
  std::string output = "yaml";
  std::string trainer_version;
};

std::string framework_of(const Document& runtime) {
  auto metadata = runtime.value.find("metadata");
  if (metadata == runtime.value.end() || !metadata->is_object()) return "-";
  auto labels = metadata->find("labels");
  if (labels == metadata->end()) return "-";
  return string_member(*labels, kRuntimeFrameworkLabel, "-");
}

/// The cluster's runtimes first (they win over the built-in ones), then the embedded ones.
void load_runtimes(const RuntimesFlags& flags, RuntimeRegistry* registry,
                   Diagnostics* diagnostics) {
  if (flags.from_cluster == "true") {
    ClusterSession session(flags.connection);
    registry->add_layer("the cluster",
                        runtimes_from_cluster("true", &session.client(), session.name_space()));
  }
  add_embedded_runtimes(registry, diagnostics);
}

int list_runtimes(const RuntimeRegistry& registry, bool with_source) {
  std::vector<Runtime> runtimes = registry.all();
  // By name, then oldest releases first: a runtime's forms read as one entry each.
  std::stable_sort(runtimes.begin(), runtimes.end(), [](const Runtime& a, const Runtime& b) {
    if (a.document->name() != b.document->name()) return a.document->name() < b.document->name();
    return a.releases.first < b.releases.first;
  });
  std::printf("%-30s %-8s %-8s %-10s %s%s\n", "NAME", "POLICY", "TRAINER", "FRAMEWORK", "KIND",
              with_source ? "                 SOURCE" : "");
  for (const Runtime& runtime : runtimes) {
    const Document& document = *runtime.document;
    if (runtime.releases.empty()) continue;
    std::string kind = document.kind();
    if (with_source) kind.resize(std::max<size_t>(kind.size(), 22), ' ');
    std::printf("%-30s %-8s %-8s %-10s %s%s\n", document.name().c_str(),
                runtime_policy(document).c_str(), runtime.releases.text().c_str(),
                framework_of(document).c_str(), kind.c_str(),
                with_source ? (" " + runtime.source).c_str() : "");
  }
  return kExitOk;
}

/// `runtimes get NAME`: the form for `dialect`, from the first layer that has one.
std::optional<Runtime> find_named(const RuntimeRegistry& registry, const std::string& name,
                                  Dialect dialect) {
  std::vector<Runtime> all = registry.all();
  for (const char* kind : {kClusterTrainingRuntime, kTrainingRuntime}) {
    for (const Runtime& runtime : all) {
      if (runtime.document->name() == name && runtime.document->kind() == kind &&
          runtime.releases.contains(dialect))
        return runtime;
    }
  }
  return std::nullopt;
}

int get_runtime(const RuntimesFlags& flags, const RuntimeRegistry& registry) {
  Dialect dialect = kDefaultDialect;
  if (!flags.trainer_version.empty()) {
    std::optional<Dialect> parsed = parse_dialect(flags.trainer_version);
    if (!parsed)
      return usage_error("--trainer-version: expected one of " + dialect_names() + ", found \"" +
                         flags.trainer_version + "\"");
    dialect = *parsed;
  }
  std::optional<Runtime> runtime = find_named(registry, flags.name, dialect);
  if (!runtime) {
    std::vector<std::string> names = registry.names(kClusterTrainingRuntime, "");
    std::vector<std::string_view> candidates(names.begin(), names.end());
    std::string match = closest_match(flags.name, candidates);
    std::fprintf(stderr,
                 "error: runtime \"%s\" not found for Trainer %s%s; `kubectl trainjob "
                 "runtimes` lists them\n",
                 flags.name.c_str(), dialect_info(dialect).version,
                 match.empty() ? "" : ("; did you mean \"" + match + "\"?").c_str());
    return kExitFailure;
  }
  if (runtime->source != "the embedded runtimes")
    std::fprintf(stderr, "note: %s \"%s\" is read from %s\n", runtime->document->kind().c_str(),
                 flags.name.c_str(), runtime->source.c_str());
  std::string text = format_one(runtime->document->value, flags.output);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kExitOk;
}

int run_runtimes(const RuntimesFlags& flags) {
  return run_cluster_command([&] {
    RuntimeRegistry registry;
    Diagnostics diagnostics;
    load_runtimes(flags, &registry, &diagnostics);
    if (diagnostics.has_errors()) return report_diagnostics(&diagnostics);
    if (flags.get->parsed()) return get_runtime(flags, registry);
    return list_runtimes(registry, flags.from_cluster == "true");
  });
}

}  // namespace

CommandRunner declare_runtimes(CLI::App* app) {
  auto flags = std::make_shared<RuntimesFlags>();
  app->footer(
      "`runtimes get NAME -o yaml|json` prints one runtime. With --runtimes-from-cluster the\n"
      "cluster's ClusterTrainingRuntimes and the namespace's TrainingRuntimes come first\n"
      "(a SOURCE column says where each is from), as `submit` uses them.");
  add_runtimes_from_cluster_flag(app, &flags->from_cluster, /*automatic=*/false);
  add_cluster_flags(app, &flags->connection);
  flags->get = app->add_subcommand("get", "Print one runtime (-o yaml or json)");
  flags->get->fallthrough();  // the connection flags are `runtimes`' own
  flags->get->add_option("NAME", flags->name, "The runtime")->required()->type_name("RUNTIME");
  flags->get->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  flags->get
      ->add_option("--trainer-version", flags->trainer_version,
                   "The form for this Trainer release (" + dialect_names() + "; default " +
                       dialect_info(kDefaultDialect).version + ")")
      ->type_name("VERSION");
  return [flags] { return run_runtimes(*flags); };
}

}  // namespace trainjob
