// kubeconfig files read and merged exactly as kubectl does (client-go clientcmd rules).
#ifndef TRAINJOB_KUBE_KUBECONFIG_H_
#define TRAINJOB_KUBE_KUBECONFIG_H_

#include <map>
#include <string>
#include <vector>

#include "kube/environment.h"
#include "load/json.h"

namespace trainjob {

/// A cluster, user or context entry with the directory of the file that defined it, against
/// which its relative paths resolve.
struct KubeconfigEntry {
  Json value;  ///< the `cluster`, `user` or `context` mapping
  std::string origin_dir;
  std::string origin_file;
};

struct Kubeconfig {
  std::map<std::string, KubeconfigEntry> clusters;
  std::map<std::string, KubeconfigEntry> users;
  std::map<std::string, KubeconfigEntry> contexts;
  std::string current_context;
  std::vector<std::string> files;  ///< the files that were read, in order

  bool empty() const { return clusters.empty() && users.empty() && contexts.empty(); }
};

/// The files kubectl would read: `--kubeconfig` alone; else KUBECONFIG's entries (':'
/// separated, empty and repeated ones dropped); else ~/.kube/config.
std::vector<std::string> kubeconfig_paths(const std::string& explicit_path, const Environment& env);

/// Reads and merges: the first file defining a named entry wins it wholesale, and the first
/// non-empty current-context wins. A missing file is an error only when named by
/// --kubeconfig. Throws KubeError for unreadable or malformed files.
Kubeconfig load_kubeconfig(const std::string& explicit_path, const Environment& env);

/// Merges one more parsed file into `config` (exposed for tests).
void merge_kubeconfig_file(const std::string& file, const Json& document, Kubeconfig* config);

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_KUBECONFIG_H_
