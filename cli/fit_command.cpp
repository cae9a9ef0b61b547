// gputco fit --model ID --quant Q [--context N] [--streams N] [--gpu ID [--count N]] [--json]
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "engine/finder.hpp"
#include "reports/fit_report.hpp"
#include "scenarios/scenario.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

template <typename T, typename IdOf>
[[noreturn]] void unknown_id(const std::string& option, const std::string& id,
                             const std::vector<T>& items, IdOf id_of, const std::string& list) {
  std::vector<std::string> ids;
  for (const auto& item : items) ids.push_back(id_of(item));
  const std::string hint = nearest(id, ids);
  throw UsageError("fit: --" + option + ": unknown id '" + id + "'" +
                   (hint.empty() ? "" : "; did you mean '" + hint + "'?") + " (" + list + ")");
}

}  // namespace

int fit_command(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
  po::options_description visible(
      "usage: gputco fit --model ID --quant Q [options]\n\n"
      "Memory needed (weights + KV cache + overhead), whether it fits, and decode speed.\n"
      "Without --gpu: every catalog device, best first.\n\noptions");
  std::string model_id, quant_id, gpu_id, kv_cache = "f16", catalog_path;
  int context = 8192, streams = 1, count = 0;
  bool json = false;
  visible.add_options()("help,h", "this text")("model", po::value(&model_id)->value_name("ID"),
                                               "catalog model id (required)")(
      "quant", po::value(&quant_id)->value_name("Q"), "weight format, e.g. Q4_K_M (required)")(
      "context", po::value(&context)->value_name("N"), "context tokens per stream (default 8192)")(
      "streams", po::value(&streams)->value_name("N"), "concurrent streams (default 1)")(
      "kv-cache", po::value(&kv_cache)->value_name("T"), "KV cache type: f16 | q8_0 | q4_0")(
      "gpu", po::value(&gpu_id)->value_name("ID"), "one catalog device id")(
      "count", po::value(&count)->value_name("N"), "devices (default 1)")(
      "json", po::bool_switch(&json), "print JSON")(
      "catalog", po::value(&catalog_path)->value_name("DB"), "catalog database file");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(visible).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (model_id.empty()) throw UsageError("fit: --model is required (gputco catalog list models)");
  if (quant_id.empty()) throw UsageError("fit: --quant is required (gputco catalog list quants)");
  if (context < 1 || context > 10'000'000) {
    throw UsageError("fit: --context must be between 1 and 10000000");
  }
  if (streams < 1 || streams > 100'000)
    throw UsageError("fit: --streams must be between 1 and 100000");
  if (vm.count("count") && (count < 1 || count > 4096)) {
    throw UsageError("fit: --count must be between 1 and 4096");
  }
  const auto kv = parse_kv_cache_type(kv_cache);
  if (!kv) throw UsageError("fit: --kv-cache must be f16, q8_0 or q4_0, got '" + kv_cache + "'");

  const Catalog catalog = open_catalog(catalog_path);
  const auto model = catalog.model(model_id);
  if (!model) {
    unknown_id(
        "model", model_id, catalog.models(), [](const ModelArch& m) { return m.id; },
        "gputco catalog list models");
  }
  const auto quant = catalog.quant(quant_id);
  if (!quant) {
    unknown_id(
        "quant", quant_id, catalog.quants(), [](const Quant& q) { return q.id; },
        "gputco catalog list quants");
  }
  std::vector<Device> devices;
  if (!gpu_id.empty()) {
    const auto device = catalog.device(gpu_id);
    if (!device) {
      unknown_id(
          "gpu", gpu_id, catalog.devices(), [](const Device& d) { return d.id; },
          "gputco catalog list gpus");
    }
    devices.push_back(*device);
  } else {
    devices = catalog.devices();
  }
  const FitRequest request{*model, *quant, context, streams, *kv};
  const auto rows = rank_devices(request, devices, count > 0 ? count : 1);
  const MemoryBreakdown memory = estimate_memory(request, 1);
  out << (json ? fit_json(request, memory, rows) : fit_text(request, memory, rows));
  return 0;
}

}  // namespace gputco::cli
