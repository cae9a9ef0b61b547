// Small plans for the sensitivity tests: an 8B model on a 24 GB card (it fits), one owned
// option and one hourly rental, every figure chosen so the results can be worked by hand.
#pragma once

#include "engine/plan/plan.hpp"

namespace gputco::test {

/// Llama 3.1 8B at Q4_K_M (config.json figures), an RTX 3090 (350 W), and two options:
/// "own": buy 1 card at 1000, nothing else; "rent": 1 card at 1.00 per hour.
/// 10 h/day x 30 days/month, 12 months, tariff 0, PUE 1, discount rate 0, currency USD.
inline PlanInputs tiny_plan() {
  PlanInputs in;
  in.model.id = "llama-3.1-8b";
  in.model.name = "Llama 3.1 8B";
  in.model.params_b = 8.03;
  in.model.active_params_b = 8.03;
  in.model.layers = 32;
  in.model.hidden = 4096;
  in.model.heads = 32;
  in.model.kv_heads = 8;
  in.model.head_dim = 128;
  in.model.max_context = 131072;
  in.model.vocab_size = 128256;
  in.quant.id = "Q4_K_M";
  in.quant.bits_per_weight = 4.89;
  in.quant.kind = "mix";
  in.workload.hours_per_day = 10;
  in.workload.days_per_month = 30;
  in.site.tariff_per_kwh = 0;
  in.site.pue = 1;
  in.finance.horizon_months = 12;
  in.finance.discount_rate_per_year = 0;
  in.finance.currency = "USD";

  Device card;
  card.id = "rtx-3090";
  card.name = "GeForce RTX 3090";
  card.memory_nameplate_gb = 24;
  card.bandwidth_gbps = 936;
  card.board_power_w = 350;

  OptionInputs own;
  own.id = "own";
  own.kind = OptionKind::buy;
  own.device = card;
  own.price_per_gpu = 1000;
  OptionInputs rent;
  rent.id = "rent";
  rent.kind = OptionKind::rent_hourly;
  rent.device = card;
  rent.rate_per_gpu_hour = 1.0;
  in.options = {own, rent};
  return in;
}

/// A device too small for the model (the option is infeasible).
inline Device tiny_device() {
  Device d;
  d.id = "tiny";
  d.name = "Tiny 2 GB";
  d.memory_nameplate_gb = 2;
  d.bandwidth_gbps = 100;
  d.board_power_w = 50;
  return d;
}

}  // namespace gputco::test
