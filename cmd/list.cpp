// `kubectl trainjob list`: the TrainJobs of a namespace, found by their labels.
#include <cstdio>
#include <memory>

#include "cluster_flags.h"
#include "command.h"
#include "status/cluster_output.h"
#include "status/list/list_watch.h"
#include "status/list/trainjob_list.h"

namespace trainjob {
namespace {

struct ListFlags {
  ConnectionFlags connection;
  std::string output = "table";
  bool all_namespaces = false;
  std::string selector;
  bool no_headers = false;
  bool watch = false;
};

void print(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);  // --watch: each change as it comes
}

int run_list(const ListFlags& flags) {
  if (flags.watch && flags.output != "table" && flags.output != "wide" && flags.output != "name")
    return usage_error("--watch prints the table or, with -o name, names; not -o " + flags.output);
  return run_cluster_command([&] {
    ClusterSession session(flags.connection);
    // -A lists every namespace, as kubectl: the collection paths without a namespace.
    std::string name_space = flags.all_namespaces ? "" : session.name_space();
    std::vector<ListedTrainJob> trainjobs =
        list_trainjobs(&session.client(), name_space, flags.selector);
    std::string text;
    if (flags.output == "name") {
      text = format_trainjob_names(trainjobs);
    } else if (flags.output == "json" || flags.output == "yaml" ||
               is_jsonpath_format(flags.output)) {
      text = format_one(trainjob_status_list(trainjobs, name_space), flags.output);
    } else if (trainjobs.empty() && flags.all_namespaces) {
      std::fprintf(stderr, "No TrainJobs found.\n");
    } else if (trainjobs.empty()) {
      std::fprintf(stderr, "No TrainJobs found in %s namespace.\n", session.name_space().c_str());
    } else {
      text = format_trainjob_table(trainjobs, session.clock().now(), flags.all_namespaces);
      if (flags.no_headers) text.erase(0, text.find('\n') + 1);
    }
    print(text);
    if (!flags.watch) return static_cast<int>(kExitOk);
    ListWatchRequest request{name_space, flags.selector, flags.output == "name"};
    watch_trainjob_list(&session.client(), session.clock(), request, trainjobs, print);
    return static_cast<int>(kExitOk);
  });
}

}  // namespace

CommandRunner declare_list(CLI::App* app) {
  auto flags = std::make_shared<ListFlags>();
  add_output_flag(app, &flags->output, {"table", "wide", "yaml", "json", "name"},
                  "-o jsonpath='{.items[*].metadata.name}'");
  app->add_flag("-A,--all-namespaces", flags->all_namespaces,
                "List the TrainJobs of every namespace, with a NAMESPACE column");
  app->add_option("-l,--selector", flags->selector,
                  "Label selector, as kubectl's (app=x, tier in (a,b), !key): only the TrainJobs "
                  "whose Jobs it matches (their labels are the runtime template's and "
                  "the plugin's; a TrainJob's own metadata.labels are not copied to them)")
      ->type_name("SELECTOR");
  app->add_flag("--no-headers", flags->no_headers, "Print the table without its header row");
  app->add_flag("-w,--watch", flags->watch,
                "After the listing, print a TrainJob's row again whenever it changes, appears or "
                "goes away, until interrupted");
  add_cluster_flags(app, &flags->connection);
  return [flags] { return run_list(*flags); };
}

}  // namespace trainjob
