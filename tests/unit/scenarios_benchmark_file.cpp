// Serving benchmark files read as their tools write them (scenarios/benchmark_file.hpp) and
// resolved against the catalog and the flags (scenarios/benchmark_runs.hpp), with the refusals
// of issue #36: another model, a device the flags contradict, a zero-duration run, runs that
// disagree by more than 2 x.
#include <gtest/gtest.h>

#include <string>

#include "pricing/catalog.hpp"
#include "scenarios/benchmark_file.hpp"
#include "scenarios/benchmark_runs.hpp"
#include "tests/support/paths.hpp"

namespace gputco {
namespace {

BenchmarkFile file_of(const std::string& name) {
  return read_benchmark_file(test::source_path("tests/data/benchmarks/" + name), std::nullopt);
}

/// The message of the BenchmarkFileError `body` throws ("" when it throws none).
template <typename Body>
std::string refusal(Body body) {
  try {
    body();
  } catch (const BenchmarkFileError& e) {
    return e.what();
  }
  return "";
}

TEST(BenchmarkFile, sha256IsFips180Of) {
  // FIPS 180-4's example "abc", and the empty message.
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(BenchmarkFile, sglangJsonlIsOneRunPerLineWithPythonsInfinity) {
  const BenchmarkFile f = file_of("sglang-deepseek-r1-h200-c8-32-128.jsonl");
  EXPECT_EQ(f.format, BenchmarkFormat::sglang_bench_serving);
  ASSERT_EQ(f.records.size(), 3u);
  const BenchmarkRecord& r = f.records[1];  // dstack's H200 SGLang run at 32 in flight
  EXPECT_EQ(r.line, 2);
  EXPECT_EQ(r.engine.value, "sglang");                // backend "sglang": the server SGLang
  EXPECT_DOUBLE_EQ(r.input_tokens, 1600000.0 / 500);  // total_input_tokens / completed
  EXPECT_DOUBLE_EQ(r.output_tokens, 400000.0 / 500);
  EXPECT_DOUBLE_EQ(r.output_tokens_per_s, 405.5433975);
  EXPECT_DOUBLE_EQ(r.mean_tpot_ms, 63.63639162);
  EXPECT_DOUBLE_EQ(r.mean_ttft_ms, 10992.45549);
  EXPECT_DOUBLE_EQ(r.concurrency, 31.3474565);  // the file's own concurrency field
  EXPECT_DOUBLE_EQ(r.duration_s, 986.3309389);
  EXPECT_TRUE(r.model.value.empty());  // SGLang's result names no model: --model
  EXPECT_TRUE(r.measured_on.value.empty());
}

TEST(BenchmarkFile, vllmSaveResultTakesLittlesLawFromItsLatencies) {
  const BenchmarkFile f = file_of("vllm-bench-serve-deepseek-r1-h200-c16.json");
  EXPECT_EQ(f.format, BenchmarkFormat::vllm_bench_serve);
  ASSERT_EQ(f.records.size(), 1u);
  const BenchmarkRecord& r = f.records[0];
  EXPECT_EQ(r.model.value, "deepseek-ai/DeepSeek-R1");
  EXPECT_EQ(r.model.field, "model_id");
  EXPECT_EQ(r.measured_on.value, "2025-03-18");  // date 20250318-141522
  // Mean in flight = 0.367582859 requests/s x 42.99990466 s (mean of `latencies`) = 15.806.
  EXPECT_NEAR(r.concurrency, 0.367582859 * 42.99990466, 1e-9);
  EXPECT_DOUBLE_EQ(r.mean_tpot_ms, 49.60112449);
}

TEST(BenchmarkFile, trtllmBenchReportNamesModelEngineAndBox) {
  const BenchmarkFile f = file_of("trtllm-bench-llama-3.1-8b-h100.json");
  EXPECT_EQ(f.format, BenchmarkFormat::trtllm_bench);
  const BenchmarkRecord& r = f.records.at(0);
  EXPECT_EQ(r.model.value, "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(r.quant.value, "FP8");
  EXPECT_EQ(r.kv_cache.value, "FP8");
  EXPECT_EQ(r.engine.value, "tensorrt-llm");
  EXPECT_EQ(r.engine_version.value, "1.0.0");
  EXPECT_EQ(r.tp, 1);
  EXPECT_EQ(r.gpu_count, 1);
  EXPECT_DOUBLE_EQ(r.output_tokens_per_s, 15220.0);  // DOMAIN V4
  EXPECT_DOUBLE_EQ(r.concurrency, 1402.5);
  EXPECT_NEAR(r.duration_s, 197.10907, 1e-9);  // total_latency_ms / 1000
}

TEST(BenchmarkFile, aiperfExportReadsMetricObjects) {
  const BenchmarkFile f = file_of("aiperf-llama-3.1-8b-h100-c8.json");
  EXPECT_EQ(f.format, BenchmarkFormat::genai_perf);
  const BenchmarkRecord& r = f.records.at(0);
  EXPECT_EQ(r.model.value, "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(r.model.field, "input_config.endpoint.model_names");
  EXPECT_DOUBLE_EQ(r.mean_tpot_ms, 9.84);  // inter_token_latency: (latency - TTFT) / (osl - 1)
  EXPECT_DOUBLE_EQ(r.p99_ttft_ms, 112.6);
  // 1.6128 requests/s x 4.9562 s = 7.993 in flight.
  EXPECT_NEAR(r.concurrency, 1.6128 * 4.9562, 1e-12);
  EXPECT_DOUBLE_EQ(r.duration_s, 496.03);
  EXPECT_EQ(r.measured_on.value, "2026-11-30");
}

TEST(BenchmarkFile, llamaBenchGivesADecodeAndAPrefillRun) {
  const BenchmarkFile f = file_of("llama-bench-gpt-oss-20b-rtx-4090.json");
  EXPECT_EQ(f.format, BenchmarkFormat::llama_bench);
  ASSERT_EQ(f.records.size(), 2u);
  const BenchmarkRecord& pp = f.records[0];
  EXPECT_DOUBLE_EQ(pp.prefill_tokens_per_s, 8022.33);
  EXPECT_DOUBLE_EQ(pp.input_tokens, 2048);
  const BenchmarkRecord& tg = f.records[1];
  EXPECT_DOUBLE_EQ(tg.output_tokens_per_s, 225.22);
  EXPECT_NEAR(tg.mean_tpot_ms, 1000 / 225.22, 1e-12);
  EXPECT_EQ(tg.quant.value, "MXFP4");  // model_type "gpt-oss 20B MXFP4 MoE"
  EXPECT_EQ(tg.device.value, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(tg.engine_version.value, "b6096");
  EXPECT_NEAR(tg.model_params_b, 20.914757184, 1e-12);
  EXPECT_DOUBLE_EQ(tg.duration_s, 0.568333);
}

TEST(BenchmarkFile, ourCsvIsOneRunPerRow) {
  const BenchmarkFile f = file_of("sglang-cookbook-llama-3.1-70b-a100.csv");
  EXPECT_EQ(f.format, BenchmarkFormat::csv);
  ASSERT_EQ(f.records.size(), 3u);
  EXPECT_EQ(f.records[2].line, 4);
  EXPECT_DOUBLE_EQ(f.records[2].output_tokens_per_s, 1919.38);
  EXPECT_EQ(f.records[2].tp, 8);
}

TEST(BenchmarkFile, somethingElseIsRefusedNamingTheFile) {
  const std::string why =
      refusal([] { read_benchmark_text("{\"a\": 1}", "x.json", std::nullopt); });
  EXPECT_NE(why.find("x.json: not a benchmark file gputco reads"), std::string::npos) << why;
  const std::string line = refusal(
      [] { read_benchmark_text("{\"output_throughput\": 1}\n{oops\n", "y.jsonl", std::nullopt); });
  EXPECT_NE(line.find("y.jsonl:2: not JSON"), std::string::npos) << line;
}

TEST(BenchmarkRuns, resolvesTheFlagsTheFileDoesNotState) {
  const Catalog catalog = Catalog::open_builtin();
  BenchmarkFlags flags;
  flags.model = "deepseek-r1";
  flags.quant = "FP8";
  flags.gpu = "h200-sxm";
  flags.gpu_count = 8;
  flags.tp = 8;
  const auto resolved = resolve_benchmark(file_of("sglang-deepseek-r1-h200-c8-32-128.jsonl"), flags,
                                          catalog, "2025-03-20");
  ASSERT_EQ(resolved.runs.size(), 3u);
  const MeasuredServingRun& run = resolved.runs[0];
  EXPECT_EQ(run.model_id, "deepseek-r1");
  EXPECT_EQ(run.device_id, "h200-sxm");
  EXPECT_EQ(run.engine, ServingEngine::sglang);
  EXPECT_EQ(run.gpu_count, 8);
  EXPECT_EQ(run.measured_on, "2025-03-20");  // the file is not dated: its modification day
  EXPECT_EQ(run.file_name, "sglang-deepseek-r1-h200-c8-32-128.jsonl");
  EXPECT_EQ(run.file_sha256.size(), 64u);
  ASSERT_EQ(resolved.notes.size(), 1u);
  EXPECT_NE(resolved.notes[0].find("modification day, 2025-03-20"), std::string::npos);
}

TEST(BenchmarkRuns, aFileOfAnotherModelIsRefusedNamingTheField) {
  const Catalog catalog = Catalog::open_builtin();
  BenchmarkFlags flags;
  flags.model = "llama-3.3-70b";
  flags.gpu = "h100-sxm";
  const std::string why = refusal([&] {
    resolve_benchmark(file_of("trtllm-bench-llama-3.1-8b-h100.json"), flags, catalog, "2026-01-01");
  });
  EXPECT_NE(why.find("trtllm-bench-llama-3.1-8b-h100.json: engine.model: "
                     "'meta-llama/Llama-3.1-8B-Instruct' is the catalog model llama-3.1-8b, not "
                     "llama-3.3-70b as --model says"),
            std::string::npos)
      << why;
  // llama-bench names a file, not a model: its parameter count tells (20.9 B, not 116.8 B).
  flags.model = "gpt-oss-120b";
  flags.gpu = "";
  const std::string params = refusal([&] {
    resolve_benchmark(file_of("llama-bench-gpt-oss-20b-rtx-4090.json"), flags, catalog,
                      "2026-01-01");
  });
  EXPECT_NE(params.find("model_n_params: the file's model has 20.91 B parameters, gpt-oss-120b "
                        "has 116.83 B"),
            std::string::npos)
      << params;
}

TEST(BenchmarkRuns, aDeviceTheFlagsContradictIsRefused) {
  const Catalog catalog = Catalog::open_builtin();
  BenchmarkFlags flags;
  flags.model = "gpt-oss-20b";
  flags.gpu = "rtx-3090";
  const std::string why = refusal([&] {
    resolve_benchmark(file_of("llama-bench-gpt-oss-20b-rtx-4090.json"), flags, catalog,
                      "2026-01-01");
  });
  EXPECT_NE(why.find("gpu_info: the file ran on 'NVIDIA GeForce RTX 4090' (rtx-4090), --gpu says "
                     "rtx-3090: a device the flags contradict"),
            std::string::npos)
      << why;
  // The same chip in another form factor is no contradiction: the flag tells which.
  EXPECT_EQ(device_chip("h100-pcie"), device_chip("h100-sxm"));
  EXPECT_EQ(device_chip("rtx-pro-6000-blackwell"), "rtx-pro-6000");
  EXPECT_NE(device_chip("rtx-4090"), device_chip("rtx-3090"));
}

TEST(BenchmarkRuns, aZeroDurationRunIsRefusedNamingTheField) {
  const Catalog catalog = Catalog::open_builtin();
  const BenchmarkFile f = read_benchmark_text(
      "model,quant,gpu,engine,input_tokens,output_tokens,concurrency,output_tokens_per_s,"
      "duration_s,measured_on\n"
      "llama-3.1-8b,FP8,h100-sxm,vllm,1000,200,8,800,0,2026-11-30\n",
      "zero.csv", std::nullopt);
  const std::string why = refusal([&] { resolve_benchmark(f, {}, catalog, "2026-12-01"); });
  EXPECT_EQ(why,
            "zero.csv:2: duration_s: the run lasted 0 seconds: no speed can be measured "
            "from it");
}

TEST(BenchmarkRuns, anOutputRateAboveLittlesLawAtTheMeanTpotIsRefused) {
  const Catalog catalog = Catalog::open_builtin();
  const std::string header =
      "model,quant,gpu,gpu_count,tp,engine,input_tokens,output_tokens,concurrency,"
      "output_tokens_per_s,mean_tpot_ms,p99_tpot_ms,duration_s,requests,measured_on\n";
  const auto why = [&](const std::string& row) {
    const BenchmarkFile f = read_benchmark_text(header + row + "\n", "l.csv", std::nullopt);
    return refusal([&] { resolve_benchmark(f, {}, catalog, "2026-12-01"); });
  };
  // 64 requests in flight at a mean TPOT of 40 ms, 250 output tokens each: each request emits
  // its 250 tokens over TTFT + 249 x 40 ms, so at most 64 / 0.040 s x 250 / 249 = 1,606.43
  // tokens/s; 10 % over it, 1,767.07, is allowed. The newcomer's run claimed 6,000.
  EXPECT_EQ(why("llama-3.3-70b,FP8,h100-sxm,4,4,vllm,1000,250,64,6000,40,,120,1500,2026-11-01"),
            "l.csv:2: output_throughput: 6000 output tokens/s is above the 1606 that 64 requests "
            "in flight emit at a mean TPOT of 40 ms (Little's law: in flight / TPOT x output / "
            "(output - 1), 250 output tokens per request; 10 % allowed over it): the "
            "throughput, the requests in flight or the TPOT is not this run's");
  EXPECT_NE(why("llama-3.3-70b,FP8,h100-sxm,4,4,vllm,1000,250,64,1768,40,,120,1500,2026-11-01"),
            "");
  EXPECT_EQ(why("llama-3.3-70b,FP8,h100-sxm,4,4,vllm,1000,250,64,1767,40,,120,1500,2026-11-01"),
            "");
  // A p99 TPOT alone bounds nothing: the mean may be far below it (here 6,000 tokens/s at 64
  // in flight needs a mean of 10.7 ms, a quarter of the p99).
  EXPECT_EQ(why("llama-3.3-70b,FP8,h100-sxm,4,4,vllm,1000,250,64,6000,,40,120,1500,2026-11-01"),
            "");
}

TEST(BenchmarkRuns, runsThatDisagreeByMoreThanTwiceAreFound) {
  const Catalog catalog = Catalog::open_builtin();
  const BenchmarkFile f = read_benchmark_text(
      "model,quant,gpu,engine,input_tokens,output_tokens,concurrency,output_tokens_per_s,"
      "duration_s,measured_on\n"
      "llama-3.1-8b,FP8,h100-sxm,vllm,1000,200,8,800,100,2026-11-30\n"
      "llama-3.1-8b,FP8,h100-sxm,vllm,1000,200,8.2,2100,100,2026-11-30\n"
      "llama-3.1-8b,FP8,h100-sxm,vllm,1000,200,32,2100,100,2026-11-30\n",
      "runs.csv", std::nullopt);
  const auto runs = resolve_benchmark(f, {}, catalog, "2026-12-01").runs;
  const auto problems = disagreeing_runs(runs, {});
  // Runs 1 and 2 share the shape (8 and 8.2 in flight, within 10 %): 2100 / 800 = 2.6 x. Run 3
  // at 32 in flight is another shape.
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("runs.csv (run 2): output_tokens_per_s: 2100.0 tokens/s is 2.6 x the "
                             "800.0 of runs.csv (run 1)"),
            std::string::npos)
      << problems[0];
}

}  // namespace
}  // namespace gputco
