// The built-in catalog's dated data: systems and resale curves as of a date, resale curves
// monotone and sourced, Apple machines' power.
#include <gtest/gtest.h>

#include <utility>

#include "pricing/catalog.hpp"

namespace gputco {
namespace {

TEST(Builtin, systemsAndResaleCurvesAreDatedLookups) {
  const Catalog c = Catalog::open_builtin();
  const auto dgx = c.system("dgx-h100");
  ASSERT_TRUE(dgx.has_value());
  EXPECT_EQ(dgx->device_id, "h100-sxm");
  EXPECT_EQ(dgx->device_count, 8);
  EXPECT_EQ(dgx->host_power_w, 4600);
  EXPECT_FALSE(c.latest_system_price("hgx-h100-8x-ib", "new", "2024-07-31").has_value());
  const auto node = c.latest_system_price("hgx-h100-8x-ib", "new", "2024-08-01");
  ASSERT_TRUE(node.has_value());
  EXPECT_TRUE(node->includes_devices);
  EXPECT_EQ(node->amount, 313500);
  // The GPU Lease Rate Index points are dated 2026-01-08; before that only the definition.
  EXPECT_EQ(c.resale_curve("datacenter", "new", "2026-01-07").size(), 1u);
  const auto curve = c.resale_curve("datacenter", "new", "2026-01-08");
  ASSERT_EQ(curve.size(), 5u);
  EXPECT_EQ(curve.front().age_months, 0);
  EXPECT_EQ(curve.front().fraction, 1);
  EXPECT_EQ(curve.back().age_months, 48);
  EXPECT_EQ(curve.back().fraction, 0.175);  // GLRI H100 year 4: midpoint of 15-20 %
  EXPECT_EQ(c.resale_curve("consumer", "new", "2026-06-04").size(), 5u);
  EXPECT_TRUE(c.resale_curve("datacenter", "new", "2025-12-31").empty());
  // The host class: half after a year, halving yearly (icex.co.uk, 2019).
  const auto host = c.resale_curve("host", "new", "2026-11-27");
  ASSERT_EQ(host.size(), 4u);
  EXPECT_EQ(host.back().age_months, 36);
  EXPECT_EQ(host.back().fraction, 0.125);  // 0.5 x 0.5 x 0.5
  // No workstation or unified curve: plans fall back to the lowest of the other classes.
  EXPECT_TRUE(c.resale_curve("workstation", "new", "2026-11-27").empty());
  EXPECT_TRUE(c.resale_curve("unified", "used", "2026-11-27").empty());
}

// Every built-in resale curve starts at 1, never rises with age and stays within 0..1 (a curve
// above 1 would promise a profit on hardware; the data must show a shortage for that).
TEST(Builtin, resaleCurvesAreMonotoneAndSourced) {
  const Catalog c = Catalog::open_builtin();
  int curves = 0;
  for (const char* cls : {"consumer", "workstation", "datacenter", "unified"}) {
    for (const char* condition : {"new", "used", "refurbished"}) {
      const auto curve = c.resale_curve(cls, condition, "2026-11-29");
      if (curve.empty()) continue;
      ++curves;
      EXPECT_EQ(curve.front().age_months, 0) << cls << " " << condition;
      EXPECT_EQ(curve.front().fraction, 1) << cls << " " << condition;
      EXPECT_GE(curve.size(), 3u) << cls << " " << condition << ": a curve needs points past 0";
      for (size_t i = 1; i < curve.size(); ++i) {
        EXPECT_LE(curve[i].fraction, curve[i - 1].fraction)
            << cls << " " << condition << " at " << curve[i].age_months << " months";
        EXPECT_GT(curve[i].fraction, 0) << cls << " " << condition;
        EXPECT_FALSE(curve[i].provenance.source.empty());
        EXPECT_EQ(curve[i].provenance.source.find("example value"), std::string::npos)
            << cls << " " << condition << " at " << curve[i].age_months << " months";
      }
    }
  }
  EXPECT_EQ(curves, 4);  // consumer and datacenter, new and used
}

// Apple machines: board_power_w is the whole machine's published maximum (Apple's power
// consumption and thermal output pages), filled where a configuration matches the chip.
TEST(Builtin, applePowerIsTheWholeMachinesPublishedMaximum) {
  const Catalog c = Catalog::open_builtin();
  const std::pair<const char*, double> published[] = {
      {"m1-max-32c", 115},    // Mac Studio (2022), M1 Max 32-core GPU: Apple Support 102027
      {"m2-ultra-76c", 295},  // Mac Studio (2023), M2 Ultra 76-core GPU: Apple Support 102027
      {"m2-10c", 50},         // Mac mini (2023), M2
      {"m4-10c", 65},         // Mac mini (2024), M4
      {"m4-pro-20c", 140},    // Mac mini (2024), M4 Pro 20-core GPU, full spec
  };
  for (const auto& [id, watts] : published) {
    const auto d = c.device(id);
    ASSERT_TRUE(d.has_value()) << id;
    EXPECT_EQ(d->board_power_w, watts) << id;
  }
}

}  // namespace
}  // namespace gputco
