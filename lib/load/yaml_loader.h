// YAML and JSON text -> Documents with source positions.
#ifndef TRAINJOB_LOAD_YAML_LOADER_H_
#define TRAINJOB_LOAD_YAML_LOADER_H_

#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"

namespace trainjob {

/// Parses a multi-document YAML stream (JSON is read as YAML). Plain scalars resolve as
/// Kubernetes reads them (YAML 1.1 booleans, octal `0644`); empty documents are skipped;
/// a `List` is flattened into its items. Problems go to `diagnostics`; a syntax error
/// anywhere in the stream yields no documents, so nothing is half-read.
std::vector<Document> load_documents(const std::string& file, std::string_view text,
                                     Diagnostics* diagnostics);

/// The JSON value of one plain (unquoted) YAML scalar.
Json resolve_plain_scalar(std::string text);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_YAML_LOADER_H_
