// The command line as kubectl's pflag reads it, spelled so that CLI11 reads it the same.
// pflag takes `-o=json` as `-o json` and `-R=false` as `--recursive=false`; CLI11 hands
// `=json` over as the value and rejects `-R=false`. Rewriting the words once, before CLI11
// parses them, gives every flag of every command kubectl's spellings.
#ifndef TRAINJOB_COMPLETE_PFLAG_WORDS_H_
#define TRAINJOB_COMPLETE_PFLAG_WORDS_H_

#include <string>
#include <vector>

#include "complete/cli_model.h"

namespace trainjob {

/// `args` (the words after the program's name) with each short flag given a value after
/// '=' (`-o=json`, `-R=false`, `-Rn=ns`) spelt as CLI11 reads it (`--output=json`,
/// `--recursive=false`, `-R --namespace=ns`). Every other word is kept: values in a word of
/// their own (even one starting with '=' or '-'), everything after `--`, words of a command
/// that takes them raw, and unknown flags (CLI11 reports them).
std::vector<std::string> pflag_words(const CliCommand& root, const std::vector<std::string>& args);

}  // namespace trainjob

#endif  // TRAINJOB_COMPLETE_PFLAG_WORDS_H_
