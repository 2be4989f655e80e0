// kubectl's verbs that are no command here, each with the command (or kubectl command) that
// does what a kubectl user reaches for it to do: `kubectl trainjob get` answers with status
// and list rather than a did-you-mean.
#ifndef TRAINJOB_COMPLETE_KUBECTL_VERBS_H_
#define TRAINJOB_COMPLETE_KUBECTL_VERBS_H_

#include <string>

namespace trainjob {

/// What to use instead of kubectl's `verb`; empty when `verb` is not one of kubectl's or has
/// no counterpart worth a pointer.
std::string kubectl_verb_pointer(const std::string& verb);

}  // namespace trainjob

#endif  // TRAINJOB_COMPLETE_KUBECTL_VERBS_H_
