// The command line as completion sees it: commands, their flags and positionals, read from
// the CLI11 app by cmd/ so that every flag a command declares is completed without a list
// kept by hand.
#ifndef TRAINJOB_COMPLETE_CLI_MODEL_H_
#define TRAINJOB_COMPLETE_CLI_MODEL_H_

#include <string>
#include <vector>

namespace trainjob {

struct CliFlag {
  std::string long_name;   ///< "output" (without dashes); empty when there is none
  std::string short_name;  ///< "o"; empty when there is none
  std::string description;
  bool takes_value = false;
  bool repeatable = false;  ///< may be given more than once (-f a -f b)
  /// What the value is: CLI11's type name ("PATH", "VERSION", "TEXT"); see value_kinds.h.
  std::string value_type;
  std::vector<std::string> choices;  ///< the only values accepted, when the flag checks them
  /// The value may be left out (`--dry-run` alone): then only `--flag=VALUE` gives one, as
  /// pflag reads a flag with a NoOptDefVal.
  bool value_optional = false;
};

struct CliPositional {
  std::string name;  ///< "NAME"
  std::string value_type;
  std::vector<std::string> choices;
};

struct CliCommand {
  std::string name;
  std::string description;
  bool hidden = false;  ///< never offered (`__complete`)
  std::vector<CliFlag> flags;
  std::vector<CliPositional> positionals;
  std::vector<CliCommand> subcommands;
  bool raw_words = false;  ///< every word after the name is the command's own (`__complete`)

  const CliCommand* find_subcommand(const std::string& word) const;
  /// The flag `--name` (long) or `-n` (short), or nullptr.
  const CliFlag* find_long(const std::string& flag_name) const;
  const CliFlag* find_short(const std::string& flag_name) const;
};

/// Splits a CLI11 type name into the type and the accepted values: CLI11 writes an option
/// checked with IsMember as `TEXT:{yaml,json}` (validator descriptions after colons).
void split_type_name(const std::string& text, std::string* type, std::vector<std::string>* choices);

}  // namespace trainjob

#endif  // TRAINJOB_COMPLETE_CLI_MODEL_H_
