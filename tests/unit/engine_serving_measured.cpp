// The user's measurements win (engine/serving/serving_measured.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/serving/serving_measured.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco {
namespace {

/// dstack's DeepSeek-R1 runs (tests/data/benchmarks/dstack-deepseek-r1-online_results.csv:
/// SGLang's bench_serving output, one row per run) of one GPU and engine.
std::vector<MeasuredServingRun> dstack_runs(const std::string& gpu, const std::string& backend) {
  std::vector<MeasuredServingRun> out;
  for (const auto& r : test::read_csv(
           test::source_path("tests/data/benchmarks/dstack-deepseek-r1-online_results.csv"))) {
    if (r.at("GPU") != gpu || r.at("backend") != backend) continue;
    MeasuredServingRun run;
    run.id = backend + "-c" + r.at("max_concurrency");
    run.model_id = "deepseek-r1";
    run.quant = "FP8";
    run.device_id = gpu == "h200" ? "h200-sxm" : "mi300x";
    run.gpu_count = 8;
    run.tp = 8;
    run.engine = backend == "vllm"     ? ServingEngine::vllm
                 : backend == "sglang" ? ServingEngine::sglang
                                       : ServingEngine::tensorrt_llm;
    const double completed = std::stod(r.at("completed"));
    run.input_tokens = std::stod(r.at("total_input_tokens")) / completed;
    run.output_tokens = std::stod(r.at("total_output_tokens")) / completed;
    run.concurrency =
        std::stod(r.at("request_throughput")) * std::stod(r.at("mean_e2e_latency_ms")) / 1000.0;
    run.output_tokens_per_s = std::stod(r.at("output_throughput"));
    run.mean_tpot_ms = std::stod(r.at("mean_tpot_ms"));
    run.mean_ttft_ms = std::stod(r.at("mean_ttft_ms"));
    run.duration_s = std::stod(r.at("duration"));
    run.requests = static_cast<int>(completed);
    run.measured_on = "2025-03-18";
    run.format = "sglang-bench-serving";
    out.push_back(run);
  }
  return out;
}

ServingRequest deepseek_r1(ServingEngine engine) {
  ServingRequest r;
  r.model = test::reference_model("deepseek-r1");
  r.quant = test::reference_quant("FP8");
  r.engine = engine;
  r.input_tokens = 3200;
  r.output_tokens = 800;
  return r;
}

std::vector<MeasuredServingRun> at(const std::vector<MeasuredServingRun>& runs,
                                   const std::vector<std::string>& concurrencies) {
  std::vector<MeasuredServingRun> out;
  for (const auto& run : runs) {
    for (const auto& c : concurrencies) {
      if (run.id.size() > c.size() + 2 &&
          run.id.compare(run.id.size() - c.size() - 2, std::string::npos, "-c" + c) == 0) {
        out.push_back(run);
      }
    }
  }
  return out;
}

struct Sweep {
  const char* gpu;
  const char* backend;
};
constexpr Sweep kSweeps[] = {{"h200", "sglang"},
                             {"mi300x", "sglang"},
                             {"h200", "vllm"},
                             {"mi300x", "vllm"},
                             {"h200", "trt-llm"}};

TEST(ServingMeasured, decodeBatchIsLittlesLawOnTheDecodePhase) {
  MeasuredServingRun run;
  run.concurrency = 31.3474565;  // dstack's H200 SGLang run at 32
  run.output_tokens = 800;
  run.mean_tpot_ms = 63.63639162;
  run.mean_ttft_ms = 10992.45549;
  // decode 799 x 63.636 = 50,845.5 ms of a 61,837.9 ms request: 31.347 x 0.82224 = 25.775.
  const double decode = 799 * 63.63639162;
  EXPECT_NEAR(decode_batch(run), 31.3474565 * decode / (10992.45549 + decode), 1e-9);
  EXPECT_NEAR(decode_batch(run), 25.775, 1e-3);
  run.mean_ttft_ms = 0;  // no TTFT measured: the concurrency itself
  EXPECT_DOUBLE_EQ(decode_batch(run), 31.3474565);
}

TEST(ServingMeasured, stepCorrectionRunsStraightBetweenRunsAndScalesBeyond) {
  const std::vector<MeasuredStepPoint> points{{8, 0.040, 1.1}, {32, 0.060, 0.9}};
  // At 16: a third of the way, 0.040 + (0.060 - 0.040) / 3 = 0.046667 s over a 0.050 s model
  // step = 0.93333.
  EXPECT_NEAR(step_correction(points, 16, 0.050), (0.040 + 0.020 / 3) / 0.050, 1e-12);
  EXPECT_DOUBLE_EQ(step_correction(points, 4, 0.030), 1.1);   // below: the first run's factor
  EXPECT_DOUBLE_EQ(step_correction(points, 64, 0.090), 0.9);  // above: the last run's
  EXPECT_DOUBLE_EQ(step_correction({}, 16, 0.050), 1.0);
}

TEST(ServingMeasured, engineReleasesMatchByPrefix) {
  EXPECT_TRUE(engine_version_matches("0.10", "0.10.1"));
  EXPECT_TRUE(engine_version_matches("0.10", "v0.10.1.dev3"));
  EXPECT_TRUE(engine_version_matches("0.4.3", "0.4.3.post2"));
  EXPECT_FALSE(engine_version_matches("0.10", "0.101"));
  EXPECT_FALSE(engine_version_matches("0.5.6", "0.5.9"));
  EXPECT_TRUE(engine_version_matches("", "0.5.9"));
}

TEST(ServingMeasured, onlyRunsOfTheDeviceEngineAndWeightsApply) {
  const auto runs = dstack_runs("h200", "sglang");
  ServingRequest r = deepseek_r1(ServingEngine::sglang);
  EXPECT_EQ(runs_for(r, test::reference_device("h200-sxm"), runs).size(), 6u);
  EXPECT_TRUE(runs_for(r, test::reference_device("mi300x"), runs).empty());
  r.engine = ServingEngine::vllm;
  EXPECT_TRUE(runs_for(r, test::reference_device("h200-sxm"), runs).empty());
  r.engine = ServingEngine::sglang;
  r.quant = test::reference_quant("NVFP4");
  EXPECT_TRUE(runs_for(r, test::reference_device("h200-sxm"), runs).empty());
}

TEST(ServingMeasured, oneRunScalesTheModelAndARequestOfItsShapeGetsItsFigures) {
  const auto one = at(dstack_runs("h200", "sglang"), {"32"});
  ServingRequest r = deepseek_r1(ServingEngine::sglang);
  r.measured_runs = one;
  const Device d = test::reference_device("h200-sxm");
  const MeasuredCalibration c = calibrate_to_runs(r, d, one);
  EXPECT_EQ(c.summary.method, "scale");
  EXPECT_EQ(c.summary.runs, 1);
  EXPECT_EQ(c.summary.latest_measured_on, "2025-03-18");
  // The request of the run's shape: its decode batch, 25.775 -> 26 sequences.
  ServingGoal goal;
  goal.mode = ServingGoal::Mode::batch;
  goal.batch = 26;
  const ServingCapacity cap = serving_capacity(r, d, 8, ServingLayout{8, 1}, goal);
  EXPECT_EQ(cap.calibration.measured_run_id, one[0].id);
  EXPECT_DOUBLE_EQ(cap.output_tokens_per_s, 405.5433975);
  EXPECT_DOUBLE_EQ(cap.tpot_ms, 63.63639162);
  EXPECT_DOUBLE_EQ(cap.ttft_ms, 10992.45549);
  // Another batch: the scaled model, not a run's figures.
  goal.batch = 40;
  const ServingCapacity other = serving_capacity(r, d, 8, ServingLayout{8, 1}, goal);
  EXPECT_TRUE(other.calibration.measured_run_id.empty());
  EXPECT_EQ(other.calibration.runs, 1);
  EXPECT_GT(other.output_tokens_per_s, cap.output_tokens_per_s);
}

/// Relative error of the estimate at a held-out run of a sweep, the model refitted to three
/// others of it (issue #36's goal: within 10 %).
struct HeldOut {
  double at_batch = 0;   ///< estimate at the run's decode batch, its throughput
  double at_target = 0;  ///< estimate at a per-user speed target of 1 / its mean TPOT
};

HeldOut held_out_error(const Sweep& sweep, const std::string& held) {
  const auto all = dstack_runs(sweep.gpu, sweep.backend);
  ServingRequest r = deepseek_r1(all.front().engine);
  r.measured_runs = at(all, {"8", "32", "128"});
  const Device d = test::reference_device(all.front().device_id);
  const MeasuredServingRun run = at(all, {held}).at(0);
  ServingGoal batch;
  batch.mode = ServingGoal::Mode::batch;
  batch.batch = static_cast<int>(std::lround(decode_batch(run)));
  ServingGoal target;
  target.mode = ServingGoal::Mode::latency;
  target.user_tokens_per_s = 1000.0 / run.mean_tpot_ms;
  HeldOut e;
  e.at_batch = serving_capacity(r, d, 8, ServingLayout{8, 1}, batch).output_tokens_per_s /
                   run.output_tokens_per_s -
               1;
  e.at_target = serving_capacity(r, d, 8, ServingLayout{8, 1}, target).output_tokens_per_s /
                    run.output_tokens_per_s -
                1;
  std::printf("  %-7s %-8s c%-3s: at its batch %+6.1f %%, at its per-user speed %+6.1f %%\n",
              sweep.gpu, sweep.backend, held.c_str(), 100 * e.at_batch, 100 * e.at_target);
  return e;
}

TEST(ServingMeasured, threeRunsOfASweepEstimateAFourthWithinTenPercent) {
  // dstack's DeepSeek-R1 sweeps (8 x H200, 8 x MI300X; SGLang, vLLM, TensorRT-LLM): the model
  // refitted to the runs at 8, 32 and 128 in flight, estimating those at 16 and 64 (between
  // them). Measured: 9 of the 10 within 10 % at their batch; the tenth, vLLM on H200 at 16, is
  // +29 %: its TPOT jumps from 31 ms at 8 to 50 ms at 16 and barely moves to 32 (52 ms), a
  // step no line between the runs at 8 and 32 can know. At a per-user speed target (1 / the
  // run's TPOT) the runs at 64 are within 10 %; at 16 the TPOT is nearly flat from 8 to 32
  // (TensorRT-LLM: 56, 58, 66 ms), so a few percent of TPOT moves the batch a lot: 2 of 5 are
  // within 10 % (docs/calibrate.md).
  int within_at_batch = 0, within_at_target_64 = 0;
  for (const Sweep& sweep : kSweeps) {
    for (const char* held : {"16", "64"}) {
      const HeldOut e = held_out_error(sweep, held);
      if (std::abs(e.at_batch) <= 0.10) ++within_at_batch;
      if (std::string(held) == "64" && std::abs(e.at_target) <= 0.10) ++within_at_target_64;
      EXPECT_LT(std::abs(e.at_batch), 0.30) << sweep.gpu << " " << sweep.backend << " c" << held;
    }
  }
  EXPECT_GE(within_at_batch, 9);
  EXPECT_EQ(within_at_target_64, 5);
}

TEST(ServingMeasured, theRefitGoesThroughItsRunsAndSaysHowFarTheModelIs) {
  const auto fit = at(dstack_runs("h200", "trt-llm"), {"8", "32", "128"});
  ServingRequest r = deepseek_r1(ServingEngine::tensorrt_llm);
  const Device d = test::reference_device("h200-sxm");
  const MeasuredCalibration c = calibrate_to_runs(r, d, fit);
  EXPECT_EQ(c.summary.method, "refit");
  EXPECT_EQ(c.summary.runs, 3);
  EXPECT_LT(c.summary.in_sample_error, 0.10);
  ASSERT_EQ(c.corrections.size(), 1u);  // one shape: TP8, 3,200 / 800
  for (const auto& run : fit) {
    const RunEstimate e = estimate_run(r, d, run, c);
    EXPECT_NEAR(e.mean_tpot_ms, run.mean_tpot_ms, 1e-6 * run.mean_tpot_ms) << run.id;
  }
  // The same request is answered from memory: the same constants, bit for bit.
  const MeasuredCalibration again = calibrate_to_runs(r, d, fit);
  EXPECT_EQ(again.constants.bandwidth_efficiency, c.constants.bandwidth_efficiency);
}

}  // namespace
}  // namespace gputco
