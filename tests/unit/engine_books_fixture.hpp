// What the tests of an option's books share (engine_profit_and_loss.cpp, engine_after_tax.cpp):
// a plain 24 GB card and an owned option of one 8,000 device and a 2,000 host.
#pragma once

#include <numeric>
#include <vector>

#include "engine/plan_model/plan_inputs.hpp"

namespace gputco::test {

/// A 24 GB, 936 GB/s, 350 W card: its figures matter only where a test says so.
inline Device books_card() {
  Device d;
  d.id = "card";
  d.name = "Card";
  d.memory_nameplate_gb = 24;
  d.bandwidth_gbps = 936;
  d.board_power_w = 350;
  return d;
}

/// One 8,000 device and a 2,000 host: 10,000 of capex, maintenance 6 % a year (10,000 x 0.06 /
/// 12 = 50 a month), 30 % resold at the horizon (3,000).
inline OptionInputs owned_ten_thousand() {
  OptionInputs o;
  o.id = "own";
  o.kind = OptionKind::buy;
  o.device = books_card();
  o.price_per_gpu = 8000;
  o.host_cost = 2000;
  o.maintenance_per_year = 0.06;
  o.residual_fraction = 0.3;
  return o;
}

/// The sum of `xs`.
inline double sum(const std::vector<double>& xs) {
  return std::accumulate(xs.begin(), xs.end(), 0.0);
}

}  // namespace gputco::test
