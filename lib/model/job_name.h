// The name of a job being compiled (TrainJob or Training Operator job), read from
// metadata.name. A job that only has metadata.generateName cannot be compiled: the API
// server picks the name when it creates the object, and the Jobs, Services and the pods'
// addresses the compiler writes are all derived from it beforehand.
#ifndef TRAINJOB_MODEL_JOB_NAME_H_
#define TRAINJOB_MODEL_JOB_NAME_H_

#include <optional>
#include <string>

#include "model/field.h"

namespace trainjob {

/// metadata.name of the job `reader` reads. When it is absent, reports at
/// metadata.generateName if the job has one (why a fixed name is needed, and the fix),
/// else `missing` at metadata.name; a name of the wrong type is reported as such.
std::optional<std::string> read_job_name(const FieldReader& reader, const std::string& missing);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_JOB_NAME_H_
