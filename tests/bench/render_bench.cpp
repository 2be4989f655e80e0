// trainjob-bench: renders N generated TrainJobs in one process, streaming, and reports
// throughput, per-phase cost and peak RSS. A measurement, never a pass/fail test.
//
// Each TrainJob goes load -> compile -> format on its own, and everything it produced is
// dropped before the next one, so peak RSS should not grow with N: a growing RSS points at a
// leak or a cache, not at the size of the input.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <sys/resource.h>
#include <vector>

#include "diag/diagnostic.h"
#include "load/yaml_loader.h"
#include "model/embedded_runtimes.h"
#include "model/runtime_registry.h"
#include "output/render_output.h"
#include "render/compile.h"
#include "schema/input_schemas.h"

namespace trainjob {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int64_t n = 1000;
  bool phase = false;         // print the per-phase breakdown
  bool validate = false;      // what `validate` does: no YAML output
  bool json = false;          // one JSON object instead of text lines
  int64_t print_input = -1;   // print generated document I and exit (to check it by hand)
  bool print_stream = false;  // print all N documents as one YAML stream and exit
  bool policies = false;      // Trainer 2.3 TrainJobs across the stock runtimes of every policy
};

// Nanoseconds spent in each phase, summed over all TrainJobs.
struct PhaseTotals {
  int64_t generate = 0;  // building the input text: the benchmark's own cost, not the product's
  int64_t parse = 0;     // libyaml via load_documents
  int64_t schema = 0;    // InputSchemas::check_trainjob
  int64_t compile = 0;   // compile_trainjob
  int64_t emit = 0;      // format_objects to YAML, appended to the output sink
};

struct RunResult {
  int64_t trainjobs = 0;
  int64_t objects = 0;
  int64_t bytes = 0;
  int64_t setup_ns = 0;  // loading the embedded runtimes, once per process as the CLI does
  int64_t wall_ns = 0;   // the whole streaming loop, generation included
  PhaseTotals phases;
};

int64_t elapsed_ns(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// splitmix64: a fixed, seedless mix so document I is the same on every run and machine.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

void append_resources(uint64_t bits, std::string* out) {
  std::string cpu = std::to_string(1 + bits % 8);
  std::string memory = std::to_string(1 + (bits >> 3) % 32) + "Gi";
  bool gpu = (bits >> 8) % 4 == 0;  // a quarter ask for GPUs, which changes numProcPerNode=auto
  std::string gpu_line =
      gpu ? "        nvidia.com/gpu: " + std::to_string(1 + (bits >> 10) % 8) + "\n" : "";
  for (const char* section : {"requests", "limits"}) {
    *out += "      ";
    *out += section;
    *out += ":\n        cpu: \"" + cpu + "\"\n        memory: " + memory + "\n" + gpu_line;
  }
}

void append_env(uint64_t bits, int64_t index, std::string* out) {
  int count = static_cast<int>(bits % 4);
  if (count == 0) return;
  *out += "    env:\n";
  for (int k = 0; k < count; ++k) {
    *out += "      - name: BENCH_VAR_" + std::to_string(k) + "\n";
    *out += "        value: \"run-" + std::to_string(index) + "-" + std::to_string(k) + "\"\n";
  }
}

// The ConfigMap mount of templates/configmap.yaml, with a per-document volume and path.
void append_overrides(int64_t index, std::string* out) {
  std::string volume = "script-" + std::to_string(index % 97);
  *out +=
      "  podTemplateOverrides:\n"
      "    - targetJobs:\n"
      "        - name: node\n"
      "      spec:\n"
      "        containers:\n"
      "          - name: node\n"
      "            volumeMounts:\n"
      "              - name: " +
      volume +
      "\n"
      "                mountPath: /workspace/" +
      std::to_string(index % 13) +
      "\n"
      "        volumes:\n"
      "          - name: " +
      volume +
      "\n"
      "            configMap:\n"
      "              name: pytorch-demo-script-" +
      std::to_string(index % 7) + "\n";
}

// The same mount as a Trainer 2.2+ runtimePatch.
void append_runtime_patch(int64_t index, std::string* out) {
  std::string volume = "script-" + std::to_string(index % 97);
  *out += "  runtimePatches:\n    - manager: bench\n      trainingRuntimeSpec:\n";
  *out += "        template:\n          spec:\n            replicatedJobs:\n";
  *out += "              - name: node\n                template:\n                  spec:\n";
  *out += "                    template:\n                      spec:\n";
  *out += "                        containers:\n                          - name: node\n";
  *out += "                            volumeMounts:\n";
  *out += "                              - name: " + volume + "\n";
  *out +=
      "                                mountPath: /workspace/" + std::to_string(index % 13) + "\n";
  *out += "                        volumes:\n                          - name: " + volume + "\n";
  *out += "                            configMap:\n";
  *out +=
      "                              name: pytorch-demo-script-" + std::to_string(index % 7) + "\n";
}

// With --policies, document `index` uses one of these in turn: a stock runtime of each
// policy (torch, jax, xgboost, two of MPI) and our demo runtime.
constexpr const char* kPolicyRuntimes[] = {"torch-distributed",   "jax-distributed",
                                           "xgboost-distributed", "deepspeed-distributed",
                                           "mlx-distributed",     "training-runtime-demo"};

// Document `index`: a TrainJob like templates/configmap.yaml with its name, size, resources
// and env varied, against one of the two embedded runtimes. Replaces *out.
void generate_trainjob(int64_t index, bool policies, std::string* out) {
  uint64_t bits = mix(static_cast<uint64_t>(index));
  const char* runtime = index % 2 == 0 ? "training-runtime-demo" : "torch-distributed";
  if (policies) runtime = kPolicyRuntimes[index % std::size(kPolicyRuntimes)];
  int64_t num_nodes = 1 + index % 16;
  // 8 means "auto", which only Trainer 2.0-2.1 TrainJobs may say.
  int64_t proc_choice = static_cast<int64_t>((bits >> 20) % (policies ? 8 : 9));
  std::string num_proc = proc_choice == 8 ? "auto" : std::to_string(1 + proc_choice);
  out->clear();
  *out += "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n";
  *out += "  name: bench-" + std::to_string(index) + "\n";
  if (index % 3 == 0) *out += "  namespace: team-" + std::to_string(index % 5) + "\n";
  *out += "spec:\n  runtimeRef:\n    kind: ClusterTrainingRuntime\n";
  *out += "    name: " + std::string(runtime) + "\n";
  *out += "  trainer:\n    numNodes: " + std::to_string(num_nodes) + "\n";
  *out += "    numProcPerNode: " + num_proc + "\n    resourcesPerNode:\n";
  append_resources(bits >> 32, out);
  append_env(bits >> 24, index, out);
  if (policies) {
    append_runtime_patch(index, out);
  } else {
    append_overrides(index, out);
  }
}

[[noreturn]] void fail(const std::string& what, const Diagnostics& diagnostics) {
  std::fprintf(stderr, "trainjob-bench: %s\n", what.c_str());
  for (const Diagnostic& diagnostic : diagnostics.all()) {
    std::fprintf(stderr, "  %s\n", format_diagnostic(diagnostic).c_str());
  }
  std::exit(1);
}

// Like stdout's buffer: output accumulates, then is "flushed" (dropped) at a fixed size, so
// the copy the CLI pays to write is counted but memory stays bounded.
constexpr size_t kSinkFlushBytes = 1 << 20;

// The CLI formats all objects at once, "---" between them; joining per-TrainJob output with
// "---" gives the same bytes.
void append_yaml(const std::vector<Json>& objects, bool separate, std::string* sink) {
  std::vector<const Json*> pointers;
  pointers.reserve(objects.size());
  for (const Json& object : objects) {
    pointers.push_back(&object);
  }
  if (separate) *sink += "---\n";
  *sink += format_objects(pointers, OutputFormat::kYaml);
}

void render_one(int64_t index, const RuntimeRegistry& registry, InputSchemas* schemas,
                const Options& options, std::string* input, std::string* sink, RunResult* result) {
  bool validate_only = options.validate;
  Clock::time_point start = Clock::now();
  generate_trainjob(index, options.policies, input);
  result->phases.generate += elapsed_ns(start);

  Diagnostics diagnostics;
  start = Clock::now();
  std::vector<Document> documents = load_documents("bench.yaml", *input, &diagnostics);
  result->phases.parse += elapsed_ns(start);
  if (diagnostics.has_errors() || documents.size() != 1) fail("generated YAML", diagnostics);

  start = Clock::now();
  Dialect dialect = options.policies ? Dialect::kV2_3 : Dialect::kV2_1;
  if (!schemas->check_trainjob(documents[0].value, dialect).empty()) {
    fail("schema check of document " + std::to_string(index), diagnostics);
  }
  result->phases.schema += elapsed_ns(start);

  start = Clock::now();
  CompileOptions compile_options;
  std::vector<Json> objects =
      compile_trainjob(documents[0], registry, compile_options, &diagnostics);
  result->phases.compile += elapsed_ns(start);
  if (diagnostics.has_errors()) fail("compile of document " + std::to_string(index), diagnostics);

  if (validate_only) return;
  start = Clock::now();
  append_yaml(objects, index > 0, sink);
  result->phases.emit += elapsed_ns(start);

  result->objects += static_cast<int64_t>(objects.size());
  if (sink->size() >= kSinkFlushBytes) {
    result->bytes += static_cast<int64_t>(sink->size());
    sink->clear();  // keeps its capacity: the buffer is recycled, not reallocated
  }
}

RunResult run_stream(const Options& options) {
  RunResult result;
  Clock::time_point start = Clock::now();
  Diagnostics diagnostics;
  RuntimeRegistry registry;
  add_embedded_runtimes(&registry, &diagnostics);
  if (diagnostics.has_errors()) fail("embedded runtimes", diagnostics);
  result.setup_ns = elapsed_ns(start);

  std::string input;
  std::string sink;
  sink.reserve(kSinkFlushBytes + (64 << 10));
  start = Clock::now();
  InputSchemas schemas;
  for (int64_t i = 0; i < options.n; ++i)
    render_one(i, registry, &schemas, options, &input, &sink, &result);
  result.wall_ns = elapsed_ns(start);
  result.bytes += static_cast<int64_t>(sink.size());
  result.trainjobs = options.n;
  return result;
}

double peak_rss_mib() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

int64_t render_ns(const RunResult& r) {
  return r.phases.parse + r.phases.schema + r.phases.compile + r.phases.emit;
}

double per_trainjob(int64_t total_ns, const RunResult& r) {
  return r.trainjobs == 0 ? 0.0 : static_cast<double>(total_ns) / static_cast<double>(r.trainjobs);
}

double rate(const RunResult& r) {
  int64_t ns = render_ns(r);
  return ns == 0 ? 0.0 : static_cast<double>(r.trainjobs) * 1e9 / static_cast<double>(ns);
}

void print_text(const Options& options, const RunResult& r, double rss) {
  std::printf("trainjobs          %lld\n", static_cast<long long>(r.trainjobs));
  std::printf("objects            %lld\n", static_cast<long long>(r.objects));
  const char* what = options.validate ? "(parse+schema+compile)" : "(parse+schema+compile+emit)";
  std::printf("trainjobs_per_s    %.0f  %s\n", rate(r), what);
  std::printf("render_s           %.4f  %s\n", render_ns(r) / 1e9, what);
  std::printf("wall_s             %.4f  (loop incl. input generation)\n", r.wall_ns / 1e9);
  std::printf("setup_ms           %.3f  (embedded runtimes, once)\n", r.setup_ns / 1e6);
  std::printf("ns_per_trainjob    %.0f\n", per_trainjob(render_ns(r), r));
  std::printf("bytes_emitted      %lld\n", static_cast<long long>(r.bytes));
  std::printf("peak_rss_mib       %.1f\n", rss);
  if (!options.phase) return;
  const PhaseTotals& p = r.phases;
  int64_t total = render_ns(r);
  auto line = [&](const char* name, int64_t ns) {
    std::printf("phase_%-12s %8.0f ns/trainjob  %5.1f%%\n", name, per_trainjob(ns, r),
                total == 0 ? 0.0 : 100.0 * static_cast<double>(ns) / static_cast<double>(total));
  };
  line("parse", p.parse);
  line("schema", p.schema);
  line("compile", p.compile);
  line("emit", p.emit);
  std::printf("phase_%-12s %8.0f ns/trainjob  (benchmark only, not in render)\n", "generate",
              per_trainjob(p.generate, r));
}

void print_json(const RunResult& r, double rss) {
  const PhaseTotals& p = r.phases;
  std::printf(
      "{\"trainjobs\": %lld, \"objects\": %lld, \"trainjobs_per_s\": %.1f, \"render_s\": %.6f, "
      "\"wall_s\": %.6f, \"setup_ms\": %.3f, \"bytes_emitted\": %lld, \"peak_rss_mib\": %.2f, "
      "\"ns_per_trainjob\": {\"total\": %.1f, \"parse\": %.1f, \"compile\": %.1f, "
      "\"emit\": %.1f, \"generate\": %.1f}}\n",
      static_cast<long long>(r.trainjobs), static_cast<long long>(r.objects), rate(r),
      render_ns(r) / 1e9, r.wall_ns / 1e9, r.setup_ns / 1e6, static_cast<long long>(r.bytes), rss,
      per_trainjob(render_ns(r), r), per_trainjob(p.parse, r), per_trainjob(p.compile, r),
      per_trainjob(p.emit, r), per_trainjob(p.generate, r));
}

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr,
               "trainjob-bench: %s\n"
               "usage: trainjob-bench [--n N] [--validate] [--phase] [--json] [--print-input I] "
               "[--print-stream] [--policies]\n",
               problem);
  std::exit(2);
}

int64_t parse_count(const char* text) {
  char* end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || value < 0) usage("expected a non-negative integer");
  return value;
}

Options parse_args(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--n") == 0 && has_value) {
      options.n = parse_count(argv[++i]);
    } else if (std::strcmp(argv[i], "--print-stream") == 0) {
      options.print_stream = true;
    } else if (std::strcmp(argv[i], "--print-input") == 0 && has_value) {
      options.print_input = parse_count(argv[++i]);
    } else if (std::strcmp(argv[i], "--validate") == 0) {
      options.validate = true;
    } else if (std::strcmp(argv[i], "--phase") == 0) {
      options.phase = true;
    } else if (std::strcmp(argv[i], "--policies") == 0) {
      options.policies = true;
    } else if (std::strcmp(argv[i], "--json") == 0) {
      options.json = true;
    } else {
      usage((std::string("unknown or incomplete argument ") + argv[i]).c_str());
    }
  }
  return options;
}

}  // namespace
}  // namespace trainjob

int main(int argc, char** argv) {
  using namespace trainjob;
  Options options = parse_args(argc, argv);
  if (options.print_stream) {
    // The same documents the in-process run uses, for the CLI and Python comparisons.
    std::string text;
    for (int64_t i = 0; i < options.n; ++i) {
      generate_trainjob(i, options.policies, &text);
      std::fputs(i == 0 ? "" : "---\n", stdout);
      std::fputs(text.c_str(), stdout);
    }
    return 0;
  }
  if (options.print_input >= 0) {
    std::string text;
    generate_trainjob(options.print_input, options.policies, &text);
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  RunResult result = run_stream(options);
  double rss = peak_rss_mib();
  if (options.json) {
    print_json(result, rss);
  } else {
    print_text(options, result, rss);
  }
  return 0;
}
