// Text laid out in columns as kubectl prints its tables: every column as wide as its widest
// cell, three spaces between columns. Used by `status`, `list` and the sweep table.
#ifndef TRAINJOB_UTIL_COLUMNS_H_
#define TRAINJOB_UTIL_COLUMNS_H_

#include <string>
#include <vector>

namespace trainjob {

/// `rows` (the header first, when there is one), each line ending in '\n'.
std::string format_columns(const std::vector<std::vector<std::string>>& rows);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_COLUMNS_H_
