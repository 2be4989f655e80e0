// What a sweep prints while it runs. On a terminal the trial table is redrawn in place as
// trials start, report and end; piped, each start and end is one line (a log or a script
// reads them), and the table is printed once at the end. Either way the search ends with the
// table and the best trial.
#ifndef TRAINJOB_SWEEP_SWEEP_DISPLAY_H_
#define TRAINJOB_SWEEP_SWEEP_DISPLAY_H_

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "optimize/trial_results.h"

namespace trainjob {

class SweepDisplay {
 public:
  SweepDisplay(std::FILE* out, std::FILE* err);

  void heading(const std::string& name, size_t trials, int64_t parallel,
               const SweepObjective& objective, const std::string& seed_note);
  void trial_started(const std::vector<TrialResult>& trials, size_t i,
                     const SweepObjective& objective);
  void trial_ended(const std::vector<TrialResult>& trials, size_t i,
                   const SweepObjective& objective, double seconds);
  /// `error: text` or `note: text` on stderr.
  void message(const char* kind, const std::string& text);
  /// On a terminal, the table as it is now.
  void refresh(const std::vector<TrialResult>& trials, const SweepObjective& objective);
  /// The last table, then the best trial (or, with `say_none`, that there is none) and how
  /// many failed.
  void finish(const std::vector<TrialResult>& trials, const SweepObjective& objective,
              std::optional<size_t> best, bool say_none);

 private:
  /// On a terminal: takes the table off the screen, so that a line can go above it.
  void erase_table();

  std::FILE* out_;
  std::FILE* err_;
  bool live_;
  int table_lines_ = 0;  ///< lines of the table on screen now
  std::string drawn_;    ///< what they say
};

}  // namespace trainjob

#endif  // TRAINJOB_SWEEP_SWEEP_DISPLAY_H_
