#include "complete/cli_model.h"

namespace trainjob {

const CliCommand* CliCommand::find_subcommand(const std::string& word) const {
  for (const CliCommand& sub : subcommands)
    if (sub.name == word) return &sub;
  return nullptr;
}

const CliFlag* CliCommand::find_long(const std::string& flag_name) const {
  for (const CliFlag& flag : flags)
    if (!flag.long_name.empty() && flag.long_name == flag_name) return &flag;
  return nullptr;
}

const CliFlag* CliCommand::find_short(const std::string& flag_name) const {
  for (const CliFlag& flag : flags)
    if (!flag.short_name.empty() && flag.short_name == flag_name) return &flag;
  return nullptr;
}

namespace {

/// "{a,b,c}" -> a, b, c. Anything else (a range "[1 - 9]", a path check) gives nothing.
std::vector<std::string> set_members(const std::string& text) {
  std::vector<std::string> members;
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') return members;
  std::string current;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    if (text[i] == ',') {
      members.push_back(current);
      current.clear();
    } else {
      current += text[i];
    }
  }
  members.push_back(current);
  return members;
}

}  // namespace

void split_type_name(const std::string& text, std::string* type,
                     std::vector<std::string>* choices) {
  size_t colon = text.find(':');
  *type = text.substr(0, colon);
  choices->clear();
  while (colon != std::string::npos) {
    size_t next = text.find(':', colon + 1);
    // A set's members never contain ':' here; a validator description that does is not a set.
    std::vector<std::string> members = set_members(text.substr(colon + 1, next - colon - 1));
    choices->insert(choices->end(), members.begin(), members.end());
    colon = next;
  }
}

}  // namespace trainjob
