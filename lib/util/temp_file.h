// Anonymous temporary files for data too large to keep in memory.
#ifndef TRAINJOB_UTIL_TEMP_FILE_H_
#define TRAINJOB_UTIL_TEMP_FILE_H_

#include <cstdio>
#include <string>

namespace trainjob {

/// A new file in $TMPDIR (else /tmp), already unlinked so that it goes away with the
/// process however it ends; null, and *error says why (naming the directory), on failure.
std::FILE* open_temp_file(std::string* error);

/// "cannot write the temporary file in DIR: REASON" for the errno of a failed write.
std::string temp_write_error();

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_TEMP_FILE_H_
