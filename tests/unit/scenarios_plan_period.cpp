// The plan's period against its prices' date: every month is priced at as_of's catalog, so a
// start far from as_of is said (a newcomer planned 1999 at 2026 prices without a word).
#include <gtest/gtest.h>

#include <string>

#include "pricing/catalog.hpp"
#include "scenarios/resolve.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

/// A scenario starting `start` with prices as of `as_of`.
std::string scenario(const std::string& as_of, const std::string& start) {
  return "[scenario]\nas_of = " + as_of + "\nstart = " + start +
         "\n[workload]\nmodel = llama-3.1-8b\nquant = Q4_K_M\n[site]\ntariff_per_kwh = 0.25\n"
         "[option:rent]\nkind = rent_hourly\ngpu = l40s\nrate_per_gpu_hour = 1.5\n";
}

bool said(const ResolvedScenario& r) {
  for (const auto& w : r.warnings) {
    if (w.find("priced at that date's catalog") != std::string::npos) return true;
  }
  return false;
}

TEST(PlanPeriod, aStartFarFromThePricesDateIsSaid) {
  const Catalog catalog = Catalog::open_builtin();
  // Within a year before and two years after: nothing said.
  EXPECT_FALSE(said(resolve(test::parse(scenario("2026-11-27", "2027-01")), catalog)));
  EXPECT_FALSE(said(resolve(test::parse(scenario("2026-11-27", "2025-11")), catalog)));
  EXPECT_FALSE(said(resolve(test::parse(scenario("2026-11-27", "2028-11")), catalog)));
  // 1999-01 is 334 months before 2026-11; 2030-01 prices are 36 months after a 2027-01 start.
  const ResolvedScenario past = resolve(test::parse(scenario("2026-11-27", "1999-01")), catalog);
  ASSERT_TRUE(said(past));
  bool named = false;
  for (const auto& w : past.warnings) {
    named = named || w.rfind(
                         "the plan starts 1999-01, 334 months before its prices (as_of "
                         "2026-11-27)",
                         0) == 0;
  }
  EXPECT_TRUE(named);
  EXPECT_TRUE(said(resolve(test::parse(scenario("2026-11-27", "2028-12")), catalog)));
}

}  // namespace
}  // namespace gputco
