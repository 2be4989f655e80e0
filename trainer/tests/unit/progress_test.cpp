// The progress line rank 0 prints; tests/unit/model/trainer_progress_test.cpp parses the same lines
// on the plugin's side, so that writer and reader stay in agreement.
#include "progress/progress.h"

#include <cmath>

#include <doctest/doctest.h>

using namespace trainjob::trainer;

TEST_CASE("progress line: an epoch's end of the CNN carries loss and accuracy") {
  ProgressReport report;
  report.epoch = 2;
  report.epochs = 2;
  report.step = 128;
  report.total_steps = 128;
  report.loss = 0.0412345678;
  report.accuracy = 0.9736328125;
  report.samples_per_second = 1410.44;
  report.remaining_seconds = 0.2;
  CHECK(progress_line(report) ==
        R"(TRAINJOB_PROGRESS {"epoch":2,"epochs":2,"step":128,"totalSteps":128,)"
        R"("loss":0.0412346,"accuracy":0.973633,"samplesPerSecond":1410.4,"remainingSeconds":0})");
}

TEST_CASE("progress line: no accuracy where there is none, nor unknown numbers") {
  ProgressReport report;
  report.epoch = 1;
  report.epochs = 5;
  report.step = 3;
  report.total_steps = 15;
  report.loss = 2.5;
  report.samples_per_second = NAN;
  CHECK(progress_line(report) ==
        R"(TRAINJOB_PROGRESS {"epoch":1,"epochs":5,"step":3,"totalSteps":15,"loss":2.5})");
}
