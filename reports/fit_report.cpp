#include "reports/fit_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/hardware/power_limit.hpp"
#include "reports/json_values.hpp"
#include "reports/text_report.hpp"
#include "reports/text_table.hpp"

namespace gputco {

namespace {

using json_values::number;
using json_values::optional_number;
using json_values::ordered;

ordered price_json(const std::optional<Price>& p) {
  if (!p) return nullptr;
  return {{"amount", number(p->amount)}, {"currency", p->currency}};
}

std::string verdict_text(Verdict v) {
  switch (v) {
    case Verdict::fits:
      return "fits";
    case Verdict::tight:
      return "tight";
    case Verdict::does_not_fit:
      return "no fit";
  }
  return "?";
}

bool holds(const FitResult& fit) {
  return fit.verdict != Verdict::does_not_fit;
}

std::string system_name(const DeviceFit& r) {
  return r.count == 1 ? r.device.id : fmt::format("{}x {}", r.count, r.device.id);
}

/// A finder row's label: the device ("rtx-3090", "2x rtx-3090"), or a catalog system with
/// what it holds ("rig-4x-rtx-3090 (4x rtx-3090)").
std::string system_name(const FinderRow& row) {
  if (row.system_id.empty()) return system_name(row.result);
  return fmt::format("{} ({})", row.system_id, system_name(row.result));
}

/// Whole amounts with thousands separators and the currency: "1,700 USD"; "-" when absent.
std::string price_text(const std::optional<Price>& p) {
  if (!p || !std::isfinite(p->amount)) return "-";
  return grouped_money_text(p->amount) + " " + p->currency;
}

std::string tokens_text(const DeviceFit& r) {
  return holds(r.fit) ? fmt::format("{:.1f}", r.speed.decode_tokens_per_s) : "-";
}

std::string ttft_text(const DeviceFit& r) {
  if (!holds(r.fit) || r.speed.time_to_first_token_s <= 0) return "-";
  return fmt::format("{:.2f}", r.speed.time_to_first_token_s);
}

std::string index_text(const FinderRow& r) {
  return fmt::format("{:.0f}{}", r.speed_index,
                     r.speed_index_basis == SpeedIndexBasis::bandwidth ? "*" : "");
}

/// GB/s per unit of money; the currency is in the column header when all rows share one.
std::string value_text(const FinderRow& r, bool currency_in_header) {
  if (!r.gbps_per_money) return "-";
  return currency_in_header
             ? fmt::format("{:.2f}", *r.gbps_per_money)
             : fmt::format("{:.2f}/{}", *r.gbps_per_money, r.gbps_per_money_currency);
}

/// The one currency of every priced row, or "" when there are none or several.
std::string common_currency(const std::vector<FinderRow>& rows) {
  std::string currency;
  for (const auto& r : rows) {
    if (!r.gbps_per_money) continue;
    if (currency.empty()) currency = r.gbps_per_money_currency;
    if (currency != r.gbps_per_money_currency) return "";
  }
  return currency;
}

std::string header(const FinderRequest& finder, const MemoryBreakdown& memory,
                   const FitReportContext& context) {
  const auto& q = finder.request;
  const auto& o = finder.options;
  const std::string recurrent =
      memory.recurrent_state_gib > 0
          ? fmt::format(" + recurrent state {:.2f} GiB", memory.recurrent_state_gib)
          : "";
  const std::string vision =
      memory.projector_gib > 0
          ? fmt::format(" + vision projector {:.2f} GiB + image buffer {:.2f} GiB",
                        memory.projector_gib, memory.image_buffer_gib)
          : "";
  std::string out = fmt::format(
      "{} {}, {} tokens x {} stream(s), KV cache {}, {} split, backend {}{}\n"
      "memory on one device: weights {:.2f} GiB + KV cache {:.2f} GiB{} + overhead {:.2f} GiB{} = "
      "{:.2f} GiB\n",
      q.model.id, q.quant.id, q.context_tokens, q.concurrent_streams, to_string(q.kv_cache),
      to_string(o.split), context.backend_given && o.backend ? to_string(*o.backend) : "per vendor",
      o.prompt_tokens > 0 ? fmt::format(", prompt {} tokens", o.prompt_tokens) : "",
      memory.weights_gib, memory.kv_cache_gib, recurrent, memory.overhead_gib, vision,
      memory.total_gib);
  if (memory.host_embedding_gib > 0) {
    out += fmt::format(
        "host RAM: token embedding {:.2f} GiB (llama.cpp keeps the input layer on the CPU{})\n",
        memory.host_embedding_gib,
        q.model.tied_embeddings ? "; tied, so the GPU holds it again as the output layer" : "");
  }
  out += fmt::format("prices: latest observation {}\n\n",
                     context.as_of.empty() ? "in the catalog" : "on or before " + context.as_of);
  return out;
}

std::string footnotes(const FinderRequest& finder, const std::vector<FinderRow>& rows) {
  std::string out;
  out += fmt::format(
      "\nindex: decode tokens/s against one {} for the same request = 100 (our estimate)",
      finder.speed_reference.id);
  bool bandwidth = false;
  for (const auto& r : rows) bandwidth |= r.speed_index_basis == SpeedIndexBasis::bandwidth;
  if (bandwidth) out += "; * from memory bandwidth where the model does not fit";
  out += ".\n";
  out += fmt::format(
      "tier: from the largest catalog model that fits at {} / {} tokens (entry < {:g}B, "
      "mid-range < {:g}B, high-end < {:g}B, flagship beyond).\n",
      finder.tier_probe.quant.id, finder.tier_probe.context_tokens,
      finder.tier_probe.bounds.mid_range_min_b, finder.tier_probe.bounds.high_end_min_b,
      finder.tier_probe.bounds.flagship_min_b);
  for (const auto& r : rows) {
    const Device& d = r.result.device;
    if (d.power_limit_w > 0 && d.power_limit_w < d.board_power_w) {
      out += fmt::format(
          "{}: power limit {:g} W of its {:g} W board power: prefill and decode's fixed cost per "
          "layer at {:.2f} of stock compute (modelled: engine/hardware/power_limit.hpp)\n",
          system_name(r), d.power_limit_w, d.board_power_w, power_limit_effect(d).compute_share);
    }
    if (!r.result.speed.note.empty()) {
      out += fmt::format("{}: {}\n", system_name(r), r.result.speed.note);
    }
  }
  return out;
}

ordered row_json(const FinderRow& row, int prompt_tokens) {
  const DeviceFit& r = row.result;
  const bool fits = holds(r.fit);
  ordered o;
  o["gpu"] = r.device.id;
  o["count"] = r.count;
  o["system"] = row.system_id.empty() ? ordered(nullptr) : ordered(row.system_id);
  o["system_name"] = row.system_id.empty() ? ordered(nullptr) : ordered(row.system_name);
  o["usable_gib"] = number(r.fit.usable_gib);
  o["required_gib"] = number(r.fit.memory.total_gib);
  o["headroom_gib"] = number(r.fit.headroom_gib);
  o["verdict"] = to_string(r.fit.verdict);
  o["decode_tokens_per_s"] = number(r.speed.decode_tokens_per_s);
  o["aggregate_tokens_per_s"] = number(r.speed.aggregate_tokens_per_s);
  o["backend"] = to_string(r.backend);
  o["power_limit_w"] = r.device.power_limit_w > 0 ? number(r.device.power_limit_w) : nullptr;
  o["split_used"] = fits ? ordered(to_string(r.speed.split_used)) : ordered(nullptr);
  o["combined_memory_gb"] = number(row.combined_memory_gb);
  o["prefill_tokens_per_s"] =
      fits && r.speed.prefill_tokens_per_s > 0 ? number(r.speed.prefill_tokens_per_s) : nullptr;
  o["time_to_first_token_s"] = fits && prompt_tokens > 0 && r.speed.time_to_first_token_s > 0
                                   ? number(r.speed.time_to_first_token_s)
                                   : nullptr;
  o["price_new"] = price_json(row.price_new);
  o["price_used"] = price_json(row.price_used);
  o["gbps_per_money"] = optional_number(row.gbps_per_money);
  o["gbps_per_money_currency"] =
      row.gbps_per_money ? ordered(row.gbps_per_money_currency) : ordered(nullptr);
  o["gbps_per_money_condition"] =
      row.gbps_per_money ? ordered(row.gbps_per_money_condition) : ordered(nullptr);
  o["speed_index"] = number(row.speed_index);
  o["speed_index_basis"] = to_string(row.speed_index_basis);
  o["tier"] = row.tier == Tier::none ? ordered(nullptr) : ordered(to_string(row.tier));
  o["tier_model"] = row.tier_model_id.empty() ? ordered(nullptr) : ordered(row.tier_model_id);
  o["note"] = r.speed.note;
  return o;
}

ordered request_json(const FinderRequest& finder, const MemoryBreakdown& memory,
                     const FitReportContext& context) {
  const auto& q = finder.request;
  const auto& o = finder.options;
  ordered j;
  j["gputco"] = stamp_json(context.stamp);
  j["mode"] = "inference";
  j["model"] = q.model.id;
  j["quant"] = q.quant.id;
  j["context_tokens"] = q.context_tokens;
  j["concurrent_streams"] = q.concurrent_streams;
  j["kv_cache"] = to_string(q.kv_cache);
  j["split"] = to_string(o.split);
  j["backend"] = context.backend_given && o.backend ? to_string(*o.backend) : "default";
  j["prompt_tokens"] = o.prompt_tokens;
  j["prices_as_of"] = context.as_of.empty() ? ordered(nullptr) : ordered(context.as_of);
  j["speed_reference"] = finder.speed_reference.id;
  j["tier_probe"] = {{"quant", finder.tier_probe.quant.id},
                     {"context_tokens", finder.tier_probe.context_tokens}};
  j["memory"] = {{"weights_gib", number(memory.weights_gib)},
                 {"kv_cache_gib", number(memory.kv_cache_gib)},
                 {"recurrent_state_gib", number(memory.recurrent_state_gib)},
                 {"overhead_gib", number(memory.overhead_gib)},
                 {"projector_gib", number(memory.projector_gib)},
                 {"image_buffer_gib", number(memory.image_buffer_gib)},
                 {"total_gib", number(memory.total_gib)},
                 {"host_embedding_gib", number(memory.host_embedding_gib)}};
  return j;
}

std::string fit_clause(const DeviceComparison& c) {
  const bool a = holds(c.a.result.fit), b = holds(c.b.result.fit);
  const std::string& ia = c.a.result.device.id;
  const std::string& ib = c.b.result.device.id;
  if (a && b) {
    const bool ta = c.a.result.fit.verdict == Verdict::tight;
    const bool tb = c.b.result.fit.verdict == Verdict::tight;
    if (ta && tb) return "both fit, tightly";
    if (ta || tb) return fmt::format("both fit ({} tightly)", ta ? ia : ib);
    return "both fit";
  }
  if (a) return fmt::format("only {} fits", ia);
  if (b) return fmt::format("only {} fits", ib);
  return "neither fits";
}

}  // namespace

std::string fit_text(const FinderRequest& finder, const MemoryBreakdown& memory,
                     const std::vector<FinderRow>& rows, const FitReportContext& context) {
  const bool ttft = finder.options.prompt_tokens > 0;
  const std::string currency = common_currency(rows);
  const std::string value_header = currency.empty() ? "GB/s per" : "GB/s/" + currency;
  std::string out = header(finder, memory, context);
  // The gpu column: 30 wide, or the longest system name (a vendor's system, a user's device).
  size_t system_width = 30;
  for (const auto& row : rows) {
    system_width = std::max(system_width, TextTable::display_width(system_name(row)));
  }
  const auto line =
      [&](const std::string& system, const std::string& mem, const std::string& usable,
          const std::string& headroom, const std::string& verdict, const std::string& tokens,
          const std::string& first, const std::string& index, const std::string& price_new,
          const std::string& price_used, const std::string& value, const std::string& tier,
          const std::string& largest) {
        std::string l = fmt::format("{:<{}} {:>6} {:>7} {:>8} {:<6} {:>7} ", system, system_width,
                                    mem, usable, headroom, verdict, tokens);
        if (ttft) l += fmt::format("{:>7} ", first);
        l += fmt::format("{:>5} {:>11} {:>11} {:>9} {:<9} {}", index, price_new, price_used, value,
                         tier, largest);
        while (!l.empty() && l.back() == ' ') l.pop_back();
        return l + "\n";
      };
  out += line("gpu", "mem GB", "usable", "headroom", "fit", "tok/s", "TTFT s", "index", "price new",
              "price used", value_header, "tier", "largest Q4 fit");
  for (const auto& row : rows) {
    const DeviceFit& r = row.result;
    out += line(system_name(row), fmt::format("{:.0f}", row.combined_memory_gb),
                fmt::format("{:.1f}", r.fit.usable_gib), fmt::format("{:.1f}", r.fit.headroom_gib),
                verdict_text(r.fit.verdict), tokens_text(r), ttft_text(r), index_text(row),
                price_text(row.price_new), price_text(row.price_used),
                value_text(row, !currency.empty()), to_string(row.tier),
                row.tier_model_id.empty() ? "-" : row.tier_model_id);
  }
  out += "usable and headroom in GiB; prices for the whole system.";
  return out + footnotes(finder, rows);
}

std::string fit_json(const FinderRequest& finder, const MemoryBreakdown& memory,
                     const std::vector<FinderRow>& rows, const FitReportContext& context) {
  ordered j = request_json(finder, memory, context);
  ordered results = ordered::array();
  for (const auto& row : rows) results.push_back(row_json(row, finder.options.prompt_tokens));
  j["results"] = std::move(results);
  return j.dump(2) + "\n";
}

std::string compare_verdict(const DeviceComparison& c) {
  std::vector<std::string> parts;
  if (c.faster_by) {
    parts.push_back(c.faster_id.empty() ? std::string("same decode speed")
                                        : fmt::format("{} decodes {:.0f} % faster", c.faster_id,
                                                      100 * *c.faster_by));
  }
  parts.push_back(fit_clause(c));
  if (c.cheaper_by && c.price_condition_a == c.price_condition_b) {
    parts.push_back(c.cheaper_id.empty() ? fmt::format("same price {}", c.price_condition_a)
                                         : fmt::format("{} costs {:.0f} % less {}", c.cheaper_id,
                                                       100 * *c.cheaper_by, c.price_condition_a));
  } else if (c.cheaper_by) {
    const std::string conditions =
        fmt::format("{} {} vs {} {}", c.a.result.device.id, c.price_condition_a,
                    c.b.result.device.id, c.price_condition_b);
    parts.push_back(c.cheaper_id.empty() ? fmt::format("same price ({})", conditions)
                                         : fmt::format("{} costs {:.0f} % less ({})", c.cheaper_id,
                                                       100 * *c.cheaper_by, conditions));
  } else {
    parts.push_back("no comparable prices");
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

std::string compare_text(const FinderRequest& finder, const MemoryBreakdown& memory,
                         const DeviceComparison& c, const FitReportContext& context) {
  std::string out = header(finder, memory, context);
  const FinderRow& a = c.a;
  const FinderRow& b = c.b;
  const auto line = [&](const std::string& label, const std::string& x, const std::string& y) {
    out += fmt::format("{:<22} {:>24} {:>24}\n", label, x, y);
  };
  line("", system_name(c.a), system_name(c.b));
  line("memory (nameplate GB)", fmt::format("{:.0f}", a.combined_memory_gb),
       fmt::format("{:.0f}", b.combined_memory_gb));
  line("bandwidth GB/s", fmt::format("{:.0f}", a.result.device.bandwidth_gbps),
       fmt::format("{:.0f}", b.result.device.bandwidth_gbps));
  line("usable GiB", fmt::format("{:.1f}", a.result.fit.usable_gib),
       fmt::format("{:.1f}", b.result.fit.usable_gib));
  line("headroom GiB", fmt::format("{:.1f}", a.result.fit.headroom_gib),
       fmt::format("{:.1f}", b.result.fit.headroom_gib));
  line("fit", verdict_text(a.result.fit.verdict), verdict_text(b.result.fit.verdict));
  line("backend", to_string(a.result.backend), to_string(b.result.backend));
  line("decode tok/s", tokens_text(a.result), tokens_text(b.result));
  if (finder.options.prompt_tokens > 0) {
    line("time to first token s", ttft_text(a.result), ttft_text(b.result));
  }
  line("speed index", index_text(a), index_text(b));
  line("price new", price_text(a.price_new), price_text(b.price_new));
  line("price used", price_text(a.price_used), price_text(b.price_used));
  const auto value = [](const FinderRow& r) {
    return r.gbps_per_money ? fmt::format("{:.2f} per {} ({})", *r.gbps_per_money,
                                          r.gbps_per_money_currency, r.gbps_per_money_condition)
                            : std::string("-");
  };
  line("GB/s per money", value(a), value(b));
  line("tier", to_string(a.tier), to_string(b.tier));
  line("largest Q4 fit", a.tier_model_id.empty() ? "-" : a.tier_model_id,
       b.tier_model_id.empty() ? "-" : b.tier_model_id);
  out += "\n" + compare_verdict(c) + "\n";
  return out + footnotes(finder, {a, b});
}

std::string compare_json(const FinderRequest& finder, const MemoryBreakdown& memory,
                         const DeviceComparison& c, const FitReportContext& context) {
  ordered j = request_json(finder, memory, context);
  const int prompt = finder.options.prompt_tokens;
  j["results"] = ordered::array({row_json(c.a, prompt), row_json(c.b, prompt)});
  j["compare"] = {{"a", c.a.result.device.id},
                  {"b", c.b.result.device.id},
                  {"faster_id", c.faster_id.empty() ? ordered(nullptr) : ordered(c.faster_id)},
                  {"faster_by", optional_number(c.faster_by)},
                  {"cheaper_id", c.cheaper_id.empty() ? ordered(nullptr) : ordered(c.cheaper_id)},
                  {"cheaper_by", optional_number(c.cheaper_by)},
                  {"price_condition_a",
                   c.price_condition_a.empty() ? ordered(nullptr) : ordered(c.price_condition_a)},
                  {"price_condition_b",
                   c.price_condition_b.empty() ? ordered(nullptr) : ordered(c.price_condition_b)},
                  {"verdict", compare_verdict(c)}};
  return j.dump(2) + "\n";
}

std::string finetune_text(const FinetuneReportInputs& in, const std::vector<FinetuneFit>& rows) {
  const auto& r = in.request;
  const auto& m = in.memory;
  const bool adapters = r.method != FinetuneMethod::full;
  std::string out = fmt::format(
      "{} fine-tune ({}{}), {} tokens x {} sequence(s) per device, gradient checkpointing {}, "
      "flash attention {}\n",
      r.model.id, to_string(r.method), adapters ? fmt::format(", rank {}", r.lora_rank) : "",
      r.sequence_tokens, r.micro_batch, r.gradient_checkpointing ? "on" : "off",
      r.flash_attention ? "on" : "off");
  out += fmt::format("trainable parameters: {:.4g} B of {:.4g} B\n", m.trainable_params_b,
                     r.model.params_b);
  out += fmt::format("{:<34} {:>10}\n", "memory on one device", "GiB");
  const auto item = [&](const std::string& label, double gib) {
    out += fmt::format("{:<34} {:>10.2f}\n", label, gib);
  };
  item(r.method == FinetuneMethod::qlora ? "weights (NF4 base)"
       : adapters                        ? "weights (16-bit, frozen)"
                                         : "weights (16-bit)",
       m.weights_gib);
  if (adapters) item("adapters (fp32)", m.adapters_gib);
  item(adapters ? "gradients (fp32, adapters)" : "gradients (16-bit)", m.gradients_gib);
  if (!adapters) item("master weights (fp32)", m.master_weights_gib);
  item("optimizer state (Adam, 2 x fp32)", m.optimizer_state_gib);
  item("activations", m.activations_gib);
  item("total", m.total_gib);
  out += fmt::format(
      "\ntraining needs {:.1f}x the memory of inference ({} {} at {} tokens: {:.2f} GiB); "
      "buyer's guides say 2-4x.\n\n",
      in.ratio_to_inference, in.inference_request.model.id, in.inference_request.quant.id,
      in.inference_request.context_tokens, in.inference_memory.total_gib);
  const auto gpu_name = [](const auto& f) {
    return f.count == 1 ? f.device.id : fmt::format("{}x {}", f.count, f.device.id);
  };
  size_t gpu_width = 26;  // or the longest name
  for (const auto& f : rows) gpu_width = std::max(gpu_width, gpu_name(f).size());
  out += fmt::format("{:<{}} {:>9} {:>10} {:>10} {:<6}\n", "gpu", gpu_width, "GiB/dev", "usable",
                     "headroom", "fit");
  for (const auto& f : rows) {
    out += fmt::format("{:<{}} {:>9.1f} {:>10.1f} {:>10.1f} {:<6}\n", gpu_name(f), gpu_width,
                       f.per_device_gib, f.usable_gib, f.headroom_gib, verdict_text(f.verdict));
  }
  out +=
      "\nGiB per device: several devices shard weights, gradients and optimizer state "
      "(FSDP / ZeRO-3); each keeps its own activations. Usable and headroom per device.\n"
      "Sources: mixed-precision Adam 16 bytes/parameter (Rajbhandari et al. 2020, ZeRO); "
      "activations 34 s b h per layer, 2 s b h with checkpointing (Korthikanti et al. 2022); "
      "NF4 4.5 bits, 4.127 with double quantization (Dettmers et al. 2023).\n";
  return out;
}

std::string finetune_json(const FinetuneReportInputs& in, const std::vector<FinetuneFit>& rows) {
  const auto& r = in.request;
  const auto& m = in.memory;
  ordered j;
  j["gputco"] = stamp_json(in.stamp);
  j["mode"] = "finetune-" + to_string(r.method);
  j["model"] = r.model.id;
  j["sequence_tokens"] = r.sequence_tokens;
  j["micro_batch"] = r.micro_batch;
  j["gradient_checkpointing"] = r.gradient_checkpointing;
  j["flash_attention"] = r.flash_attention;
  j["lora_rank"] = r.method == FinetuneMethod::full ? ordered(nullptr) : ordered(r.lora_rank);
  j["double_quant"] = r.double_quant;
  j["finetune"] = {{"trainable_params_b", number(m.trainable_params_b)},
                   {"weights_gib", number(m.weights_gib)},
                   {"gradients_gib", number(m.gradients_gib)},
                   {"master_weights_gib", number(m.master_weights_gib)},
                   {"optimizer_state_gib", number(m.optimizer_state_gib)},
                   {"adapters_gib", number(m.adapters_gib)},
                   {"activations_gib", number(m.activations_gib)},
                   {"states_gib", number(m.states_gib)},
                   {"total_gib", number(m.total_gib)}};
  j["inference"] = {{"quant", in.inference_request.quant.id},
                    {"context_tokens", in.inference_request.context_tokens},
                    {"total_gib", number(in.inference_memory.total_gib)}};
  j["ratio_to_inference"] = number(in.ratio_to_inference);
  j["memory"] = {{"weights_gib", number(m.states_gib)},
                 {"kv_cache_gib", 0.0},
                 {"recurrent_state_gib", 0.0},
                 {"overhead_gib", number(m.activations_gib)},
                 {"total_gib", number(m.total_gib)}};
  ordered results = ordered::array();
  for (const auto& f : rows) {
    results.push_back({{"gpu", f.device.id},
                       {"count", f.count},
                       {"per_device_gib", number(f.per_device_gib)},
                       {"usable_gib", number(f.usable_gib)},
                       {"headroom_gib", number(f.headroom_gib)},
                       {"verdict", to_string(f.verdict)}});
  }
  j["results"] = std::move(results);
  return j.dump(2) + "\n";
}

}  // namespace gputco
