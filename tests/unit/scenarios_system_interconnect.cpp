// The links between an option's devices (issue #21 item 2): a catalog system's NVLink domain
// (systems.csv nvlink_domain_gpus, interconnect) and the option key nvlink_domain_gpus reach
// the engine's device (Device::nvlink_domain_gpus), the Inputs sheet and the reports; bad
// values exit 2 naming the key and line.
#include <gtest/gtest.h>

#include <string>

#include "engine/hardware/calibration.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

using test::input;
using test::option;
using test::parse;

// Lines 1-9; the option's header is line 10, its kind line 11, the keys given from line 12.
const std::string kHead =
    "[scenario]\n"
    "currency = USD\n"
    "as_of = 2026-06-01\n"
    "horizon_months = 12\n"
    "[workload]\n"
    "model = qwen3-32b\n"
    "quant = Q4_K_M\n"
    "[site]\n"
    "tariff_per_kwh = 0.15\n";

class SystemInterconnectOption : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { catalog_ = new Catalog(Catalog::open_builtin()); }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static ResolvedScenario resolved(const std::string& option_body) {
    return resolve(parse(kHead + "[option:own]\nkind = buy\n" + option_body), *catalog_);
  }
  /// The ScenarioError parsing or resolving gives, "" when none.
  static std::string error_of(const std::string& option_body, const std::string& kind = "buy") {
    try {
      resolve(parse(kHead + "[option:own]\nkind = " + kind + "\n" + option_body), *catalog_);
    } catch (const ScenarioError& e) {
      return e.what();
    }
    return "";
  }
  static Catalog* catalog_;
};
Catalog* SystemInterconnectOption::catalog_ = nullptr;

TEST_F(SystemInterconnectOption, theRigWithoutBridgesIsPcieOnly) {
  // systems.csv: rig-4x-rtx-3090 has no NVLink bridge (its host price names none): domain 1.
  const ResolvedScenario r = resolved("system = rig-4x-rtx-3090\ncondition = used\n");
  const OptionInputs& o = option(r, "own");
  EXPECT_EQ(o.device.nvlink_domain_gpus, 1);
  EXPECT_FALSE(nvlink_joins(o.device, 2));
  EXPECT_EQ(o.interconnect,
            "PCIe 4.0 x16 per card, no NVLink bridge; PCIe only (no NVLink between the devices)");
  const InputRow* domain = input(r, "own", "nvlink_domain_gpus");
  ASSERT_NE(domain, nullptr);
  EXPECT_DOUBLE_EQ(*domain->value, 1);
  EXPECT_EQ(domain->provenance, "catalog system rig-4x-rtx-3090 (systems.csv nvlink_domain_gpus)");
  const InputRow* links = input(r, "own", "interconnect");
  ASSERT_NE(links, nullptr);
  EXPECT_EQ(links->text, o.interconnect);
}

TEST_F(SystemInterconnectOption, anHgxNodeIsOneNvswitchDomain) {
  const OptionInputs o = option(resolved("system = hgx-h100-8x-ib\n"), "own");
  EXPECT_EQ(o.device.nvlink_domain_gpus, 8);
  EXPECT_TRUE(nvlink_joins(o.device, 8));
  EXPECT_EQ(o.interconnect,
            "NVSwitch, NVLink 900 GB/s per GPU; NVLink 900 GB/s joins all 8 devices");
}

TEST_F(SystemInterconnectOption, theKeyStatesBridgesTheCatalogRigLacks) {
  // Two 2-way bridges on the rig: pairs over NVLink (112.5 GB/s), PCIe between them.
  const ResolvedScenario r =
      resolved("system = rig-4x-rtx-3090\ncondition = used\nnvlink_domain_gpus = 2\n");
  const OptionInputs& o = option(r, "own");
  EXPECT_EQ(o.device.nvlink_domain_gpus, 2);
  EXPECT_TRUE(nvlink_joins(o.device, 2));
  EXPECT_FALSE(nvlink_joins(o.device, 4));
  EXPECT_EQ(o.interconnect,
            "NVLink 112.5 GB/s within groups of 2 devices, PCIe between the groups (a "
            "tensor-parallel group above 2 goes over PCIe)");
  EXPECT_EQ(input(r, "own", "nvlink_domain_gpus")->provenance,
            "scenario file line 14; replaces catalog system rig-4x-rtx-3090's 1");
}

TEST_F(SystemInterconnectOption, aGpuAndCountOptionKeepsTheDeviceLinkUnlessTheKeySaysOtherwise) {
  // No system, no key: not stated, the card's link joins all four (as before), no row.
  const ResolvedScenario plain = resolved("gpu = rtx-3090\ncount = 4\nprice_per_gpu = 700\n");
  EXPECT_EQ(option(plain, "own").device.nvlink_domain_gpus, 0);
  EXPECT_EQ(option(plain, "own").interconnect, "");
  EXPECT_EQ(input(plain, "own", "nvlink_domain_gpus"), nullptr);
  // The key on a rental too (a cloud instance of PCIe cards).
  const ResolvedScenario keyed =
      resolved("gpu = rtx-3090\ncount = 4\nprice_per_gpu = 700\nnvlink_domain_gpus = 2\n");
  EXPECT_EQ(option(keyed, "own").device.nvlink_domain_gpus, 2);
  EXPECT_EQ(input(keyed, "own", "nvlink_domain_gpus")->provenance, "scenario file line 15");
}

TEST_F(SystemInterconnectOption, badValuesNameTheKeyAndLine) {
  const std::string range = "test.ini:12: [option:own] nvlink_domain_gpus: ";
  EXPECT_EQ(error_of("nvlink_domain_gpus = 0\nsystem = rig-4x-rtx-3090\n").rfind(range, 0), 0u)
      << error_of("nvlink_domain_gpus = 0\nsystem = rig-4x-rtx-3090\n");
  EXPECT_EQ(error_of("nvlink_domain_gpus = 2.5\nsystem = rig-4x-rtx-3090\n"),
            range + "expected a whole number, got '2.5'");
  EXPECT_EQ(error_of("nvlink_domain_gpus = 8\nsystem = rig-4x-rtx-3090\ncondition = used\n"),
            "test.ini:12: [option:own] nvlink_domain_gpus: 8 is above the option's 4 device(s): "
            "one NVLink domain joins some or all of them (8 for an 8-GPU NVSwitch board, 2 for "
            "bridged pairs, 1 for PCIe only)");
  EXPECT_EQ(error_of("api = together-llama-3.3-70b\nnvlink_domain_gpus = 2\n", "api"),
            "test.ini:13: [option:own] nvlink_domain_gpus: does not apply to kind = api (the "
            "provider runs the model: no devices)");
}

}  // namespace
}  // namespace gputco
