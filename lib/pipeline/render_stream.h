// `render` over a stream of any length with the memory of one piece of it.
#ifndef TRAINJOB_PIPELINE_RENDER_STREAM_H_
#define TRAINJOB_PIPELINE_RENDER_STREAM_H_

#include <cstdio>
#include <functional>

#include "diag/diagnostic.h"
#include "load/file_system.h"
#include "pipeline/render_pipeline.h"

namespace trainjob {

/// Takes one unit of output; the unit and its source are gone once it returns.
using UnitHandler = std::function<void(const RenderedUnit& unit)>;

/// What render_inputs (render_pipeline.h) does, in two readings of the inputs so that no more than
/// one piece of them (load/input_stream.h) is in memory at a time. The first reading loads every
/// document and keeps only what a TrainJob may refer to in another document: the
/// runtimes, the names of the ConfigMaps. The second loads them again, checks and compiles
/// a piece at a time, and hands the units to `on_unit` in input order as long as no error
/// has been found; after the first error the rest is only checked. Findings are those of
/// render_inputs; `stdin_file` is read for `-`.
void render_stream(const RenderRequest& request, const FileSystem& fs, const UnitHandler& on_unit,
                   Diagnostics* diagnostics, std::FILE* stdin_file = stdin);

}  // namespace trainjob

#endif  // TRAINJOB_PIPELINE_RENDER_STREAM_H_
