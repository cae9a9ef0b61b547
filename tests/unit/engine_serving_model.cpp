// The serving model (engine/serving/serving.hpp): the decode step with both roofs worked by hand,
// the KV-capped batch, MoE experts touched, the throughput with prefill inside it (DOMAIN V4),
// layout choice, latency targets, queueing, and the formats an engine refuses or runs with a
// fallback.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/base/error.hpp"
#include "engine/hardware/compute_capability.hpp"
#include "engine/hardware/speed.hpp"
#include "engine/serving/serving.hpp"
#include "engine/serving/serving_queue.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco {
namespace {

// A plain dense model with no vocabulary (every weight at the quant's bits): 10B parameters,
// 10 layers, hidden 4096, 32 heads, 8 KV heads of 128.
ModelArch plain_model() {
  ModelArch m;
  m.id = "plain-10b";
  m.params_b = 10;
  m.active_params_b = 10;
  m.layers = 10;
  m.hidden = 4096;
  m.heads = 32;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.max_context = 32768;
  return m;
}

// 80 GB, 1000 GB/s, 100 TFLOPS at 16 bits, 200 at FP8, no NVLink.
Device plain_device() {
  Device d;
  d.id = "plain-gpu";
  d.vendor = Vendor::nvidia;
  d.kind = DeviceKind::datacenter;
  d.memory_nameplate_gb = 80;
  d.memory_type = "HBM3";
  d.bandwidth_gbps = 1000;
  d.board_power_w = 700;
  d.fp16_tflops = 100;
  d.fp8_tflops = 200;
  return d;
}

// Round constants so the arithmetic below is easy to follow.
ServingConstants plain_constants() {
  ServingConstants c;
  c.bandwidth_efficiency = 0.5;
  c.compute_efficiency = 0.5;
  c.step_fixed_s = 1e-3;
  return c;
}

ReplicaSetup plain_setup() {
  ReplicaSetup s;
  s.model = plain_model();
  s.quant = Quant{"FP8", 8, "float"};
  s.kv_cache = KvCacheType::f16;
  s.device = plain_device();
  s.profile = engine_profile(ServingEngine::vllm, 80);
  s.profile.constants = plain_constants();
  s.compute = ComputePrecision::fp8;
  s.input_tokens = 1000;
  s.output_tokens = 1000;
  s.memory_share = 0.9;
  return s;
}

ServingRequest plain_request() {
  ServingRequest r;
  r.model = plain_model();
  r.quant = Quant{"FP8", 8, "float"};
  r.engine = ServingEngine::vllm;
  r.input_tokens = 1000;
  r.output_tokens = 1000;
  r.constants = plain_constants();
  r.max_batch = 100000;  // memory alone caps the batch
  return r;
}

ServingGoal batch_of(int b) {
  ServingGoal g;
  g.mode = ServingGoal::Mode::batch;
  g.batch = b;
  return g;
}

constexpr double kRel = 1e-9;

TEST(ServingStep, batchOfOneIsTheWeightsOverBandwidth) {
  // Weights: 10e9 parameters x 8 bits = 10e9 bytes; GEMMs: max(10e9 / (0.5 x 1000e9) = 20 ms,
  // 2 x 10e9 FLOPs / (0.5 x 200e12) = 0.2 ms) = 20 ms.
  // KV (f16, 2 x 8 x 128 x 2 bytes x 10 layers = 40,960 bytes per token) at the mean resident
  // context 1000 + 1000 / 2 = 1500 tokens: 61.44e6 bytes / 0.5e12 = 0.12288 ms; its FLOPs 4 x 32
  // x 128 x 1500 x 10 = 245.76e6 / (0.5 x 100e12) = 4.9 us: 0.12288 ms. Fixed 1 ms.
  const StepTime t = decode_step(plain_setup(), 1);
  EXPECT_NEAR(t.weights_s, 20e-3, kRel);
  EXPECT_NEAR(t.attention_s, 0.12288e-3, kRel);
  EXPECT_NEAR(t.communication_s, 0, kRel);
  EXPECT_NEAR(t.fixed_s, 1e-3, kRel);
  EXPECT_NEAR(t.total_s, 21.12288e-3, kRel);
  EXPECT_GT(t.memory_s, t.compute_s);
}

TEST(ServingStep, largeBatchHitsTheComputeRoof) {
  // Batch 1000: GEMMs max(20 ms, 1000 x 2e10 / 1e14 = 200 ms) = 200 ms; attention max(1000 x
  // 61.44e6 / 0.5e12 = 122.88 ms, 1000 x 245.76e6 / 5e13 = 4.9152 ms) = 122.88 ms; + 1 ms.
  const StepTime t = decode_step(plain_setup(), 1000);
  EXPECT_NEAR(t.weights_s, 200e-3, kRel);
  EXPECT_NEAR(t.attention_s, 122.88e-3, kRel);
  EXPECT_NEAR(t.total_s, 323.88e-3, kRel);
  EXPECT_GT(t.compute_s, 0.2);
}

TEST(ServingStep, prefillPerTokenIsFlopsOverCompute) {
  // 2e10 / (0.5 x 200e12) = 0.2 ms of GEMMs; attention at the mean position 500: 4 x 32 x 128 x
  // 500 x 10 = 81.92e6 FLOPs / (0.5 x 100e12) = 1.6384 us.
  EXPECT_NEAR(prefill_s_per_token(plain_setup()), 0.2e-3 + 1.6384e-6, kRel);
}

TEST(ServingStep, measuredRunsNeverTakeTheStepBelowTheHardwaresRoofs) {
  // Runs at another layout refitted the step and the prefill to a hundredth of the model's
  // (newcomer: a TP1 x PP8 extrapolation prefilled a 70B model faster than the box's peak).
  ReplicaSetup s = plain_setup();
  s.step_time_factor = 0.01;
  s.prefill_time_factor = 0.01;
  // Batch 1: 10e9 weight bytes at the full 1000e9 B/s = 10 ms (FLOPs at the peak: 0.1 ms); KV
  // 61.44e6 bytes / 1e12 = 0.06144 ms (FLOPs 245.76e6 / 1e14 = 2.4576 us): 10.06144 ms, where
  // the factor alone gives 0.2112288 ms.
  const StepTime t = decode_step(s, 1);
  EXPECT_TRUE(t.at_hardware_floor);
  EXPECT_NEAR(t.total_s, 10.06144e-3, kRel);
  // Every part alike: weights 20 ms of the model's 21.12288 scaled to the floor.
  EXPECT_NEAR(t.weights_s, 20e-3 * 10.06144 / 21.12288, kRel);
  // Prefill: 2e10 FLOPs / 200e12 = 0.1 ms + attention 81.92e6 / 100e12 = 0.8192 us.
  EXPECT_NEAR(prefill_s_per_token(s), 0.1e-3 + 0.8192e-6, kRel);
  // A factor that leaves the step above the floor is taken as it is.
  s.step_time_factor = 0.8;
  const StepTime kept = decode_step(s, 1);
  EXPECT_FALSE(kept.at_hardware_floor);
  EXPECT_NEAR(kept.total_s, 0.8 * 21.12288e-3, kRel);
}

TEST(ServingStep, weightsStopBeingTheLimitNearPeakOverTwiceTheBandwidth) {
  // DOMAIN V1: with weights only, memory stops being the limit near batch = peak x bytes per
  // weight / (2 x bandwidth): about 295 on an H100 in FP8 (1979e12 / (2 x 3.35e12)), 206 on an
  // H200 (1979e12 / (2 x 4.8e12)).
  for (const auto& [id, crossover] : {std::pair{"h100-sxm", 295.4}, std::pair{"h200-sxm", 206.1}}) {
    ReplicaSetup s = plain_setup();
    s.device = test::reference_device(id);
    s.profile.constants.bandwidth_efficiency = 1;
    s.profile.constants.compute_efficiency = 1;
    const StepTime below = decode_step(s, crossover * 0.97);
    const StepTime above = decode_step(s, crossover * 1.03);
    const auto gemm_compute = [&](double b) { return b * 2e10 / (s.device.fp8_tflops * 1e12); };
    EXPECT_GT(10e9 / (s.device.bandwidth_gbps * 1e9), gemm_compute(crossover * 0.97)) << id;
    EXPECT_LT(10e9 / (s.device.bandwidth_gbps * 1e9), gemm_compute(crossover * 1.03)) << id;
    EXPECT_LT(below.weights_s, above.weights_s) << id;
  }
}

TEST(ServingStep, tensorParallelAddsTwoAllReducesPerLayer) {
  ReplicaSetup s = plain_setup();
  s.tp = 2;
  s.device.nvlink_gbps = 900;
  // Each GPU reads half the weights: 10 ms; plus 2 x 10 layers x a ring all-reduce of one
  // token's 4096 x 2 bytes over 2 GPUs (calibration.hpp: 2 hops of 1.5 us + 8192 / 2 bytes at
  // 900 GB/s).
  const StepTime t = decode_step(s, 1);
  EXPECT_NEAR(t.weights_s, 10e-3, kRel);
  const double hop = 1.5e-6 + 8192.0 / 2 / 900e9;
  EXPECT_NEAR(t.communication_s, 2 * 10 * 2 * hop, 1e-12);
}

TEST(ServingStep, expertParallelSendsATokenOnceToEachGpuHoldingOneOfItsExperts) {
  // (R - 1) x (1 - C(E - E / R, k) / C(E, k)): one expert per GPU (128 of 128): the 8 experts
  // sit on 8 GPUs, 127 / 128 of them remote: 8 x 127 / 128 = 7.9375; 4 experts on 2 GPUs, 2
  // picked: the other GPU holds neither with C(2, 2) / C(4, 2) = 1 / 6, so 5 / 6; 128 experts
  // on 2 GPUs, 8 picked: 1 - C(64, 8) / C(128, 8) = 0.996904 (not 8 x 1 / 2 = 4 copies).
  EXPECT_EQ(expected_remote_ranks(128, 8, 1), 0);
  EXPECT_NEAR(expected_remote_ranks(128, 8, 128), 7.9375, 1e-9);
  EXPECT_NEAR(expected_remote_ranks(4, 2, 2), 5.0 / 6.0, 1e-12);
  EXPECT_NEAR(expected_remote_ranks(128, 8, 2), 0.996904, 1e-6);
  EXPECT_EQ(expected_remote_ranks(0, 0, 8), 0);
  EXPECT_THROW(expected_remote_ranks(8, 9, 2), EngineError);
  EXPECT_THROW(expected_remote_ranks(8, 2, 0), EngineError);
}

TEST(ServingStep, expertParallelPrefillPaysTheAllToAll) {
  // Qwen3 30B-A3B (48 layers, hidden 2048, 128 experts, 8 active) on two GPUs without NVLink
  // (PCIe: a hop of 6 us, 32 GB/s), expert parallel: each prompt token's FLOPs split in two,
  // plus per layer a dispatch and a combine of 2 x 2048 bytes to 0.996904 remote GPUs, in
  // chunks of 8192 tokens: 2 x 48 x (6e-6 / 8192 + 4096 / 2 x 0.996904 / 32e9) = 6.1953 us.
  ReplicaSetup s = plain_setup();
  s.model = test::reference_model("qwen3-30b-a3b");
  s.profile.step_token_budget = 8192;
  const double one_gpu = prefill_s_per_token(s);
  s.tp = 2;
  EXPECT_NEAR(prefill_s_per_token(s) - one_gpu / 2, 6.19529e-6, 1e-10);
}

TEST(ServingStep, mixtureOfExpertsTouchesMoreExpertsAsTheBatchGrows) {
  // E (1 - (1 - k / E)^n): one token touches k experts; two tokens 128 x (1 - (120/128)^2) =
  // 15.5; thousands touch nearly all.
  EXPECT_NEAR(expected_experts_touched(128, 8, 1), 8, kRel);
  EXPECT_NEAR(expected_experts_touched(128, 8, 2), 15.5, kRel);
  EXPECT_NEAR(expected_experts_touched(128, 8, 2000), 128, 1e-6);
  EXPECT_EQ(expected_experts_touched(0, 0, 100), 0);
  EXPECT_THROW(expected_experts_touched(8, 9, 1), EngineError);
  // The step reads more expert weights at a larger batch, up to all of them.
  ReplicaSetup s = plain_setup();
  s.model = test::reference_model("qwen3-30b-a3b");
  s.quant = test::reference_quant("FP8");
  const double w1 = decode_step(s, 1).memory_s, w64 = decode_step(s, 64).memory_s;
  EXPECT_GT(w64, 4 * w1);  // 8 of 128 experts vs 128 x (1 - (120/128)^64) = 126.7
}

TEST(ServingLatency, oneOutputTokenHasNoTimePerOutputToken) {
  // TPOT = (latency - TTFT) / (output - 1): a single token is its first token.
  EXPECT_FALSE(has_time_per_output_token(1));
  EXPECT_TRUE(has_time_per_output_token(2));
  EXPECT_TRUE(has_time_per_output_token(1000));
}

TEST(ServingMemory, kvCacheCapsTheBatch) {
  // DOMAIN V3: batch <= (share x memory - weights - runtime) / (resident context x KV per
  // token). 80 GB -> 80 x (1 - 0.0045) = 79.64 GiB; 0.9 x 79.64 - 10e9 / 2^30 (9.3132) - 2 =
  // 60.3628 GiB; a sequence holds ceil(1500 / 16) x 16 = 1504 tokens x 40,960 bytes = 0.057373
  // GiB: floor(1052.1) = 1052 sequences.
  const ReplicaMemory m = replica_memory(plain_setup());
  EXPECT_NEAR(m.device_gib, 79.64, 1e-9);
  EXPECT_NEAR(m.weights_gib, 10e9 / 1073741824.0, 1e-12);
  EXPECT_NEAR(m.kv_budget_gib, 0.9 * 79.64 - 10e9 / 1073741824.0 - 2, 1e-9);
  EXPECT_NEAR(m.kv_per_sequence_gib, 1504 * 40960 / 1073741824.0, 1e-12);
  EXPECT_EQ(m.max_batch, 1052);
  // An FP8 cache holds twice the sequences (V3): floor(60.3628 / 0.0286865) = 2104.
  ReplicaSetup fp8 = plain_setup();
  fp8.kv_cache = KvCacheType::fp8;
  EXPECT_EQ(replica_memory(fp8).max_batch, 2104);
  // max_batch is bound by the KV cache; a larger fixed batch is refused.
  ServingGoal max;
  const ServingCapacity c = serving_capacity(plain_request(), plain_device(), 1, {1, 1}, max);
  EXPECT_EQ(c.batch_per_replica, 1052);
  EXPECT_EQ(c.bound, ServingBound::kv_capacity);
  EXPECT_THROW(serving_capacity(plain_request(), plain_device(), 1, {1, 1}, batch_of(1053)),
               EngineError);
}

// A hybrid's sequences each hold a recurrent state beside their KV cache. The plain model with
// 5 of its 10 layers linear attention (no KV; a state of 1,000,000 f32 each): a sequence holds
// 5 x 1504 tokens x 8 x 128 x 4 bytes = 30,801,920 bytes of KV and 5 x 1,000,000 x 4 =
// 20,000,000 bytes of state, whatever the context: 50,801,920 bytes = 0.0473130 GiB;
// floor(60.3628 / 0.0473130) = 1275 sequences (KV alone: 2104). A step at batch 100 reads
// the states once: 100 x 20e6 bytes / (0.5 x 1000e9 B/s) = 4 ms more of the memory roof.
TEST(ServingMemory, recurrentStateSharesTheBudgetPerSequence) {
  ReplicaSetup hybrid = plain_setup();
  hybrid.model.layers_without_kv = 5;
  hybrid.model.recurrent_layers = 5;
  hybrid.model.recurrent_state_elements = 1e6;
  const ReplicaMemory m = replica_memory(hybrid);
  EXPECT_NEAR(m.kv_per_sequence_gib, 30801920.0 / 1073741824.0, 1e-12);
  EXPECT_NEAR(m.recurrent_state_per_sequence_gib, 20000000.0 / 1073741824.0, 1e-12);
  EXPECT_EQ(m.max_batch, 1275);
  ReplicaSetup stateless = hybrid;
  stateless.model.recurrent_layers = 0;
  stateless.model.recurrent_state_elements = 0;
  EXPECT_EQ(replica_memory(stateless).recurrent_state_per_sequence_gib, 0.0);
  EXPECT_EQ(replica_memory(stateless).max_batch, 2104);
  EXPECT_NEAR(decode_step(hybrid, 100).memory_s - decode_step(stateless, 100).memory_s, 4e-3,
              1e-12);
  // Over TP2 each GPU holds half of a sequence's state.
  ReplicaSetup tp2 = hybrid;
  tp2.tp = 2;
  EXPECT_NEAR(replica_memory(tp2).recurrent_state_per_sequence_gib, 10000000.0 / 1073741824.0,
              1e-12);
}

TEST(ServingThroughput, prefillOfReplacingRequestsRidesInsideTheSteps) {
  // DOMAIN V4: output throughput = output / (output x step / batch + input x prefill per token)
  // = 1000 / (1000 x 0.32388 / 1000 + 1000 x 0.2016384e-3) = 1902.94 tokens/s at batch 1000.
  const ServingCapacity c =
      serving_capacity(plain_request(), plain_device(), 1, {1, 1}, batch_of(1000));
  const double expected = 1000 / (1000 * 0.32388 / 1000 + 1000 * 0.2016384e-3);
  EXPECT_NEAR(c.output_tokens_per_s, expected, 1e-6 * expected);
  // TPOT is a request's (latency - TTFT) / (output - 1) (MLPerf LoadGen, vLLM's
  // benchmark_serving): its own prompt is in its TTFT, so its steps carry the prefill of the
  // 999 others that turn over during its decode: 0.32388 + 999 x 1000 / 1000 x 0.2016384e-3 =
  // 0.5253168 s = 525.3168 ms, where the replica's mean step (1000 / 1902.94 tokens/s =
  // 525.5184 ms) carries all 1000.
  EXPECT_NEAR(c.tpot_ms, (0.32388 + 999 * 0.2016384e-3) * 1000, 1e-6);
  EXPECT_NEAR(c.per_user_tokens_per_s, 1 / (0.32388 + 999 * 0.2016384e-3), 1e-9);
  // Alone (batch 1) a request's steps carry no other prompt: TPOT = the step, its p99 too
  // (Poisson mean 0), while the throughput still pays its own prefill: 1000 / (1000 x step +
  // 1000 x 0.2016384e-3).
  const ServingCapacity alone =
      serving_capacity(plain_request(), plain_device(), 1, {1, 1}, batch_of(1));
  EXPECT_NEAR(alone.tpot_ms, alone.step.total_s * 1000, 1e-9);
  EXPECT_NEAR(alone.tpot_p99_ms, alone.step.total_s * 1000, 1e-9);
  EXPECT_NEAR(alone.output_tokens_per_s, 1000 / (1000 * alone.step.total_s + 1000 * 0.2016384e-3),
              1e-9);
  EXPECT_NEAR(c.total_tokens_per_s_per_gpu, 2 * expected, 1e-6 * expected);
  EXPECT_EQ(c.bound, ServingBound::compute);
  // A prompt-heavy shape yields far fewer output tokens (DOMAIN V4: 2048 in / 128 out), each
  // at the most memory holds.
  ServingRequest heavy = plain_request();
  heavy.input_tokens = 2048;
  heavy.output_tokens = 128;
  const ServingCapacity h = serving_capacity(heavy, plain_device(), 1, {1, 1}, {});
  const ServingCapacity b = serving_capacity(plain_request(), plain_device(), 1, {1, 1}, {});
  EXPECT_LT(h.output_tokens_per_s, b.output_tokens_per_s / 3);
}

TEST(ServingThroughput, domainV4AndV2FiguresKeepTheirOrder) {
  // DOMAIN V4: TensorRT-LLM, Llama 3.1 8B FP8 on one H100: 15,220 output tokens/s at 1000/1000,
  // 3,450 at 2048/128 (4.4x). DOMAIN V2: Llama 3.3 70B at 1000/1000, B200 in FP4 7,007 against
  // H200 in FP8 2,909 (2.41x). Estimated with the compiled constants (these rows are fitted).
  ServingRequest r;
  r.engine = ServingEngine::tensorrt_llm;
  r.kv_cache = KvCacheType::fp8;
  r.memory_share = 0.95;
  r.model = test::reference_model("llama-3.1-8b");
  r.quant = test::reference_quant("FP8");
  const Device h100 = test::reference_device("h100-sxm");
  r.input_tokens = r.output_tokens = 1000;
  const double balanced = serving_capacity(r, h100, 1, {1, 1}, {}).output_tokens_per_s;
  r.input_tokens = 2048;
  r.output_tokens = 128;
  const double heavy = serving_capacity(r, h100, 1, {1, 1}, {}).output_tokens_per_s;
  EXPECT_GT(balanced / heavy, 3.0);
  EXPECT_LT(balanced / heavy, 6.0);
  EXPECT_NEAR(balanced, 15220, 0.30 * 15220);
  EXPECT_NEAR(heavy, 3450, 0.10 * 3450);
  r.model = test::reference_model("llama-3.3-70b");
  r.input_tokens = r.output_tokens = 1000;
  const double h200 =
      serving_capacity(r, test::reference_device("h200-sxm"), 1, {1, 1}, {}).output_tokens_per_s;
  r.quant = test::reference_quant("NVFP4");
  const double b200 =
      serving_capacity(r, test::reference_device("b200-180gb"), 1, {1, 1}, {}).output_tokens_per_s;
  EXPECT_NEAR(b200 / h200, 7007.0 / 2909.0, 0.10 * 7007.0 / 2909.0);
}

TEST(ServingLayout, replicasBeatTensorParallelForASmallModel) {
  // DOMAIN V5: for throughput, submitters prefer replicas: an 8B model on 8 H100s runs as
  // eight TP1 replicas, chosen and said so.
  ServingRequest r;
  r.engine = ServingEngine::vllm;
  r.model = test::reference_model("llama-3.1-8b");
  r.quant = test::reference_quant("FP8");
  r.input_tokens = r.output_tokens = 1000;
  const ServingCapacity c = serving_capacity(r, test::reference_device("h100-sxm"), 8, {}, {});
  EXPECT_EQ(c.tp, 1);
  EXPECT_EQ(c.pp, 1);
  EXPECT_EQ(c.replicas, 8);
  EXPECT_TRUE(c.layout_chosen);
  ASSERT_FALSE(c.notes.empty());
  EXPECT_NE(c.notes.front().find("layout chosen"), std::string::npos);
  // A fixed layout is kept: TP2 gives 4 replicas and less throughput than 8 replicas.
  const ServingCapacity tp2 =
      serving_capacity(r, test::reference_device("h100-sxm"), 8, {2, 1}, {});
  EXPECT_EQ(tp2.replicas, 4);
  EXPECT_FALSE(tp2.layout_chosen);
  EXPECT_LT(tp2.output_tokens_per_s, c.output_tokens_per_s);
}

TEST(ServingLayout, aModelTooLargeForOneGpuSaysWhatWouldFit) {
  ServingRequest r;
  r.engine = ServingEngine::vllm;
  r.model = test::reference_model("llama-3.1-405b");
  r.quant = test::reference_quant("FP8");
  r.input_tokens = r.output_tokens = 1000;
  try {
    serving_capacity(r, test::reference_device("h100-sxm"), 2, {}, {});
    FAIL() << "expected EngineError";
  } catch (const EngineError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("fits no layout on 2 x h100-sxm"), std::string::npos) << what;
    EXPECT_NE(what.find("needs at least"), std::string::npos) << what;
  }
  // Eight H100s hold it (TP8 or TP x PP = 8).
  EXPECT_EQ(serving_capacity(r, test::reference_device("h100-sxm"), 8, {}, {}).gpus_per_replica, 8);
}

TEST(ServingLatency, theLargestBatchMeetingTheTpotTargetIsChosen) {
  ServingGoal g;
  g.mode = ServingGoal::Mode::latency;
  g.tpot_p99_ms = 60;
  const ServingCapacity c = serving_capacity(plain_request(), plain_device(), 1, {1, 1}, g);
  ASSERT_TRUE(c.target_met);
  EXPECT_LE(c.tpot_p99_ms, 60);
  EXPECT_EQ(c.bound, ServingBound::latency_target);
  // One more sequence misses it.
  const ServingCapacity one_more = serving_capacity(plain_request(), plain_device(), 1, {1, 1},
                                                    batch_of(c.batch_per_replica + 1));
  EXPECT_GT(one_more.tpot_p99_ms, 60);
  // A per-user speed target is 1 / mean TPOT.
  ServingGoal user;
  user.mode = ServingGoal::Mode::latency;
  user.user_tokens_per_s = 25;
  const ServingCapacity u = serving_capacity(plain_request(), plain_device(), 1, {1, 1}, user);
  EXPECT_GE(u.per_user_tokens_per_s, 25);
}

TEST(ServingLatency, anUnreachableTargetSaysSoWithTheBestFigure) {
  // Batch 1 takes 21.1 ms a step (no other request's prompt rides in it): 10 ms per token
  // cannot be met.
  ServingGoal g;
  g.mode = ServingGoal::Mode::latency;
  g.tpot_p99_ms = 10;
  const ServingCapacity c = serving_capacity(plain_request(), plain_device(), 1, {1, 1}, g);
  EXPECT_FALSE(c.target_met);
  EXPECT_EQ(c.batch_per_replica, 1);
  ASSERT_FALSE(c.notes.empty());
  EXPECT_NE(c.notes.front().find("no batch meets the target"), std::string::npos);
}

TEST(ServingLatency, timeToFirstTokenCountsTheQueueForASlot) {
  // DOMAIN V7: under load the first token waits for a free slot, not for prefill alone.
  ServingGoal g;
  g.mode = ServingGoal::Mode::latency;
  g.tpot_p99_ms = 400;
  g.ttft_p99_ms = 2000;
  const ServingCapacity c = serving_capacity(plain_request(), plain_device(), 1, {1, 1}, g);
  ASSERT_TRUE(c.target_met);
  EXPECT_TRUE(c.ttft_includes_queueing);
  EXPECT_LE(c.ttft_p99_ms, 2000 * (1 + 1e-9));
  EXPECT_LT(c.slot_utilization, 1);
  EXPECT_GE(c.ttft_p99_ms, c.ttft_ms);
}

TEST(ServingQueue, erlangAndPoissonAgreeWithHandValues) {
  // M/M/1: the chance to wait is the load. M/M/2 at 1 erlang: Erlang B(2, 1) = 0.2, C = 2 x 0.2 /
  // (2 - 1 x 0.8) = 1/3.
  EXPECT_NEAR(erlang_c(1, 0.5), 0.5, 1e-12);
  EXPECT_NEAR(erlang_c(2, 1.0), 1.0 / 3, 1e-12);
  EXPECT_EQ(erlang_c(4, 4.0), 1.0);
  // p99 wait of M/M/1 at load 0.5, service 1 s: ln(0.5 / 0.01) / (1 - 0.5) = 7.824 s.
  EXPECT_NEAR(queue_wait_quantile_s(1, 0.5, 1.0, 0.99), std::log(50.0) / 0.5, 1e-9);
  EXPECT_NEAR(queue_wait_mean_s(1, 0.5, 1.0), 1.0, 1e-12);  // rho / (mu - lambda) = 0.5 / 0.5
  // Poisson(1): P(N <= 3) = 0.981, P(N <= 4) = 0.996.
  EXPECT_EQ(poisson_quantile(1, 0.99), 4);
  EXPECT_EQ(poisson_quantile(0, 0.99), 0);
  EXPECT_THROW(poisson_quantile(-1, 0.5), EngineError);
}

TEST(ServingFormats, enginesRefuseWhatTheyCannotRunAndStateTheirFallbacks) {
  const Device a100 = test::reference_device("a100-80gb-sxm");
  const Device h100 = test::reference_device("h100-sxm");
  const Device mi300x = test::reference_device("mi300x");
  const auto refusal = [](ServingEngine e, const char* quant, KvCacheType kv, const Device& d) {
    return format_support(e, quant, kv, d).refusal;
  };
  EXPECT_NE(refusal(ServingEngine::tensorrt_llm, "Q4_K_M", KvCacheType::f16, h100)
                .find("does not run GGUF"),
            std::string::npos);
  // F32 (a float32 config.json's dtype) is spoken of as a dtype, not as a GGUF quant.
  EXPECT_EQ(refusal(ServingEngine::vllm, "F32", KvCacheType::f16, h100),
            "vLLM does not serve F32 weights: F32 is the checkpoint's dtype (float32, as in a "
            "config.json's torch_dtype), which the serving engines load cast to 16 bits; plan the "
            "model with quant BF16 or F16 (--quant BF16), or F32 with --engine llama.cpp");
  EXPECT_EQ(refusal(ServingEngine::llama_cpp, "F32", KvCacheType::f16, h100), "");
  EXPECT_NE(refusal(ServingEngine::tensorrt_llm, "FP8", KvCacheType::f16, a100)
                .find("an A100 has no FP8"),
            std::string::npos);
  EXPECT_NE(
      refusal(ServingEngine::llama_cpp, "FP8", KvCacheType::f16, h100).find("GGUF files only"),
      std::string::npos);
  EXPECT_NE(refusal(ServingEngine::vllm, "FP8", KvCacheType::q8_0, h100).find("no q8_0 KV cache"),
            std::string::npos);
  EXPECT_NE(refusal(ServingEngine::tensorrt_llm, "FP8", KvCacheType::f16, mi300x)
                .find("NVIDIA GPUs only"),
            std::string::npos);
  // vLLM runs FP8 weights on an A100 weight-only: 16-bit compute, said so.
  const FormatSupport vllm_a100 =
      format_support(ServingEngine::vllm, "FP8", KvCacheType::f16, a100);
  EXPECT_TRUE(vllm_a100.refusal.empty());
  EXPECT_EQ(vllm_a100.compute, ComputePrecision::fp16);
  EXPECT_NE(vllm_a100.fallback.find("saves bytes, not FLOPs"), std::string::npos);
  EXPECT_EQ(format_support(ServingEngine::vllm, "FP8", KvCacheType::fp8, h100).compute,
            ComputePrecision::fp8);
  EXPECT_EQ(format_support(ServingEngine::tensorrt_llm, "NVFP4", KvCacheType::fp8,
                           test::reference_device("b200-180gb"))
                .compute,
            ComputePrecision::fp4);
  // serving_capacity refuses through EngineError with the reason.
  ServingRequest r = plain_request();
  r.engine = ServingEngine::tensorrt_llm;
  EXPECT_THROW(serving_capacity(r, a100, 1, {}, {}), EngineError);
}

TEST(ServingFormats, computeCapabilityFollowsTheEnginesSupportMatrices) {
  // Was: vLLM and SGLang planned in BF16 and FP8 on a Tesla P40 (Pascal, 6.1) and in FP8 on a
  // V100 (Volta, 7.0), for which they have no kernels; TensorRT-LLM's refusal on an Apple
  // device said it "serves on NVIDIA and AMD GPUs" (issue #39).
  const auto nvidia = [](const char* id) {
    Device d;
    d.id = id;
    d.vendor = Vendor::nvidia;
    return d;
  };
  const Device p40 = nvidia("tesla-p40");
  const Device v100 = nvidia("v100-sxm2-32gb");
  const Device t4 = nvidia("t4");
  const Device a100 = nvidia("a100-80gb-sxm");
  EXPECT_EQ(nvidia_compute_capability(p40), 61);
  EXPECT_EQ(nvidia_compute_capability(v100), 70);
  EXPECT_EQ(nvidia_compute_capability(nvidia("rtx-4000-ada")), 89);
  EXPECT_EQ(nvidia_compute_capability(nvidia("rtx-a4000")), 86);
  EXPECT_EQ(nvidia_compute_capability(nvidia("rtx-pro-6000-blackwell")), 120);
  EXPECT_EQ(nvidia_compute_capability(nvidia("my-own-card")), std::nullopt);  // not refused
  const auto refusal = [](ServingEngine e, const char* quant, const Device& d) {
    return format_support(e, quant, KvCacheType::f16, d).refusal;
  };
  EXPECT_EQ(refusal(ServingEngine::vllm, "BF16", p40),
            "vLLM runs on NVIDIA GPUs of compute capability 7.0 or more (its support matrix); "
            "tesla-p40 is Pascal, compute capability 6.1 (use --engine llama.cpp)");
  EXPECT_EQ(refusal(ServingEngine::sglang, "FP8", p40),
            "SGLang runs on NVIDIA GPUs of compute capability 7.5 or more (its support matrix); "
            "tesla-p40 is Pascal, compute capability 6.1 (use --engine llama.cpp)");
  EXPECT_EQ(refusal(ServingEngine::vllm, "FP8", v100),
            "vLLM runs FP8 weights from compute capability 7.5 (weight-only FP8 Marlin) on; "
            "v100-sxm2-32gb is Volta, compute capability 7.0: use F16 weights");
  EXPECT_EQ(refusal(ServingEngine::vllm, "BF16", v100),
            "vLLM runs BF16 from compute capability 8.0 (Ampere) on; v100-sxm2-32gb is Volta, "
            "compute capability 7.0: plan F16 weights (--quant F16), which it runs");
  EXPECT_EQ(refusal(ServingEngine::vllm, "F16", v100), "");
  EXPECT_NE(refusal(ServingEngine::vllm, "INT4-AWQ", v100).find("AWQ from compute capability 7.5"),
            std::string::npos);
  EXPECT_NE(refusal(ServingEngine::sglang, "F16", v100).find("7.5 or more"), std::string::npos);
  EXPECT_NE(refusal(ServingEngine::tensorrt_llm, "F16", t4).find("8.0 or more"), std::string::npos);
  // A T4 runs FP8 weight-only in vLLM; an A100 BF16 natively.
  EXPECT_EQ(refusal(ServingEngine::vllm, "FP8", t4), "");
  EXPECT_NE(format_support(ServingEngine::vllm, "FP8", KvCacheType::f16, t4).fallback, "");
  EXPECT_EQ(refusal(ServingEngine::vllm, "BF16", a100), "");
  Device mac;
  mac.id = "m3-ultra";
  mac.vendor = Vendor::apple;
  EXPECT_EQ(refusal(ServingEngine::tensorrt_llm, "F16", mac),
            "TensorRT-LLM runs on NVIDIA GPUs only; m3-ultra is apple (use --engine llama.cpp)");
}

TEST(ServingLlamaCpp, batchOfOneMatchesTheCalibratedDecodeModel) {
  // llama.cpp keeps its calibrated decode model: at one stream the serving step is
  // estimate_speed's step at the same context (the resident context of the request).
  ServingRequest r;
  r.engine = ServingEngine::llama_cpp;
  r.model = test::reference_model("llama-3.1-8b");
  r.quant = test::reference_quant("Q4_K_M");
  r.input_tokens = 1000;
  r.output_tokens = 1000;
  const Device d = test::reference_device("rtx-4090");
  r.backend = default_backend(d);
  const ServingCapacity c = serving_capacity(r, d, 1, {1, 1}, batch_of(1));
  FitRequest f{r.model, r.quant, 1500, 1, KvCacheType::f16};
  const SpeedEstimate s = estimate_speed(SpeedRequest{f, 1, SplitMode::layer, r.backend, 0}, d);
  EXPECT_NEAR(c.step.total_s, 1.0 / s.decode_tokens_per_s, 1e-6);
}

}  // namespace
}  // namespace gputco
