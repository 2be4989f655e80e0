#include "complete/pflag_words.h"

namespace trainjob {
namespace {

/// `flag` given `value` in one word CLI11 reads as pflag does.
std::string attached(const CliFlag& flag, const std::string& value) {
  if (!flag.long_name.empty()) return "--" + flag.long_name + "=" + value;
  return "-" + flag.short_name + value;  // CLI11 reads `-xVALUE` as pflag does
}

/// Rewrites the short-flag word `args[*i]` (`-x...`) onto `out`; moves `*i` past a value
/// that takes the next word, so that it is kept as it is.
void short_flags(const CliCommand& command, const std::vector<std::string>& args, size_t* i,
                 std::vector<std::string>* out) {
  const std::string& word = args[*i];
  for (size_t at = 1; at < word.size(); ++at) {
    const CliFlag* flag = command.find_short(word.substr(at, 1));
    std::string rest = word.substr(at + 1);
    if (flag == nullptr) {
      out->push_back("-" + word.substr(at));  // unknown: CLI11 says so
      return;
    }
    bool equals = !rest.empty() && rest[0] == '=';
    if (!flag->takes_value) {
      if (equals) {  // -R=false
        out->push_back(attached(*flag, rest.substr(1)));
        return;
      }
      out->push_back("-" + flag->short_name);  // -R, or one of -Rw
      continue;
    }
    if (equals) {
      out->push_back(attached(*flag, rest.substr(1)));  // -o=json
    } else if (!rest.empty()) {
      out->push_back("-" + flag->short_name + rest);  // -ojson
    } else {
      out->push_back("-" + flag->short_name);
      if (!flag->value_optional && *i + 1 < args.size()) out->push_back(args[++*i]);  // -o json
    }
    return;
  }
}

}  // namespace

std::vector<std::string> pflag_words(const CliCommand& root, const std::vector<std::string>& args) {
  std::vector<std::string> out;
  const CliCommand* command = &root;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--" || command->raw_words) {
      out.insert(out.end(), args.begin() + static_cast<long>(i), args.end());
      break;
    }
    if (word.rfind("--", 0) == 0) {
      out.push_back(word);
      const CliFlag* flag = command->find_long(word.substr(2));  // not found when it has '='
      if (flag != nullptr && flag->takes_value && !flag->value_optional && i + 1 < args.size())
        out.push_back(args[++i]);  // --output json: the value is kept as it is
    } else if (word.size() > 1 && word[0] == '-') {
      short_flags(*command, args, &i, &out);
    } else {
      out.push_back(word);
      if (const CliCommand* sub = command->find_subcommand(word)) command = sub;
    }
  }
  return out;
}

}  // namespace trainjob
