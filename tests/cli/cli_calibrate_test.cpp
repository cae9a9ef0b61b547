// gputco calibrate through the binary: benchmark files stored in the user catalog, listed,
// removed; throughput, the finder and their JSON saying which figures rest on them (issue #36).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

std::string bench(const std::string& name) {
  return test::source_path("tests/data/benchmarks/" + name);
}

/// Three runs of the fleet example's H100 box (Llama 3.3 70B FP8, vLLM 0.10.1, 4 x H100 at TP4,
/// 1000 / 250 tokens, at 16, 64 and 128 in flight): illustrative figures, faster than the model.
const std::string kH100Tp4Runs =
    "model,quant,gpu,gpu_count,tp,engine,engine_version,input_tokens,output_tokens,concurrency,"
    "output_tokens_per_s,mean_tpot_ms,mean_ttft_ms,duration_s,requests,measured_on\n"
    "llama-3.3-70b,FP8,h100-sxm,4,4,vllm,0.10.1,1000,250,16,1200,12.5,150,120,600,2026-11-01\n"
    "llama-3.3-70b,FP8,h100-sxm,4,4,vllm,0.10.1,1000,250,64,3000,20,300,120,1500,2026-11-01\n"
    "llama-3.3-70b,FP8,h100-sxm,4,4,vllm,0.10.1,1000,250,128,4200,28,600,120,2100,2026-11-01\n";

class CliCalibrate : public ::testing::Test {
 protected:
  test::TempDir dir_;
  test::RunResult gputco(const std::vector<std::string>& args) {
    return test::run(test::gputco_exe(), args, dir_.path(), {{"XDG_DATA_HOME", dir_.file("xdg")}});
  }
  test::RunResult store_sweep() {
    return gputco({"calibrate", bench("sglang-deepseek-r1-h200-c8-32-128.jsonl"), "--model",
                   "deepseek-r1", "--quant", "FP8", "--gpu", "h200-sxm", "--count", "8", "--tp",
                   "8", "--engine-version", "0.4.3.post2", "--measured-on", "2025-03-18"});
  }
};

TEST_F(CliCalibrate, storesTheRunsOnceAndThroughputSaysItRestsOnThem) {
  const auto stored = store_sweep();
  ASSERT_EQ(stored.exit_code, 0) << stored.err;
  EXPECT_NE(stored.out.find(": 3 new, 0 already stored"), std::string::npos) << stored.out;
  EXPECT_NE(stored.out.find("deepseek-r1 FP8 on h200-sxm with SGLang: calibrated on 3 runs of "
                            "yours, 2025-03-18 (refit"),
            std::string::npos)
      << stored.out;
  const auto again = store_sweep();
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find(": 0 new, 3 already stored"), std::string::npos) << again.out;

  const auto list = gputco({"calibrate", "--list", "--json"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const auto runs = nlohmann::json::parse(list.out).at("runs");
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[2].at("id"), "run-3");
  EXPECT_EQ(runs[2].at("concurrency"), 125.1194932);
  EXPECT_EQ(runs[2].at("file"), "sglang-deepseek-r1-h200-c8-32-128.jsonl");

  // dstack's run at 64 in flight (not stored) decoded 47 at a time at 590.8 tokens/s.
  const auto tput = gputco({"throughput", "--model",        "deepseek-r1", "--quant",
                            "FP8",        "--gpu",          "h200-sxm",    "--count",
                            "8",          "--tp",           "8",           "--engine",
                            "sglang",     "--input-tokens", "3200",        "--output-tokens",
                            "800",        "--batch",        "47",          "--json"});
  ASSERT_EQ(tput.exit_code, 0) << tput.err;
  const auto j = nlohmann::json::parse(tput.out);
  EXPECT_EQ(j.at("calibration").at("runs"), 3);
  EXPECT_EQ(j.at("calibration").at("latest_measured_on"), "2025-03-18");
  EXPECT_TRUE(j.at("calibration").at("measured_run").is_null());
  EXPECT_NEAR(j.at("output_tokens_per_s").get<double>() / 590.7787657, 1.0, 0.10);
  // On another GPU the published model, and nothing said of runs.
  const auto other = gputco({"throughput", "--model", "deepseek-r1", "--quant", "FP8", "--gpu",
                             "mi300x", "--count", "8", "--engine", "sglang", "--input-tokens",
                             "3200", "--output-tokens", "800", "--batch", "47", "--json"});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_TRUE(nlohmann::json::parse(other.out).at("calibration").is_null());

  const auto removed = gputco({"calibrate", "--remove", "run-3"});
  ASSERT_EQ(removed.exit_code, 0) << removed.err;
  EXPECT_EQ(removed.out.rfind("removed run-3  deepseek-r1 FP8 on 8 x h200-sxm", 0), 0u)
      << removed.out;
}

TEST_F(CliCalibrate, theFinderMarksTheDeviceItsRunsCalibrate) {
  ASSERT_EQ(store_sweep().exit_code, 0);
  const auto finder = gputco({"fit", "--model", "deepseek-r1", "--quant", "FP8", "--engine",
                              "sglang", "--input-tokens", "3200", "--output-tokens", "800"});
  ASSERT_EQ(finder.exit_code, 0) << finder.err;
  EXPECT_NE(finder.out.find("\nmeasured:\n  h200-sxm: calibrated on 3 runs of yours, 2025-03-18"),
            std::string::npos)
      << finder.out;
}

TEST_F(CliCalibrate, badInputIsRefusedNamingFileAndFieldAndNothingIsStored) {
  // Another model than --model.
  const auto model = gputco({"calibrate", bench("trtllm-bench-llama-3.1-8b-h100.json"), "--model",
                             "llama-3.3-70b", "--gpu", "h100-sxm"});
  EXPECT_EQ(model.exit_code, 2);
  EXPECT_NE(model.err.find("trtllm-bench-llama-3.1-8b-h100.json: engine.model: "
                           "'meta-llama/Llama-3.1-8B-Instruct' is the catalog model "
                           "llama-3.1-8b, not llama-3.3-70b"),
            std::string::npos)
      << model.err;
  // A device the flags contradict.
  const auto device = gputco({"calibrate", bench("llama-bench-gpt-oss-20b-rtx-4090.json"),
                              "--model", "gpt-oss-20b", "--gpu", "rtx-3090"});
  EXPECT_EQ(device.exit_code, 2);
  EXPECT_NE(device.err.find("gpu_info: the file ran on 'NVIDIA GeForce RTX 4090'"),
            std::string::npos)
      << device.err;
  // Runs that disagree by more than 2 x with a stored one: the cookbook's 70B run at 16 in
  // flight, stored, then the same shape at 3 x its throughput.
  ASSERT_EQ(gputco({"calibrate", bench("sglang-cookbook-llama-3.1-70b-a100.csv")}).exit_code, 0);
  test::write_file(dir_.file("fast.csv"),
                   "model,quant,gpu,gpu_count,tp,engine,input_tokens,output_tokens,concurrency,"
                   "output_tokens_per_s,duration_s,measured_on\n"
                   "llama-3.1-70b,BF16,a100-80gb-sxm,8,8,sglang,495.9,510.1,16,1540.4,26.5,"
                   "2025-12-02\n");
  const auto disagree = gputco({"calibrate", dir_.file("fast.csv")});
  EXPECT_EQ(disagree.exit_code, 2);
  EXPECT_NE(disagree.err.find("fast.csv (run 1): output_tokens_per_s: 1540.4 tokens/s is 3.0 x "
                              "the 513.5 of run-2 (sglang-cookbook-llama-3.1-70b-a100.csv, run 2)"),
            std::string::npos)
      << disagree.err;
  EXPECT_NE(disagree.err.find("nothing stored"), std::string::npos);
  const auto list = gputco({"calibrate", "--list", "--json"});
  EXPECT_EQ(nlohmann::json::parse(list.out).at("runs").size(), 3u);  // the cookbook's alone
}

TEST_F(CliCalibrate, theLayoutSearchPrefersAMeasuredLayoutAndSaysWhenItExtrapolates) {
  // Runs of TP4 on 4 x H100. At batch 64 the refitted model puts TP2 x 2 replicas ahead, a
  // layout no run measured (a newcomer read its 4,539 tokens/s as "measured" beside a
  // measured 3,000 at TP4; another saw a fleet move to an unmeasured TP1 x PP8): the search
  // takes the measured TP4, measurements winning over the model's extrapolation.
  test::write_file(dir_.file("runs.csv"), kH100Tp4Runs);
  ASSERT_EQ(gputco({"calibrate", dir_.file("runs.csv")}).exit_code, 0);
  const std::vector<std::string> base = {
      "throughput", "--model",         "llama-3.3-70b", "--quant",
      "FP8",        "--gpu",           "h100-sxm",      "--count",
      "4",          "--engine",        "vllm",          "--input-tokens",
      "1000",       "--output-tokens", "250",           "--batch",
      "64"};
  const auto chosen = gputco(base);
  ASSERT_EQ(chosen.exit_code, 0) << chosen.err;
  ASSERT_NE(chosen.out.find("layout TP4 x PP1: 1 replica(s)"), std::string::npos) << chosen.out;
  EXPECT_NE(chosen.out.find("measured: calibrated on 3 runs of yours"), std::string::npos)
      << chosen.out;
  EXPECT_EQ(chosen.out.find("extrapolate"), std::string::npos) << chosen.out;
  // Asked for TP2, the figures are the refitted model's, and the output says so.
  std::vector<std::string> tp2 = base;
  tp2.insert(tp2.end(), {"--tp", "2"});
  const auto extrapolated = gputco(tp2);
  ASSERT_EQ(extrapolated.exit_code, 0) << extrapolated.err;
  EXPECT_NE(extrapolated.out.find("extrapolated: calibrated on 3 runs of yours"), std::string::npos)
      << extrapolated.out;
  EXPECT_NE(extrapolated.out.find("none of them ran TP2 x PP1 (they ran TP4 x PP1): its figures "
                                  "extrapolate the refitted model"),
            std::string::npos)
      << extrapolated.out;
}

TEST_F(CliCalibrate, aRunNoBoxCouldHaveMeasuredIsRefused) {
  const std::string header =
      "model,quant,gpu,gpu_count,tp,engine,input_tokens,output_tokens,concurrency,"
      "output_tokens_per_s,duration_s,requests,measured_on\n";
  const auto refused = [&](const std::string& row, const std::string& said) {
    test::write_file(dir_.file("r.csv"), header + row + "\n");
    const auto r = gputco({"calibrate", dir_.file("r.csv")});
    EXPECT_EQ(r.exit_code, 2) << row;
    EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
  };
  // 4 x H100 SXM peak at 4 x 1,979 = 7,916 dense FP8 TFLOPS; Llama 3.3 70B costs 2 x 70.6e9
  // FLOPs per output token: at most 7,916e12 / 141.2e9 = 56,062 tokens/s (a newcomer stored
  // 1e300 and every estimate after it read 1e300).
  refused("llama-3.3-70b,FP8,h100-sxm,4,4,vllm,1000,250,16,1e300,120,600,2026-11-01",
          "r.csv:2: output_throughput: 1e+300 output tokens/s is above the 56062 that 4 x "
          "h100-sxm's dense peak of 7916 TFLOPS computes for llama-3.3-70b");
  // Prompts of 1e12 tokens: beyond the model's 131,072-token context.
  refused("llama-3.3-70b,FP8,h100-sxm,4,4,vllm,1e12,250,16,1200,120,600,2026-11-01",
          "r.csv:2: input_tokens: requests of 1000000000000 prompt + 250 output tokens are "
          "beyond llama-3.3-70b's context of 131072 tokens");
  // More requests in flight than the run sent.
  refused("llama-3.3-70b,FP8,h100-sxm,4,4,vllm,1000,250,700,1200,120,600,2026-11-01",
          "r.csv:2: concurrency: 700 requests in flight on average of 600 requests sent");
  const auto list = gputco({"calibrate", "--list", "--json"});
  EXPECT_EQ(nlohmann::json::parse(list.out).at("runs").size(), 0u);
}

TEST_F(CliCalibrate, aRunFasterThanLittlesLawAtItsMeanTpotIsRefusedAndNothingStored) {
  // The newcomer's run: 6,000 output tokens/s with 64 requests in flight at a mean TPOT of
  // 40 ms; 64 / 0.040 s x 250 / 249 = 1,606 tokens/s at most (Little's law), 10 % allowed.
  // The first row (the fleet example's run at 64: 64 / 0.020 s x 250 / 249 = 3,213 >= 3,000)
  // is sound: a refused row stores none of the file.
  test::write_file(dir_.file("l.csv"),
                   "model,quant,gpu,gpu_count,tp,engine,input_tokens,output_tokens,concurrency,"
                   "output_tokens_per_s,mean_tpot_ms,duration_s,requests,measured_on\n"
                   "llama-3.3-70b,FP8,h100-sxm,4,4,vllm,1000,250,64,3000,20,120,1500,2026-11-01\n"
                   "llama-3.3-70b,FP8,h100-sxm,4,4,vllm,1000,250,64,6000,40,120,1500,2026-11-01\n");
  const auto r = gputco({"calibrate", dir_.file("l.csv")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("l.csv:3: output_throughput: 6000 output tokens/s is above the 1606 that "
                       "64 requests in flight emit at a mean TPOT of 40 ms"),
            std::string::npos)
      << r.err;
  const auto list = gputco({"calibrate", "--list", "--json"});
  EXPECT_EQ(nlohmann::json::parse(list.out).at("runs").size(), 0u);
}

TEST_F(CliCalibrate, aPlanSaysWhichOptionsRestOnTheRunsAndTheWorkbookListsThem) {
  // Two runs of the finance-view example's setup (Llama 3.3 70B FP8, vLLM, 2 x H100, 1200 / 300
  // tokens): illustrative figures.
  test::write_file(dir_.file("runs.csv"),
                   "model,quant,gpu,gpu_count,tp,engine,engine_version,input_tokens,"
                   "output_tokens,concurrency,output_tokens_per_s,mean_tpot_ms,mean_ttft_ms,"
                   "duration_s,requests,measured_on\n"
                   "llama-3.3-70b,FP8,h100-sxm,2,2,vllm,0.10.1,1200,300,16,620,24.1,310,387,800,"
                   "2026-11-28\n"
                   "llama-3.3-70b,FP8,h100-sxm,2,2,vllm,0.10.1,1200,300,64,1510,38.5,820,318,1600,"
                   "2026-11-28\n");
  ASSERT_EQ(gputco({"calibrate", dir_.file("runs.csv")}).exit_code, 0);
  const auto plan = gputco({"plan", test::source_path("scenarios/examples/finance-view-70b.ini"),
                            "-o", dir_.file("plan.xlsx")});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("colo-2xh100 serving: vLLM"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("calibrated on 2 runs of yours, 2026-11-28"), std::string::npos)
      << plan.out;
  const auto strings = test::run("unzip", {"-p", dir_.file("plan.xlsx"), "xl/sharedStrings.xml"});
  EXPECT_NE(strings.out.find("Your measured serving runs"), std::string::npos);
  EXPECT_NE(strings.out.find("run-1 (colo-2xh100, rent-h100)"), std::string::npos);
}

TEST_F(CliCalibrate, aCalibratedFleetShowsTheFiguresOfTheReplicaItWasSizedWith) {
  // Three runs of the fleet example's H100 box (Llama 3.3 70B FP8, vLLM, TP4, 1000 / 250
  // tokens): illustrative figures, faster than the model. The plan sizes rent-h100 on the
  // calibrated replica; its figures at the peak hour must be that replica's too (they were the
  // uncalibrated model's: 8 replicas x 140 in flight x 12.5 tokens/s = 14,000 tokens/s, below
  // the peak's 17,361, at a TPOT p99 of 88.4 ms against the 50 ms target).
  test::write_file(dir_.file("runs.csv"), kH100Tp4Runs);
  ASSERT_EQ(gputco({"calibrate", dir_.file("runs.csv")}).exit_code, 0);
  const auto plan =
      gputco({"plan", test::source_path("scenarios/examples/fleet-2m-requests-70b.ini"), "--json"});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const auto json = nlohmann::json::parse(plan.out);
  bool seen = false;
  for (const auto& option : json.at("options")) {
    if (option.at("id") != "rent-h100") continue;
    seen = true;
    ASSERT_NE(option.at("serving").at("note").get<std::string>().find("calibrated on 3 runs"),
              std::string::npos);
    const auto& peak = option.at("fleet").at("peak_hour");
    // Little's law: in flight x tokens/s per user = the replica's output rate, and the
    // replicas' output the peak demand: 2,000,000 x 3 / 86,400 x 250 = 17,361 tokens/s.
    const double replicas = peak.at("replicas_in_service").get<double>();
    const double served = replicas * peak.at("in_flight_per_replica").get<double>() *
                          peak.at("per_user_tokens_per_s").get<double>();
    EXPECT_NEAR(served, 2'000'000.0 * 3 / 86'400 * 250, 0.02 * 17'361) << peak.dump();
    EXPECT_LE(peak.at("tpot_p99_ms").get<double>(), 50.0) << peak.dump();
  }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace gputco
