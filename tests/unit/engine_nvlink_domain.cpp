// NVLink domains (Device::nvlink_domain_gpus, calibration.hpp nvlink_joins): a tensor-parallel
// group or a send uses NVLink only while the group fits in one domain, else PCIe. Expected
// values by hand from the ring model of calibration.hpp: 2 (n - 1) hops, each a link latency
// (NVLink 1.5 us, PCIe 6 us) plus message / n over the link (device nvlink_gbps; PCIe 32 GB/s).
#include <gtest/gtest.h>

#include "engine/base/error.hpp"
#include "engine/hardware/calibration.hpp"
#include "engine/serving/serving.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco {
namespace {

// One decode step's activations of a 8,192-wide model in FP16: 8,192 x 2 bytes.
constexpr double kMessage = 16384;

Device rtx3090(int domain) {
  Device d = test::reference_device("rtx-3090");  // NVLink 112.5 GB/s (2-way bridge)
  d.nvlink_domain_gpus = domain;
  return d;
}

TEST(NvlinkDomain, aGroupJoinsOverNvlinkOnlyInsideOneDomain) {
  EXPECT_FALSE(nvlink_joins(rtx3090(0), 1));  // one device: no link at all
  EXPECT_TRUE(nvlink_joins(rtx3090(0), 4));   // not stated: the link joins any group
  EXPECT_TRUE(nvlink_joins(rtx3090(2), 2));   // one bridged pair
  EXPECT_FALSE(nvlink_joins(rtx3090(2), 4));  // two pairs: PCIe between them
  EXPECT_FALSE(nvlink_joins(rtx3090(1), 2));  // no bridge
  Device pcie = rtx3090(0);
  pcie.nvlink_gbps = 0;
  EXPECT_FALSE(nvlink_joins(pcie, 2));
}

TEST(NvlinkDomain, tensorParallelOfFourOnTheRigIsThePcieRing) {
  // PCIe: 2 x 3 hops x (6e-6 + 16384 / 4 / 32e9) = 6 x 6.128e-6 = 3.6768e-5 s, the same
  // whether the rig has no bridge (domain 1) or two bridged pairs (domain 2).
  EXPECT_NEAR(tensor_parallel_allreduce_s(rtx3090(1), 4, kMessage), 3.6768e-5, 1e-12);
  EXPECT_NEAR(tensor_parallel_allreduce_s(rtx3090(2), 4, kMessage), 3.6768e-5, 1e-12);
  // Not stated (a gpu + count option, as before): NVLink at 112.5 GB/s,
  // 6 x (1.5e-6 + 4096 / 112.5e9) = 6 x 1.53640889e-6 = 9.21845333e-6 s.
  EXPECT_NEAR(tensor_parallel_allreduce_s(rtx3090(0), 4, kMessage), 9.21845333e-6, 1e-13);
}

TEST(NvlinkDomain, tensorParallelOfTwoOnABridgedPairIsTheNvlinkRing) {
  // NVLink: 2 x 1 hop x (1.5e-6 + 16384 / 2 / 112.5e9) = 2 x 1.57281778e-6 = 3.14563556e-6 s.
  EXPECT_NEAR(tensor_parallel_allreduce_s(rtx3090(2), 2, kMessage), 3.14563556e-6, 1e-13);
  // Without a bridge: 2 x (6e-6 + 8192 / 32e9) = 2 x 6.256e-6 = 1.2512e-5 s.
  EXPECT_NEAR(tensor_parallel_allreduce_s(rtx3090(1), 2, kMessage), 1.2512e-5, 1e-12);
}

TEST(NvlinkDomain, eightH100sOnNvswitchAreOneDomain) {
  // DGX H100 (NVIDIA datasheet: 4x NVSwitch, NVLink 900 GB/s per GPU), domain 8:
  // 14 hops x (1.5e-6 + 16384 / 8 / 900e9) = 14 x 1.50227556e-6 = 2.10318578e-5 s.
  Device h100 = test::reference_device("h100-sxm");
  h100.nvlink_domain_gpus = 8;
  EXPECT_NEAR(tensor_parallel_allreduce_s(h100, 8, kMessage), 2.10318578e-5, 1e-13);
}

TEST(NvlinkDomain, aSendCrossesPcieOnceItsGroupSpansDomains) {
  // A pipeline send of 16,384 bytes: within a pair 1.5e-6 + 16384 / 112.5e9 = 1.64563556e-6 s;
  // across a replica of 4 on two pairs 6e-6 + 16384 / 32e9 = 6.512e-6 s.
  EXPECT_NEAR(device_send_s(rtx3090(2), 2, kMessage), 1.64563556e-6, 1e-13);
  EXPECT_NEAR(device_send_s(rtx3090(2), 4, kMessage), 6.512e-6, 1e-12);
  // The same as one hop of a ring of two (the form the serving model used before).
  EXPECT_NEAR(device_send_s(rtx3090(0), 2, kMessage),
              tensor_parallel_allreduce_s(rtx3090(0), 2, 2 * kMessage) / 2, 1e-15);
  EXPECT_THROW(device_send_s(rtx3090(0), 1, kMessage), EngineError);
}

TEST(NvlinkDomain, theServingLayoutKeepsTensorParallelInsideABridgedPair) {
  // Qwen3 30B-A3B in F16 (about 57 GiB of weights) needs all four 24 GB cards; llama.cpp, one
  // sequence of 4,096 + 4,096 tokens. With the link joining all four (not stated) the serving
  // model takes TP 4; with two bridged pairs a TP 4 ring crosses PCIe (3.68e-5 s an all-reduce
  // above against 9.2e-6 s), so it keeps TP 2 inside each pair and pipelines the two pairs.
  ServingRequest request;
  request.model = test::reference_model("qwen3-30b-a3b");
  request.quant = test::reference_quant("F16");
  request.backend = Backend::cuda;
  request.engine = ServingEngine::llama_cpp;
  request.input_tokens = 4096;
  request.output_tokens = 4096;
  ServingGoal goal;
  goal.mode = ServingGoal::Mode::batch;
  goal.batch = 1;
  const ServingCapacity joined = serving_capacity(request, rtx3090(0), 4, ServingLayout{}, goal);
  EXPECT_EQ(joined.tp, 4);
  EXPECT_EQ(joined.pp, 1);
  const ServingCapacity pairs = serving_capacity(request, rtx3090(2), 4, ServingLayout{}, goal);
  EXPECT_EQ(pairs.tp, 2);
  EXPECT_EQ(pairs.pp, 2);
  // The pairs serve less than four joined cards, more than four on PCIe alone (TP 4 there).
  const ServingCapacity pcie = serving_capacity(request, rtx3090(1), 4, ServingLayout{}, goal);
  EXPECT_EQ(pcie.tp, 4);
  EXPECT_LT(pairs.output_tokens_per_s, joined.output_tokens_per_s);
  EXPECT_GT(pairs.output_tokens_per_s, pcie.output_tokens_per_s);
}

}  // namespace
}  // namespace gputco
