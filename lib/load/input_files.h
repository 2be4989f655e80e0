// Expands the `-f` arguments into the texts to parse, with kubectl's rules.
#ifndef TRAINJOB_LOAD_INPUT_FILES_H_
#define TRAINJOB_LOAD_INPUT_FILES_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "load/file_system.h"

namespace trainjob {

struct InputOptions {
  std::vector<std::string> paths;  ///< `-f` values in order; `-` is standard input
  bool recursive = false;          ///< `-R`: walk directories below the named ones
};

/// The text of every input read, by the name diagnostics use for it (for caret display).
using SourceTexts = std::map<std::string, std::string>;

/// Reads standard input; a function so tests can supply it.
using StdinReader = std::function<std::string()>;

/// Every document of every input, in the order kubectl would read them: `-f` order,
/// directory entries sorted by name, documents in stream order. A directory contributes
/// only `.yaml`, `.yml` and `.json` files; a file named explicitly is read whatever its name.
std::vector<Document> load_inputs(const InputOptions& options, const FileSystem& fs,
                                  const StdinReader& read_stdin, Diagnostics* diagnostics,
                                  SourceTexts* texts = nullptr);

/// The inputs the `-f` values name, in kubectl's order: `-` as itself, a file named
/// explicitly whatever its name, and for a directory its `.yaml`, `.yml` and `.json` files
/// sorted by name (and, with `recursive`, those of its subdirectories in place). A missing
/// path or a directory that cannot be listed is an error in `diagnostics`. Unlike kubectl,
/// a walk leaves out kustomize's own file (kustomization.yaml: not an object to apply) and
/// hidden files and directories (editors' and tools' state), and says which in one
/// `note:` line on standard error (a note, not a warning: `validate --strict` passes).
std::vector<std::string> expand_input_paths(const InputOptions& options, const FileSystem& fs,
                                            Diagnostics* diagnostics);

/// True for names a directory walk picks up.
bool is_manifest_file_name(const std::string& name);
/// Why a directory walk leaves out an entry it would otherwise read ("a hidden file"); empty
/// when it does not.
std::string skipped_entry_reason(const std::string& name, bool directory);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_INPUT_FILES_H_
