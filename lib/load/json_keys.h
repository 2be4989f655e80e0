// The one key order of the plugin's output besides the input's own.
#ifndef TRAINJOB_LOAD_JSON_KEYS_H_
#define TRAINJOB_LOAD_JSON_KEYS_H_

#include "load/json.h"

namespace trainjob {

/// Sorts the keys of every mapping in `value` bytewise, as kubectl prints objects.
void sort_keys(Json* value);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_JSON_KEYS_H_
