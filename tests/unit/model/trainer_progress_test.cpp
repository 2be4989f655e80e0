#include "model/trainer_progress.h"

#include <string>

#include <doctest/doctest.h>

using namespace trainjob;

TEST_CASE("progress: a line the C++ trainer prints") {
  auto progress = parse_progress_line(
      R"(TRAINJOB_PROGRESS {"epoch":3,"epochs":10,"step":300,"totalSteps":1000,"loss":0.021,)"
      R"("samplesPerSecond":1410.4,"remainingSeconds":130})");
  REQUIRE(progress);
  CHECK(*progress->epoch == 3);
  CHECK(*progress_percentage(*progress) == 30);
  CHECK(format_progress(*progress) == "epoch 3/10 (30%), loss 0.021, 1,410 samples/s, ~2m left");
  Json status = trainer_status_json(*progress);
  CHECK(status["estimatedRemainingSeconds"] == 130);
  CHECK(status["metrics"][1]["value"] == "1410.4");
}

TEST_CASE("progress: the trainer's epoch-end line carries loss and accuracy as metrics") {
  // The line trainer/tests/unit/progress_test.cpp expects the trainer to print.
  auto progress = parse_progress_line(
      R"(TRAINJOB_PROGRESS {"epoch":2,"epochs":2,"step":128,"totalSteps":128,)"
      R"("loss":0.0412346,"accuracy":0.973633,"samplesPerSecond":1410.4,"remainingSeconds":0})");
  REQUIRE(progress);
  REQUIRE(progress->metrics.size() == 3);
  CHECK(progress->metrics[0] == std::pair<std::string, std::string>("loss", "0.0412346"));
  CHECK(progress->metrics[1] == std::pair<std::string, std::string>("accuracy", "0.973633"));
  Json status = trainer_status_json(*progress);
  CHECK(status["progressPercentage"] == 100);
  CHECK(status["metrics"][1] == Json({{"name", "accuracy"}, {"value", "0.973633"}}));
}

TEST_CASE("progress: other lines, broken JSON and huge lines are not progress") {
  CHECK_FALSE(parse_progress_line("Epoch [3/10], Average Loss: 0.021"));
  CHECK_FALSE(parse_progress_line("TRAINJOB_PROGRESS {\"epoch\":"));
  CHECK_FALSE(parse_progress_line("TRAINJOB_PROGRESS [1,2]"));
  CHECK_FALSE(parse_progress_line("TRAINJOB_PROGRESS {}" + std::string(kMaxProgressLine, ' ')));
}

TEST_CASE("progress: the last line of a log wins, with its kubelet timestamp") {
  std::string log =
      "2026-11-23T10:00:00.1Z TRAINJOB_PROGRESS {\"epoch\":1,\"epochs\":2}\n"
      "2026-11-23T10:00:05.2Z [rank 0] TRAINJOB_PROGRESS {\"epoch\":2,\"epochs\":2}\n"
      "2026-11-23T10:00:06.3Z done\n";
  auto progress = latest_progress(log, true);
  REQUIRE(progress);
  CHECK(*progress->epoch == 2);
  CHECK(progress->time == "2026-11-23T10:00:05.2Z");
  CHECK(*progress_percentage(*progress) == 100);
  CHECK_FALSE(latest_progress("no progress here\n", false));
  CHECK_FALSE(latest_progress("", false));
}

TEST_CASE("progress: steps alone, durations, percentages kept in 0..100") {
  auto steps = parse_progress_line(
      "TRAINJOB_PROGRESS {\"step\":5,\"totalSteps\":3,"
      "\"remainingSeconds\":7300}");
  REQUIRE(steps);
  CHECK(format_progress(*steps) == "step 5/3 (100%), ~2h2m left");
  auto seconds = parse_progress_line("TRAINJOB_PROGRESS {\"remainingSeconds\":42}");
  REQUIRE(seconds);
  CHECK(format_progress(*seconds) == "~42s left");
  CHECK_FALSE(progress_percentage(*seconds));
  CHECK(trainer_status_json(*seconds).count("progressPercentage") == 0);
}

TEST_CASE("progress: upstream's metrics array, with estimatedRemainingSeconds") {
  // A program that prints what it would POST to the status server, less the wrapper.
  auto progress = parse_progress_line(
      R"([rank 0] TRAINJOB_PROGRESS {"epoch":2,"epochs":4,"estimatedRemainingSeconds":75,)"
      R"("metrics":[{"name":"loss","value":"0.25"},{"name":"accuracy","value":0.9},)"
      R"({"name":"bad","value":{"x":1}},{"value":"1"},"loose"]})");
  REQUIRE(progress);
  CHECK(*progress->remaining_seconds == 75);
  // Entries without a name or with a structured value are skipped; numbers become text.
  REQUIRE(progress->metrics.size() == 2);
  CHECK(progress->metrics[0] == std::pair<std::string, std::string>("loss", "0.25"));
  CHECK(progress->metrics[1] == std::pair<std::string, std::string>("accuracy", "0.9"));
  CHECK(format_progress(*progress) == "epoch 2/4 (50%), loss 0.25, ~1m left");
  Json status = trainer_status_json(*progress);
  CHECK(status["estimatedRemainingSeconds"] == 75);
  CHECK(status["metrics"][0] == Json({{"name", "loss"}, {"value", "0.25"}}));
}

TEST_CASE("progress: a whole trainerStatus body, as the trainer POSTs it, reads back the same") {
  const std::string body =
      R"({"trainerStatus":{"progressPercentage":75,"estimatedRemainingSeconds":42,)"
      R"("metrics":[{"name":"loss","value":"0.333333"},{"name":"accuracy","value":"0.91"}],)"
      R"("lastUpdatedTime":"2026-11-23T10:00:05Z"}})";
  auto progress = parse_progress_line("TRAINJOB_PROGRESS " + body);
  REQUIRE(progress);
  CHECK(*progress->remaining_seconds == 42);
  CHECK(*progress_percentage(*progress) == 75);
  // The percentage and the time are the status's own fields, not metrics.
  REQUIRE(progress->metrics.size() == 2);
  CHECK(progress->metrics[1] == std::pair<std::string, std::string>("accuracy", "0.91"));
  CHECK(progress->time == "2026-11-23T10:00:05Z");
  CHECK(format_progress(*progress) == "(75%), loss 0.333333, ~42s left");
  CHECK(trainer_status_json(*progress) == Json::parse(body)["trainerStatus"]);
  // Its trainerStatus alone reads the same; the kubelet's timestamp wins over the program's.
  auto inner = latest_progress("2026-11-23T10:00:07.5Z TRAINJOB_PROGRESS " +
                                   Json::parse(body)["trainerStatus"].dump() + "\n",
                               true);
  REQUIRE(inner);
  CHECK(inner->time == "2026-11-23T10:00:07.5Z");
  CHECK(inner->metrics == progress->metrics);
  // Steps and epochs, when a line has them too, decide the percentage.
  auto both =
      parse_progress_line(R"(TRAINJOB_PROGRESS {"step":1,"totalSteps":4,"progressPercentage":90})");
  REQUIRE(both);
  CHECK(*progress_percentage(*both) == 25);
  auto over = parse_progress_line(R"(TRAINJOB_PROGRESS {"progressPercentage":250})");
  REQUIRE(over);
  CHECK(*progress_percentage(*over) == 100);
}

TEST_CASE("a progress line that is no JSON is told from prose that names the marker") {
  using Kind = ProgressLine::Kind;
  CHECK(classify_progress_line(R"(TRAINJOB_PROGRESS {"loss": 0.5})").kind == Kind::kProgress);
  CHECK(classify_progress_line(R"([rank 0] TRAINJOB_PROGRESS{"loss": 0.5})").kind ==
        Kind::kProgress);
  // Python's print("TRAINJOB_PROGRESS", {...}) and a number JSON has not.
  ProgressLine dict = classify_progress_line("TRAINJOB_PROGRESS {'loss': 0.128}\r");
  CHECK(dict.kind == Kind::kNotJson);
  CHECK(dict.body == "{'loss': 0.128}");
  CHECK_FALSE(dict.progress);
  CHECK(classify_progress_line(R"(TRAINJOB_PROGRESS {"loss": nan})").kind == Kind::kNotJson);
  CHECK(classify_progress_line("TRAINJOB_PROGRESS [1,2]").kind == Kind::kNotJson);
  CHECK(classify_progress_line("TRAINJOB_PROGRESS {}" + std::string(kMaxProgressLine, ' ')).kind ==
        Kind::kNotJson);
  // Messages that name the marker, ours among them, are no progress line at all.
  CHECK(classify_progress_line("a program reports them in TRAINJOB_PROGRESS lines").kind ==
        Kind::kOther);
  CHECK(classify_progress_line("TRAINJOB_PROGRESS").kind == Kind::kOther);
  CHECK(classify_progress_line("loss 0.5").kind == Kind::kOther);
}

TEST_CASE("lines that are not JSON are counted, the first shown, and the text is no such line") {
  BadProgressLines bad;
  CHECK(bad.describe().empty());
  auto latest = latest_progress(
      "TRAINJOB_PROGRESS {'loss': 0.9}\n"
      "TRAINJOB_PROGRESS {\"loss\": 0.5}\n"
      "TRAINJOB_PROGRESS {'loss': 0.1}\n",
      false, &bad);
  REQUIRE(latest);
  CHECK(latest->metrics[0].second == "0.5");
  CHECK(bad.count == 2);
  CHECK(bad.describe() ==
        "2 TRAINJOB_PROGRESS lines were not JSON: {'loss': 0.9} (a program prints json.dumps of "
        "its dict, docs/progress.md)");
  CHECK(classify_progress_line(bad.describe()).kind == ProgressLine::Kind::kOther);
  BadProgressLines one;
  one.add(std::string(200, '{'));
  CHECK(one.describe().rfind("1 TRAINJOB_PROGRESS line was not JSON: " +
                                 std::string(kShownBadProgress, '{') + "... (",
                             0) == 0);
  one.merge(bad);
  CHECK(one.count == 3);
  CHECK(one.first.size() == kShownBadProgress);
}
