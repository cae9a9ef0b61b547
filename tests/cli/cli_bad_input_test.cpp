// The malformed-input corpus (tests/data/bad/, listed in EXPECTED) through the binary:
// each exits with its code and a message naming the file and the problem, and writes
// nothing; an existing output file is left untouched.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/expected_cases.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

using BadCase = test::ExpectedCase;

std::vector<BadCase> load_cases() {
  return test::load_expected_cases(test::source_path("tests/data/bad/EXPECTED"));
}

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, exitsWithAClearMessageAndWritesNothing) {
  const BadCase& c = GetParam();
  test::TempDir dir;
  const std::string scenario = test::source_path("tests/data/bad/" + c.file);
  const std::string workbook = dir.file("out.xlsx");
  const auto result = test::run(test::gputco_exe(), {"plan", scenario, "-o", workbook});
  EXPECT_EQ(result.exit_code, c.exit_code) << result.err;
  EXPECT_NE(result.err.find(scenario), std::string::npos) << "message must name the file:\n"
                                                          << result.err;
  EXPECT_NE(result.err.find(c.expected), std::string::npos)
      << "expected: " << c.expected << "\ngot: " << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "nothing may be written";
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<BadCase>& param_info) {
                           return test::case_name(param_info.param.file);
                         });

TEST(BadInput, corpusIsNotEmpty) {
  EXPECT_GE(load_cases().size(), 30u);
}

TEST(BadInput, existingWorkbookIsLeftUntouched) {
  test::TempDir dir;
  const std::string workbook = dir.file("plan.xlsx");
  test::write_file(workbook, "yesterday's good workbook");
  const auto result =
      test::run(test::gputco_exe(),
                {"plan", test::source_path("tests/data/bad/unknown-gpu.ini"), "-o", workbook});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(test::read_file(workbook), "yesterday's good workbook");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator()),
            1);
}

TEST(BadInput, missingScenarioFileExitsTwo) {
  const auto result = test::run(test::gputco_exe(), {"plan", "/nonexistent/plan.ini"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("/nonexistent/plan.ini: cannot open the file"), std::string::npos)
      << result.err;
}

TEST(BadInput, aDirectoryAsTheScenarioExitsTwoNamingIt) {
  // Named like a scenario or not (newcomer7: a folder without .ini was "unknown scenario
  // format"): the reader must not fail with a message that names neither the problem nor
  // the file.
  test::TempDir dir;
  for (const char* name : {"plan.ini", "plans"}) {
    const std::string folder = dir.file(name);
    std::filesystem::create_directory(folder);
    for (const char* command : {"plan", "risk"}) {
      const auto result = test::run(test::gputco_exe(), {command, folder});
      EXPECT_EQ(result.exit_code, 2) << command << ": " << result.err;
      EXPECT_NE(result.err.find(folder + ": this is a directory, not a scenario file"),
                std::string::npos)
          << result.err;
    }
  }
  // diff's second scenario, missing and named without an extension.
  const auto missing = test::run(
      test::gputco_exe(),
      {"diff", test::source_path("scenarios/examples/office-assistant-32b.ini"), "/nonexistent"});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_NE(missing.err.find("/nonexistent: cannot open the file (does it exist?)"),
            std::string::npos)
      << missing.err;
}

TEST(BadInput, aRefusalInASweepNamesTheFileTheKeyAndTheValue) {
  // The scenario is valid; one of the sweep's horizons makes its growth explode. Every swept
  // value goes through the scenario parser, so its checks across keys name the line.
  test::TempDir dir;
  const std::string scenario = dir.file("growth.ini");
  test::write_file(scenario,
                   "[scenario]\nas_of = 2026-11-01\n[workload]\nmodel = llama-3.1-8b\n"
                   "quant = Q4_K_M\ntokens_per_day = 100000\ngrowth_per_month = 0.05\n"
                   "[option:a]\nkind = rent_hourly\ngpu = rtx-4090\n");
  const auto result = test::run(
      test::gputco_exe(), {"sweep", scenario, "--vary", "scenario.horizon_months=36:600:564"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("sweep: --vary 'scenario.horizon_months=36:600:564': "
                            "scenario.horizon_months = 600: " +
                            scenario +
                            ":7: [workload] growth_per_month: growth of 0.05 a month over "
                            "horizon_months = 600 multiplies the demand by more than a million"),
            std::string::npos)
      << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
}

TEST(BadInput, aSweepToZeroHoursOfADemandIsRefusedNotFree) {
  // At 0 hours a day the rental served 480,000 tokens a day for 0.00 and was recommended.
  test::TempDir dir;
  const std::string scenario = dir.file("demand.ini");
  test::write_file(scenario,
                   "[scenario]\nas_of = 2026-11-27\n[workload]\nmodel = qwen3-32b\n"
                   "quant = Q4_K_M\nhours_per_day = 9\ndays_per_month = 21\n"
                   "tokens_per_day = 480000\ninput_tokens_per_output_token = 3.75\n"
                   "[option:l40s]\nkind = rent_hourly\ngpu = l40s\n"
                   "[option:api]\nkind = api\napi = groq-qwen3-32b\n");
  const auto result = test::run(test::gputco_exe(),
                                {"sweep", scenario, "--vary", "workload.hours_per_day=0:24:12"});
  EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
  EXPECT_NE(result.err.find("workload.hours_per_day = 0: " + scenario +
                            ":6: [workload] hours_per_day: 0 hours of use a day cannot serve the "
                            "demand of tokens_per_day"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(test::run(test::gputco_exe(),
                      {"sweep", scenario, "--vary", "workload.hours_per_day=12:24:12"})
                .exit_code,
            0);
}

TEST(BadInput, aContextOrBackendTheModelOrDeviceCannotHaveIsRefusedWithItsLine) {
  test::TempDir dir;
  const auto plan = [&](const std::string& name, const std::string& workload,
                        const std::string& option) {
    const std::string scenario = dir.file(name + ".ini");
    test::write_file(scenario,
                     "[scenario]\nas_of = 2026-11-01\n[workload]\nmodel = llama-3-70b\n"
                     "quant = Q4_K_M\n" +
                         workload + "[option:a]\nkind = rent_hourly\ngpu = h100-sxm\n" + option);
    return std::make_pair(scenario,
                          test::run(test::gputco_exe(), {"plan", scenario, "--format", "json"}));
  };
  // Llama 3 70B was trained for 8,192 tokens.
  const auto [long_file, too_long] = plan("long", "context_tokens = 32768\n", "");
  EXPECT_EQ(too_long.exit_code, 2);
  EXPECT_NE(too_long.err.find(long_file +
                              ":6: [workload] context_tokens: context_tokens = 32768 is beyond "
                              "llama-3-70b's maximum context of 8192 tokens"),
            std::string::npos)
      << too_long.err;
  // One request's prompt and output must fit in a stream's context.
  const auto [request_file, request] =
      plan("request",
           "context_tokens = 4096\nrequests_per_day = 100\nprompt_tokens_per_request = 4000\n"
           "output_tokens_per_request = 200\n",
           "");
  EXPECT_EQ(request.exit_code, 2);
  EXPECT_NE(request.err.find("a request of 4000 prompt + 200 output tokens does not fit in "
                             "context_tokens = 4096"),
            std::string::npos)
      << request.err;
  // CUDA does not run on an AMD card.
  const auto [backend_file, backend] = plan("backend", "", "backend = metal\n");
  EXPECT_EQ(backend.exit_code, 2);
  EXPECT_NE(backend.err.find(backend_file +
                             ":9: [option:a] backend: metal runs on Apple devices only; h100-sxm "
                             "is nvidia (its default backend is cuda)"),
            std::string::npos)
      << backend.err;
  EXPECT_TRUE(too_long.out.empty() && request.out.empty() && backend.out.empty());
  // Without context_tokens the default 8,192 fits the model's own and plans.
  EXPECT_EQ(plan("default", "", "").second.exit_code, 0);
}

TEST(BadInput, aMissingCatalogFigureNamesTheOptionsLine) {
  // rate_per_gpu_hour is not in the file: the message points at the option's section.
  test::TempDir dir;
  const std::string scenario = dir.file("reserved.ini");
  test::write_file(scenario,
                   "[scenario]\nas_of = 2026-11-01\n[workload]\nmodel = llama-3.1-8b\n"
                   "quant = Q4_K_M\n[option:a]\nkind = rent_hourly\ngpu = rtx-3060-12gb\n"
                   "term = reserved_1y\n");
  const auto result = test::run(test::gputco_exe(), {"plan", scenario, "--format", "json"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(
      result.err.find(scenario + ":6: [option:a] rate_per_gpu_hour: the catalog has no reserved_1y "
                                 "hourly offer for rtx-3060-12gb"),
      std::string::npos)
      << result.err;
}

TEST(BadUsage, unknownOptionsAndCommandsExitTwo) {
  EXPECT_EQ(test::run(test::gputco_exe(), {"plan", "--frobnicate"}).exit_code, 2);
  EXPECT_EQ(test::run(test::gputco_exe(), {"frobnicate"}).exit_code, 2);
  EXPECT_EQ(test::run(test::gputco_exe(), {}).exit_code, 2);
  EXPECT_EQ(test::run(test::gputco_exe(), {"fit", "--model", "llama-3.1-8b"}).exit_code, 2);
  const auto typo =
      test::run(test::gputco_exe(), {"fit", "--model", "lama-3.1-8b", "--quant", "Q4_K_M"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("did you mean 'llama-3.1-8b'?"), std::string::npos) << typo.err;
  const auto not_a_catalog = test::run(
      test::gputco_exe(), {"catalog", "list", "gpus", "--catalog", test::source_path("README.md")});
  EXPECT_EQ(not_a_catalog.exit_code, 2) << not_a_catalog.err;
}

TEST(BadUsage, anEmptyOutputNameIsRefusedNotReplacedByTheDefault) {
  // -o "$OUT" with OUT unset wrote used-3090-rig-vs-rented-h100.xlsx in the working directory.
  test::TempDir dir;
  const auto result = test::run(
      test::gputco_exe(),
      {"plan", test::source_path("scenarios/examples/used-3090-rig-vs-rented-h100.ini"), "-o", ""},
      dir.path());
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("plan: --output is empty"), std::string::npos) << result.err;
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator()),
            0);
}

TEST(BadUsage, theWorkbookExtensionIsCaseInsensitiveAndOthersAreRefused) {
  test::TempDir dir;
  const std::string scenario =
      test::source_path("scenarios/examples/used-3090-rig-vs-rented-h100.ini");
  const auto upper =
      test::run(test::gputco_exe(), {"plan", scenario, "-o", "PLAN.XLSX"}, dir.path());
  EXPECT_EQ(upper.exit_code, 0) << upper.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/PLAN.XLSX"));
  const auto csv = test::run(test::gputco_exe(), {"plan", scenario, "-o", "plan.csv"}, dir.path());
  EXPECT_EQ(csv.exit_code, 2) << csv.err;
  EXPECT_NE(csv.err.find("--output must end in .xlsx, got 'plan.csv'"), std::string::npos)
      << csv.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/plan.csv"));
}

TEST(BadUsage, unwritableOutputIsARuntimeFailure) {
  const auto result =
      test::run(test::gputco_exe(),
                {"plan", test::source_path("scenarios/examples/used-3090-rig-vs-rented-h100.ini"),
                 "-o", "/nonexistent-dir/plan.xlsx"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.err.find("/nonexistent-dir/plan.xlsx"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace gputco
