#include "model/job_name.h"

namespace trainjob {

std::optional<std::string> read_job_name(const FieldReader& reader, const std::string& missing) {
  Field metadata = reader.root()["metadata"];
  std::optional<std::string> name = reader.string(metadata["name"]);
  if (name || metadata["name"]) return name;
  Field generate = metadata["generateName"];
  if (!generate) {
    reader.error("metadata.name", missing);
    return std::nullopt;
  }
  std::string prefix = generate.value->is_string() ? generate.value->get<std::string>() : "";
  std::string example = prefix.empty() ? "" : " (e.g. \"" + prefix + "1\")";
  reader.error("metadata.generateName",
               "expected a fixed metadata.name: the API server only picks a generated name "
               "when it creates the object, and a rendered job's Jobs, Services and pod "
               "addresses (MASTER_ADDR, TF_CONFIG, the MPI hostfile) are derived from its name "
               "beforehand; set metadata.name" +
                   example + " instead of generateName");
  return std::nullopt;
}

}  // namespace trainjob
