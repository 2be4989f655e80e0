// `kubectl trainjob list`: the TrainJobs of a namespace, found by their labels.
#include <cstdio>
#include <memory>

#include "cluster/cluster_output.h"
#include "cluster/trainjob_list.h"
#include "cluster_flags.h"
#include "command.h"

namespace trainjob {
namespace {

struct ListFlags {
  ConnectionFlags connection;
  std::string output = "table";
};

int run_list(const ListFlags& flags) {
  return run_cluster_command([&] {
    ClusterSession session(flags.connection);
    std::vector<ListedTrainJob> trainjobs = list_trainjobs(&session.client(), session.name_space());
    std::string text;
    if (flags.output == "name") {
      text = format_trainjob_names(trainjobs);
    } else if (flags.output == "json" || flags.output == "yaml" ||
               is_jsonpath_format(flags.output)) {
      text = format_one(trainjob_status_list(trainjobs, session.name_space()), flags.output);
    } else if (trainjobs.empty()) {
      std::fprintf(stderr, "No TrainJobs found in %s namespace.\n", session.name_space().c_str());
    } else {
      text = format_trainjob_table(trainjobs, session.clock().now());
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    return static_cast<int>(kExitOk);
  });
}

}  // namespace

CommandRunner declare_list(CLI::App* app) {
  auto flags = std::make_shared<ListFlags>();
  std::vector<std::string> formats = {"table", "wide", "yaml", "json", "name"};
  app->add_option("-o,--output", flags->output,
                  "Output format: table, wide, yaml, json, name, or jsonpath=TEMPLATE as kubectl's "
                  "(`-o jsonpath='{.items[*].metadata.name}'`)")
      ->check(CLI::Validator(
          [formats](std::string& value) { return check_output_format(value, formats); },
          output_formats_text(formats)))
      ->capture_default_str();
  add_cluster_flags(app, &flags->connection);
  return [flags] { return run_list(*flags); };
}

}  // namespace trainjob
