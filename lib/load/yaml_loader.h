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

/// Where a piece of a stream starts within the whole stream of its file.
struct StreamPosition {
  int line = 0;        ///< lines before the piece, from 0
  int index = 0;       ///< documents before the piece
  size_t markers = 0;  ///< `---` and `...` lines before the piece (see kMaxDocuments)
};

/// Parses `text`, the piece of `file`'s stream that starts at `*at` (at a `---` line, or
/// the stream's start), with the positions and document indexes of the whole stream, and
/// moves `*at` past it. Read in pieces, a stream costs the memory of one piece; what the
/// pieces yield is what load_documents yields for the whole, except that a syntax error
/// drops only the documents of its own piece (the caller drops the rest of the file).
std::vector<Document> load_stream_piece(const std::string& file, std::string_view text,
                                        StreamPosition* at, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_YAML_LOADER_H_
