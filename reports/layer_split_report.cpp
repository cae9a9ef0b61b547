#include "reports/layer_split_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "engine/hardware/power_limit.hpp"
#include "reports/json_values.hpp"
#include "reports/text_report.hpp"

namespace gputco {

namespace {

using json_values::number;
using json_values::ordered;

std::string layers_text(const GpuShare& g) {
  std::string out = g.layers == 0 ? std::string("-")
                    : g.layers == 1
                        ? fmt::format("{}", g.first_layer)
                        : fmt::format("{}-{}", g.first_layer, g.first_layer + g.layers - 1);
  if (g.output_layer) out += " + output";
  return out;
}

std::string price_text(const std::optional<Price>& p) {
  if (!p) return "-";
  return grouped_money_text(p->amount) + " " + p->currency;
}

ordered price_json(const std::optional<Price>& p) {
  if (!p) return nullptr;
  return {{"amount", number(p->amount)}, {"currency", p->currency}};
}

bool holds(Verdict v) {
  return v != Verdict::does_not_fit;
}

}  // namespace

std::string layer_split_text(const LayerSplitReport& r) {
  const FitRequest& q = r.request;
  const LayerSplitFit& f = r.fit;
  std::vector<Device> devices;
  for (const GpuShare& g : f.gpus) devices.push_back(g.device);
  std::string out = fmt::format(
      "{} {}, {} tokens x {} stream(s), KV cache {}, layer split over {}, backend {}{}\n",
      q.model.id, q.quant.id, q.context_tokens, q.concurrent_streams, to_string(q.kv_cache),
      box_text(devices), to_string(r.backend),
      r.prompt_tokens > 0 ? fmt::format(", prompt {} tokens", r.prompt_tokens) : "");
  std::string split;
  for (double w : f.proportions) split += fmt::format("{}{:.3f}", split.empty() ? "" : ", ", w);
  out += fmt::format("split: {} ({})\n\n", split,
                     f.proportions_given ? "--tensor-split" : "llama.cpp's default: free memory");
  // The gpu column: 22 wide, or the longest "index device-id" (a user's own device may be longer).
  size_t gpu_width = 22;
  for (size_t i = 0; i < f.gpus.size(); ++i) {
    gpu_width = std::max(gpu_width, fmt::format("{} {}", i, f.gpus[i].device.id).size());
  }
  const auto line = [&](const std::string& gpu, const std::string& layers, const std::string& w,
                        const std::string& kv, const std::string& compute,
                        const std::string& vision, const std::string& total,
                        const std::string& usable, const std::string& headroom,
                        const std::string& fit) {
    std::string l =
        fmt::format("{:<{}} {:<14} {:>8} {:>8} {:>8} {:>7} {:>7} {:>7} {:>9} {}", gpu, gpu_width,
                    layers, w, kv, compute, vision, total, usable, headroom, fit);
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + "\n";
  };
  const auto gib = [](double x) { return fmt::format("{:.2f}", x); };
  out += line("gpu", "layers", "weights", "KV cache", "compute", "vision", "total", "usable",
              "headroom", "fit");
  for (std::size_t i = 0; i < f.gpus.size(); ++i) {
    const GpuShare& g = f.gpus[i];
    const double kv = g.kv_cache_gib + g.recurrent_state_gib;
    out += line(fmt::format("{} {}", i, g.device.id), layers_text(g), gib(g.weights_gib), gib(kv),
                gib(g.compute_buffer_gib), gib(g.projector_gib), gib(g.total_gib),
                gib(g.usable_gib), gib(g.headroom_gib), to_string(g.verdict));
  }
  out += line("box", "", "", "", "", "", gib(f.total_gib), gib(f.usable_gib),
              gib(f.usable_gib - f.total_gib), to_string(f.verdict));
  out +=
      "memory in GiB per GPU; KV cache includes any recurrent state; vision: the projector and "
      "its image buffer (first GPU).\n";
  if (f.host_embedding_gib > 0) {
    out += fmt::format(
        "host RAM: token embedding {:.2f} GiB (llama.cpp keeps the input layer on the CPU)\n",
        f.host_embedding_gib);
  }
  out += "\n";
  if (holds(f.verdict)) {
    out += fmt::format(
        "decode {:.1f} tokens/s per stream ({:.1f} all streams): the GPUs take turns, "
        "each streams its own layers at its own bandwidth\n",
        r.speed.decode_tokens_per_s, r.speed.aggregate_tokens_per_s);
    if (r.speed.prefill_tokens_per_s > 0) {
      out += fmt::format("prefill {:.0f} tokens/s", r.speed.prefill_tokens_per_s);
      if (r.prompt_tokens > 0) {
        out += fmt::format(", time to first token {:.2f} s", r.speed.time_to_first_token_s);
      }
      out += "\n";
    }
  } else {
    out +=
        "decode: - (a GPU cannot hold its layers: give --tensor-split, fewer layers to the full "
        "one, or a smaller quant or context)\n";
  }
  out += fmt::format(
      "power at load {} (the cards; a host adds ~150 W), price new {}, used {}\n",
      r.power_at_load_w > 0 ? fmt::format("{:.0f} W", r.power_at_load_w) : std::string("unknown"),
      price_text(r.price_new), price_text(r.price_used));
  for (const GpuShare& g : f.gpus) {
    const Device& d = g.device;
    if (d.power_limit_w > 0 && d.power_limit_w < d.board_power_w) {
      out +=
          fmt::format("{}: power limit {:g} W of its {:g} W board power (compute share {:.2f})\n",
                      d.id, d.power_limit_w, d.board_power_w, power_limit_effect(d).compute_share);
    }
  }
  if (!r.speed.note.empty()) out += "note: " + r.speed.note + "\n";
  return out;
}

std::string layer_split_json(const LayerSplitReport& r) {
  const FitRequest& q = r.request;
  const LayerSplitFit& f = r.fit;
  std::vector<Device> devices;
  for (const GpuShare& g : f.gpus) devices.push_back(g.device);
  const bool fits = holds(f.verdict);
  ordered j;
  j["gputco"] = stamp_json(r.stamp);
  j["mode"] = "inference";
  j["model"] = q.model.id;
  j["quant"] = q.quant.id;
  j["context_tokens"] = q.context_tokens;
  j["concurrent_streams"] = q.concurrent_streams;
  j["kv_cache"] = to_string(q.kv_cache);
  j["split"] = "layer";
  j["box"] = box_text(devices);
  if (r.tensor_split.empty()) {
    j["tensor_split"] = nullptr;
  } else {
    ordered ts = ordered::array();
    for (double w : r.tensor_split) ts.push_back(number(w));
    j["tensor_split"] = std::move(ts);
  }
  j["backend"] = to_string(r.backend);
  ordered gpus = ordered::array();
  for (const GpuShare& g : f.gpus) {
    ordered o;
    o["gpu"] = g.device.id;
    o["first_layer"] = g.first_layer;
    o["layers"] = g.layers;
    o["output_layer"] = g.output_layer;
    o["weights_gib"] = number(g.weights_gib);
    o["kv_cache_gib"] = number(g.kv_cache_gib);
    o["recurrent_state_gib"] = number(g.recurrent_state_gib);
    o["compute_buffer_gib"] = number(g.compute_buffer_gib);
    o["projector_gib"] = number(g.projector_gib);
    o["total_gib"] = number(g.total_gib);
    o["usable_gib"] = number(g.usable_gib);
    o["headroom_gib"] = number(g.headroom_gib);
    o["verdict"] = to_string(g.verdict);
    o["bandwidth_gbps"] = number(g.device.bandwidth_gbps);
    o["power_limit_w"] =
        g.device.power_limit_w > 0 ? number(g.device.power_limit_w) : ordered(nullptr);
    o["load_power_w"] = number(load_power_w(g.device));
    gpus.push_back(std::move(o));
  }
  j["gpus"] = std::move(gpus);
  j["host_embedding_gib"] = number(f.host_embedding_gib);
  j["total_gib"] = number(f.total_gib);
  j["usable_gib"] = number(f.usable_gib);
  j["verdict"] = to_string(f.verdict);
  j["decode_tokens_per_s"] = fits ? number(r.speed.decode_tokens_per_s) : ordered(nullptr);
  j["aggregate_tokens_per_s"] = fits ? number(r.speed.aggregate_tokens_per_s) : ordered(nullptr);
  j["prefill_tokens_per_s"] = fits && r.speed.prefill_tokens_per_s > 0
                                  ? number(r.speed.prefill_tokens_per_s)
                                  : ordered(nullptr);
  j["time_to_first_token_s"] = fits && r.prompt_tokens > 0 && r.speed.time_to_first_token_s > 0
                                   ? number(r.speed.time_to_first_token_s)
                                   : ordered(nullptr);
  j["bytes_per_token_gb"] = number(r.speed.bytes_per_token_gb);
  j["power_at_load_w"] = r.power_at_load_w > 0 ? number(r.power_at_load_w) : ordered(nullptr);
  j["price_new"] = price_json(r.price_new);
  j["price_used"] = price_json(r.price_used);
  j["note"] = r.speed.note;
  return j.dump(2) + "\n";
}

}  // namespace gputco
