#include "tests/support/reference_data.hpp"

#include <csv.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "engine/hardware/model_bytes.hpp"
#include "engine/hardware/speed.hpp"
#include "tests/support/paths.hpp"

namespace gputco::test {

namespace {

struct CsvState {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> current;
};

void on_field(void* text, std::size_t len, void* data) {
  auto* state = static_cast<CsvState*>(data);
  state->current.emplace_back(static_cast<const char*>(text), len);
}

void on_row(int /*terminator*/, void* data) {
  auto* state = static_cast<CsvState*>(data);
  state->rows.push_back(std::move(state->current));
  state->current.clear();
}

double number(const std::map<std::string, std::string>& row, const std::string& column) {
  const auto it = row.find(column);
  if (it == row.end() || it->second.empty()) return 0;
  return std::stod(it->second);
}

std::string text(const std::map<std::string, std::string>& row, const std::string& column) {
  const auto it = row.find(column);
  return it == row.end() ? std::string() : it->second;
}

const std::map<std::string, std::string>& find_row(
    const std::vector<std::map<std::string, std::string>>& rows, const std::string& column,
    const std::string& id, const std::string& file) {
  for (const auto& r : rows) {
    if (text(r, column) == id) return r;
  }
  throw std::runtime_error("no row " + id + " in " + file);
}

}  // namespace

std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_APPEND_NULL) != 0) {
    throw std::runtime_error("csv_init failed");
  }
  CsvState state;
  const bool ok = csv_parse(&parser, content.data(), content.size(), on_field, on_row, &state) ==
                      content.size() &&
                  csv_fini(&parser, on_field, on_row, &state) == 0;
  csv_free(&parser);
  if (!ok || state.rows.empty()) throw std::runtime_error("cannot parse " + path);
  const auto& header = state.rows.front();
  std::vector<std::map<std::string, std::string>> out;
  for (std::size_t i = 1; i < state.rows.size(); ++i) {
    const auto& fields = state.rows[i];
    if (fields.size() != header.size()) {
      throw std::runtime_error(path + ": row " + std::to_string(i + 1) + " has " +
                               std::to_string(fields.size()) + " fields, header has " +
                               std::to_string(header.size()));
    }
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < header.size(); ++c) row[header[c]] = fields[c];
    out.push_back(std::move(row));
  }
  return out;
}

ModelArch reference_model(const std::string& id) {
  static const auto rows = read_csv(source_path("pricing/data/models.csv"));
  const auto& r = find_row(rows, "id", id, "models.csv");
  ModelArch m;
  m.id = id;
  m.name = text(r, "name");
  m.params_b = number(r, "params_b");
  m.active_params_b = number(r, "active_params_b");
  m.layers = static_cast<int>(number(r, "layers"));
  m.hidden = static_cast<int>(number(r, "hidden"));
  m.heads = static_cast<int>(number(r, "heads"));
  m.kv_heads = static_cast<int>(number(r, "kv_heads"));
  m.head_dim = static_cast<int>(number(r, "head_dim"));
  m.experts = static_cast<int>(number(r, "experts"));
  m.experts_active = static_cast<int>(number(r, "experts_active"));
  m.swa_window = static_cast<int>(number(r, "swa_window"));
  m.swa_layers = static_cast<int>(number(r, "swa_layers"));
  m.mla_kv_lora_rank = static_cast<int>(number(r, "mla_kv_lora_rank"));
  m.mla_rope_dim = static_cast<int>(number(r, "mla_rope_dim"));
  m.max_context = static_cast<int>(number(r, "max_context"));
  m.vocab_size = static_cast<int>(number(r, "vocab_size"));
  m.tied_embeddings = text(r, "tied_embeddings") == "1";
  return m;
}

Device reference_device(const std::string& id) {
  static const auto rows = read_csv(source_path("pricing/data/devices.csv"));
  const auto& r = find_row(rows, "id", id, "devices.csv");
  Device d;
  d.id = id;
  d.name = text(r, "name");
  d.vendor = parse_vendor(text(r, "vendor")).value();
  d.kind = parse_device_kind(text(r, "kind")).value();
  d.memory_nameplate_gb = number(r, "memory_gb");
  d.memory_type = text(r, "memory_type");
  d.bandwidth_gbps = number(r, "bandwidth_gbps");
  d.board_power_w = number(r, "board_power_w");
  d.fp16_tflops = number(r, "fp16_tflops");
  d.fp8_tflops = number(r, "fp8_tflops");
  d.fp4_tflops = number(r, "fp4_tflops");
  d.nvlink_gbps = number(r, "nvlink_gbps");
  return d;
}

Quant reference_quant(const std::string& id) {
  static const auto rows = read_csv(source_path("pricing/data/quants.csv"));
  const auto& r = find_row(rows, "quant", id, "quants.csv");
  return Quant{id, number(r, "bits_per_weight"), text(r, "kind")};
}

bool MeasuredDecode::used_for_decode_fit() const {
  return count == 1 && note.find("power limited") == std::string::npos &&
         note.rfind("superseded build:", 0) == std::string::npos;
}

namespace {

std::vector<MeasuredDecode> decode_rows(const std::string& relative_path) {
  std::vector<MeasuredDecode> out;
  for (const auto& r : read_csv(source_path(relative_path))) {
    MeasuredDecode m;
    m.device_id = text(r, "device_id");
    m.count = static_cast<int>(number(r, "count"));
    m.split = text(r, "split");
    m.model_id = text(r, "model_id");
    m.quant = text(r, "quant");
    m.context_tokens = static_cast<int>(number(r, "context_tokens"));
    m.depth_tokens = static_cast<int>(number(r, "depth_tokens"));
    m.backend = parse_backend(text(r, "backend")).value();
    m.decode_tokens_per_s = number(r, "measured_decode_tokens_per_s");
    m.prefill_tokens_per_s = number(r, "measured_prefill_tokens_per_s");
    m.source = text(r, "source");
    m.note = text(r, "note");
    out.push_back(m);
  }
  return out;
}

}  // namespace

std::vector<MeasuredDecode> measured_decode_rows() {
  return decode_rows("tests/data/reference/decode_measured.csv");
}

std::vector<MeasuredDecode> validation_decode_rows() {
  return decode_rows("tests/data/reference/decode_validation.csv");
}

namespace {

SpeedRequest speed_request(const MeasuredDecode& row) {
  SpeedRequest req;
  req.fit.model = reference_model(row.model_id);
  req.fit.quant = reference_quant(row.quant);
  req.fit.context_tokens = std::max(row.mean_context_tokens(), 1);
  req.device_count = row.count;
  req.split = row.split == "tensor" ? SplitMode::tensor : SplitMode::layer;
  req.backend = row.backend;
  return req;
}

}  // namespace

double estimated_decode_tokens_per_s(const MeasuredDecode& row) {
  return estimate_speed(speed_request(row), reference_device(row.device_id)).decode_tokens_per_s;
}

DecodeSample decode_sample(const MeasuredDecode& row) {
  const SpeedRequest req = speed_request(row);
  const double bytes = weights_read_per_step_bytes(req.fit.model, req.fit.quant, 1) +
                       kv_cache_read_bytes(req.fit.model, req.fit.kv_cache, req.fit.context_tokens);
  const Device device = reference_device(row.device_id);
  const ModelArch& m = req.fit.model;
  DecodeSample s;
  s.bytes_per_token = bytes;
  s.bandwidth_gbps = device.bandwidth_gbps;
  s.hbm = is_hbm(device);
  s.dense_layers = m.is_moe() ? 0 : m.layers;
  s.moe_layers = m.is_moe() ? m.layers : 0;
  s.measured_tokens_per_s = row.decode_tokens_per_s;
  return s;
}

std::vector<DecodeSample> fitted_decode_samples(Backend backend) {
  std::vector<DecodeSample> samples;
  for (const auto& row : measured_decode_rows()) {
    if (row.backend == backend && row.used_for_decode_fit()) samples.push_back(decode_sample(row));
  }
  return samples;
}

DecodeFit refit_decode(Backend backend) {
  return fit_decode_constants(fitted_decode_samples(backend), decode_constants(Backend::cuda));
}

double loo_decode_mape(Backend backend) {
  return decode_loo_mape(fitted_decode_samples(backend), decode_constants(Backend::cuda));
}

double refit_split_boundary_s(Backend backend) {
  std::vector<SplitSample> samples;
  for (const auto& row : measured_decode_rows()) {
    if (row.count < 2 || row.split != "layer" || row.backend != backend) continue;
    const double t = decode_step_s(decode_constants(row.backend), decode_sample(row));
    samples.push_back({t, row.count - 1, row.decode_tokens_per_s});
  }
  return fit_split_boundary_s(samples);
}

std::vector<GgufSize> gguf_sizes() {
  std::vector<GgufSize> out;
  for (const auto& r : read_csv(source_path("tests/data/reference/gguf_sizes.csv"))) {
    out.push_back(
        {text(r, "model_id"), text(r, "quant"), number(r, "file_gib"), text(r, "source")});
  }
  return out;
}

}  // namespace gputco::test
