#include "tests/support/serving_data.hpp"

#include <cmath>
#include <map>
#include <stdexcept>

#include "tests/support/paths.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco::test {

namespace {

using Row = std::map<std::string, std::string>;

int integer_or(const Row& r, const std::string& key, int fallback) {
  const std::string& text = r.at(key);
  return text.empty() ? fallback : std::stoi(text);
}

std::optional<double> optional_number(const Row& r, const std::string& key) {
  const auto it = r.find(key);
  if (it == r.end() || it->second.empty()) return std::nullopt;
  return std::stod(it->second);
}

ServingRow to_row(const Row& r) {
  ServingRow row;
  row.id = r.at("id");
  row.use = r.count("use") ? r.at("use") : "validation";
  row.source = r.count("source_url") ? r.at("source_url") : "";
  row.note = r.at("note");
  ServingSample& s = row.sample;
  s.id = row.id;
  const auto engine = parse_serving_engine(r.at("engine"));
  if (!engine) throw std::runtime_error(row.id + ": unknown engine " + r.at("engine"));
  s.request.engine = *engine;
  s.request.model = reference_model(r.at("model_id"));
  s.request.quant = reference_quant(r.at("quant"));
  const auto kv = parse_kv_cache_type(r.at("kv_cache"));
  if (!kv) throw std::runtime_error(row.id + ": unknown kv_cache " + r.at("kv_cache"));
  s.request.kv_cache = *kv;
  s.device = reference_device(r.at("device_id"));
  s.request.backend = default_backend(s.device);
  s.count = std::stoi(r.at("count"));
  s.layout.tp = integer_or(r, "tp", 0);
  s.layout.pp = integer_or(r, "pp", 0);
  s.request.input_tokens = integer_or(r, "input_tokens", 0);
  s.request.output_tokens = integer_or(r, "output_tokens", 0);
  row.estimable = s.request.input_tokens > 0 && s.request.output_tokens > 0;
  if (const auto share = optional_number(r, "memory_share")) s.request.memory_share = *share;
  s.request.tuned = r.count("tuned") && r.at("tuned") == "1";
  const std::string mode = r.at("mode");
  const int batch = integer_or(r, "batch", 0);
  if (mode == "max_batch") {
    s.goal.mode = ServingGoal::Mode::max_batch;
    if (batch > 0) s.request.max_batch = batch;  // the batch the source ran: the engine's cap
  } else if (mode == "batch") {
    s.goal.mode = ServingGoal::Mode::batch;
    s.goal.batch = batch;
  } else if (mode == "latency") {
    s.goal.mode = ServingGoal::Mode::latency;
    s.goal.tpot_p99_ms = optional_number(r, "tpot_ms");
    s.goal.ttft_p99_ms = optional_number(r, "ttft_ms");
    s.goal.user_tokens_per_s = optional_number(r, "user_tokens_per_s");
  } else {
    throw std::runtime_error(row.id + ": unknown mode " + mode);
  }
  s.metric = parse_serving_metric(r.at("metric"));
  s.measured = std::stod(r.at("measured"));
  return row;
}

}  // namespace

std::vector<ServingRow> serving_config_rows() {
  std::map<std::string, Row> measured;
  for (const auto& r : read_csv(source_path("tests/data/reference/serving_measured.csv"))) {
    const std::string notes = r.at("notes");
    const auto start = notes.find("id=");
    const auto end = notes.find(';', start);
    measured[notes.substr(start + 3, end - start - 3)] = r;
  }
  std::vector<ServingRow> out;
  for (const auto& r : read_csv(source_path("tests/data/reference/serving_configs.csv"))) {
    ServingRow row = to_row(r);
    const auto it = measured.find(row.id);
    if (it == measured.end()) throw std::runtime_error(row.id + ": not in serving_measured.csv");
    const bool per_gpu = row.sample.metric == ServingMetric::total_tokens_per_s_per_gpu;
    const double value = std::stod(it->second.at(per_gpu ? "per_gpu_value" : "value"));
    if (std::abs(value - row.sample.measured) > 1e-9 * std::abs(value)) {
      throw std::runtime_error(row.id + ": measured " + r.at("measured") +
                               " differs from serving_measured.csv's " + std::to_string(value));
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<ServingSample> fitted_serving_samples() {
  std::vector<ServingSample> out;
  for (const auto& row : serving_config_rows()) {
    if (row.use == "fit") out.push_back(row.sample);
  }
  return out;
}

std::vector<ServingRow> serving_validation_rows() {
  std::vector<ServingRow> out;
  const std::string path = source_path("tests/data/reference/serving_validation.csv");
  for (const auto& r : read_csv(path)) out.push_back(to_row(r));
  return out;
}

}  // namespace gputco::test
