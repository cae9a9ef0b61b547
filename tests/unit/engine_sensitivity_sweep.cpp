// The utilization sweep: the crossover chart's data, consistent with the plan.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/base/error.hpp"
#include "engine/plan/sensitivity.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

TEST(UtilizationSweep, atThePlansOwnHoursItIsThePlan) {
  PlanInputs in = test::tiny_plan();
  in.options[0].host_cost = 300;
  in.options[0].residual_fraction = 0.2;
  in.options[0].maintenance_per_year = 0.05;
  in.site.tariff_per_kwh = 0.3;
  in.finance.discount_rate_per_year = 0.07;
  in.finance.horizon_months = 36;
  const Plan plan = make_plan(in);
  const auto sweep = utilization_sweep(in, 0, 24, 1);
  ASSERT_EQ(sweep.size(), 25u);
  const auto& at_plan = sweep[10];  // the plan runs 10 h/day
  ASSERT_EQ(at_plan.hours_per_day, 10);
  ASSERT_EQ(at_plan.total_cost.size(), plan.options.size());
  for (size_t i = 0; i < plan.options.size(); ++i) {
    EXPECT_EQ(at_plan.total_cost[i], plan.options[i].total_cost) << plan.options[i].id;
  }
}

TEST(UtilizationSweep, crossesWhereThePlanSaysOwningBreaksEven) {
  // With tokens per day and growth, the sweep moves tokens with the hours as the plan's
  // break-even utilization does, so the owned and rented lines cross there.
  PlanInputs in = test::tiny_plan();
  in.workload.tokens_per_day = 1e6;
  in.workload.growth_per_month = 0.02;
  in.site.tariff_per_kwh = 0.3;
  in.finance.horizon_months = 36;
  const Plan plan = make_plan(in);
  const auto own_hours = utilization_sweep(in, 10, 10, 1);
  ASSERT_EQ(own_hours.size(), 1u);
  const auto& at_plan = own_hours.front();
  EXPECT_EQ(at_plan.total_cost[0], plan.options[0].total_cost);
  EXPECT_EQ(at_plan.total_cost[1], plan.options[1].total_cost);
  const auto even = plan.options[0].break_even_hours_per_day;
  ASSERT_TRUE(even.has_value());
  ASSERT_GT(*even, 0.5);
  ASSERT_LT(*even, 23.5);
  const auto sweep = utilization_sweep(in, *even - 0.5, *even + 0.5, 1);
  ASSERT_EQ(sweep.size(), 2u);
  EXPECT_GT(sweep[0].total_cost[0], sweep[0].total_cost[1]);  // below: renting is cheaper
  EXPECT_LT(sweep[1].total_cost[0], sweep[1].total_cost[1]);  // above: owning is
}

TEST(UtilizationSweep, handComputedLinesCrossAtTheBreakEven) {
  // Own: 1000 once, power free. Rent: 1/h x h x 30 days x 12 months = 360 h.
  // They cross at 1000 / 360 = 2.78 h/day.
  const PlanInputs in = test::tiny_plan();
  const auto sweep = utilization_sweep(in, 0, 6, 2);
  ASSERT_EQ(sweep.size(), 4u);
  const double hours[] = {0, 2, 4, 6};
  for (size_t i = 0; i < sweep.size(); ++i) {
    EXPECT_EQ(sweep[i].hours_per_day, hours[i]);
    EXPECT_NEAR(sweep[i].total_cost[0], 1000, 1e-9);
    EXPECT_NEAR(sweep[i].total_cost[1], 360 * hours[i], 1e-9);
  }
  EXPECT_LT(sweep[1].total_cost[1], sweep[1].total_cost[0]);  // 2 h/day: renting is cheaper
  EXPECT_GT(sweep[2].total_cost[1], sweep[2].total_cost[0]);  // 4 h/day: owning is
}

TEST(UtilizationSweep, gridPointsDoNotDrift) {
  // 0.1 steps: 0.1 x 240 is 24 within rounding, so 24 is on the grid (241 points), and no
  // point is outside [from, to].
  const auto sweep = utilization_sweep(test::tiny_plan(), 0, 24, 0.1);
  ASSERT_EQ(sweep.size(), 241u);
  EXPECT_EQ(sweep.back().hours_per_day, 24);
  EXPECT_NEAR(sweep[37].hours_per_day, 3.7, 1e-12);
  // A step that does not divide the range stops before `to`.
  const auto partial = utilization_sweep(test::tiny_plan(), 1, 24, 5);
  ASSERT_EQ(partial.size(), 5u);
  EXPECT_EQ(partial.back().hours_per_day, 21);
}

TEST(UtilizationSweep, infeasibleOptionsAreStillCosted) {
  // The contract: one total per option, in plan order (the chart greys out what cannot run).
  PlanInputs in = test::tiny_plan();
  in.options[0].device = test::tiny_device();
  const auto sweep = utilization_sweep(in, 0, 24, 12);
  for (const auto& point : sweep) {
    ASSERT_EQ(point.total_cost.size(), 2u);
    for (double cost : point.total_cost) EXPECT_TRUE(std::isfinite(cost));
  }
}

TEST(UtilizationSweep, rejectsARangeOutsideTheDay) {
  const PlanInputs in = test::tiny_plan();
  EXPECT_THROW(utilization_sweep(in, 0, 25, 1), EngineError);
  EXPECT_THROW(utilization_sweep(in, -1, 24, 1), EngineError);
  EXPECT_THROW(utilization_sweep(in, 10, 5, 1), EngineError);
  EXPECT_THROW(utilization_sweep(in, 0, 24, 0), EngineError);
  EXPECT_THROW(utilization_sweep(in, 0, 24, -1), EngineError);
  EXPECT_THROW(utilization_sweep(in, 0, 24, 1e-6), EngineError);  // too many points
  EXPECT_THROW(utilization_sweep(in, 0, std::nan(""), 1), EngineError);
}

}  // namespace
}  // namespace gputco
