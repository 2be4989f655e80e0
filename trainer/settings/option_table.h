// The trainer's settings, one table row each: flag, torchrun spelling, environment
// variable, help and the setter that checks and stores a value (options.cpp reads them from
// the command line and the environment).
#ifndef TRAINJOB_TRAINER_SETTINGS_OPTION_TABLE_H_
#define TRAINJOB_TRAINER_SETTINGS_OPTION_TABLE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "settings/options.h"

namespace trainjob::trainer {

/// Each setter stores a value or returns what was expected.
using Setter = std::function<std::string(Options&, const std::string&)>;

struct Setting {
  const char* flag;  ///< without the leading dashes, words joined by '-'
  const char* env;
  const char* metavar;
  const char* help;
  Setter set;
  const char* short_flag = nullptr;  ///< torchrun's -r, -t
};

/// A flag without a value; its variable takes 1/0, true/false.
struct Switch {
  const char* names;  ///< CLI11 names
  const char* env;    ///< nullptr: no variable
  const char* help;
  bool Options::*field;
};

/// A whole decimal integer, or nullopt for an empty, out-of-range or partly numeric text. The
/// setters read integers with it, and so does resolve_nproc (options.cpp).
std::optional<long long> parse_integer(const std::string& text);

/// Every setting with a value, in help order.
const std::vector<Setting>& settings();
/// Every flag without a value.
const std::vector<Switch>& switches();

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_SETTINGS_OPTION_TABLE_H_
