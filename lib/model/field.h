// Typed reads of document fields that report a mismatch instead of throwing.
#ifndef TRAINJOB_MODEL_FIELD_H_
#define TRAINJOB_MODEL_FIELD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "load/json.h"

namespace trainjob {

/// A value inside a document. Empty when the field is absent or null (Kubernetes treats an
/// explicit null like an absent field).
class Field {
 public:
  const Json* value = nullptr;

  explicit operator bool() const { return value != nullptr && !value->is_null(); }
  Field operator[](std::string_view key) const;
  Field at(size_t index) const;
  /// The field path, `spec.trainer.env[2].name`. It is found from the document when asked
  /// for: most fields are read and never reported, and spelling out the path of each read
  /// took a tenth of the time of checking a TrainJob.
  std::string path() const;

 private:
  friend class FieldReader;
  Field child_of_absent(std::string relative) const;

  const Json* root_ = nullptr;    ///< the document, where a present value is looked for
  const Json* anchor_ = nullptr;  ///< an absent field's nearest present ancestor
  std::string relative_;          ///< and its path from there (`spec.template`, `[0]`)
};

/// What a value is, for messages: `string "abc"`, `integer 3`, `a mapping`.
std::string describe_value(const Json& value);

/// Reads fields of one document, sending type mismatches to its diagnostics.
class FieldReader {
 public:
  FieldReader(const Document& document, Diagnostics* diagnostics)
      : document_(document), diagnostics_(diagnostics) {}

  Field root() const;
  const Document& document() const { return document_; }
  Diagnostics* diagnostics() const { return diagnostics_; }

  void error(const std::string& path, const std::string& message) const;
  /// An error about the key of a map entry (an unknown field), reported at the key.
  void key_error(const std::string& path, const std::string& message) const;
  void warning(const std::string& path, const std::string& message) const;
  /// Reports `expected <what>, found <value>` at the field.
  void mismatch(const Field& field, std::string_view expected) const;

  bool is_object(const Field& field) const;  ///< present and a mapping (else reported)
  bool is_array(const Field& field) const;   ///< present and a sequence (else reported)
  std::optional<std::string> string(const Field& field) const;
  std::optional<int64_t> integer(const Field& field) const;
  std::optional<bool> boolean(const Field& field) const;

 private:
  const Document& document_;
  Diagnostics* diagnostics_;
};

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_FIELD_H_
