// gputco throughput: what `trtllm-bench throughput` or `vllm bench serve` would measure for a
// model on a box of GPUs with an engine, at a batch, at the most memory allows, or at latency
// targets (engine/serving/serving.hpp).
#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>

#include "cli/arguments.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "cli/model_argument.hpp"
#include "cli/power_limit_argument.hpp"
#include "cli/serving_options.hpp"
#include "engine/serving/serving.hpp"
#include "pricing/visible_text.hpp"
#include "reports/throughput_report.hpp"
#include "scenarios/scenario.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

struct Options {
  std::string model_id, quant_id, gpu_id, engine, kv_cache = "f16", catalog_path;
  int count = 1, tp = 0, pp = 0, input_tokens = 0, output_tokens = 0;
  double power_limit_w = 0;
  ServingGoalOptions goal;
  bool json = false;
};

void check_range(const char* option, int value, int lo, int hi) {
  if (value < lo || value > hi) {
    throw UsageError("throughput: --" + std::string(option) + " must be between " +
                     std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
                     std::to_string(value));
  }
}

/// throughput's options, written into `o`; the usage text is the description's caption.
po::options_description throughput_options(Options& o) {
  po::options_description visible(
      "usage: gputco throughput --model ID|FILE [--quant Q] --gpu ID [--count N]\n"
      "         --engine llama.cpp|vllm|sglang|tensorrt-llm [--tp N] [--pp N]\n"
      "         --input-tokens N --output-tokens N [--kv-cache f16|fp8|q8_0|q4_0]\n"
      "         (--batch N | --max-batch | --tpot-ms MS [--ttft-ms MS] | --user-tokens-per-s R)\n"
      "         [--json]\n\n"
      "Serving throughput of a model on a box of GPUs with an engine, as `trtllm-bench\n"
      "throughput` or `vllm bench serve` would measure it: output tokens per second of the box\n"
      "and per GPU, per-user speed, time per output token and to first token, the layout\n"
      "(tensor x pipeline parallel x replicas) and what bounds it.\n\noptions");
  visible.add_options()("help,h", "this text")("model",
                                               po::value(&o.model_id)->value_name("ID|FILE"),
                                               "catalog model id, Hugging Face repository id, or "
                                               "a config.json or GGUF file (required)")(
      "quant", po::value(&o.quant_id)->value_name("Q"),
      "weight format: BF16, FP8, NVFP4, MXFP4, INT4-AWQ, or a GGUF quant for llama.cpp "
      "(required for a catalog model; a model file's own format by default)")(
      "gpu", po::value(&o.gpu_id)->value_name("ID"), "catalog device id (required)")(
      "count", po::value(&o.count)->value_name("N"), "GPUs in the box (default 1)")(
      "power-limit", po::value(&o.power_limit_w)->value_name("W"),
      "power limit per GPU in W (nvidia-smi -pl): lowers the tensor peaks by the fitted "
      "compute share; default none")("engine", po::value(&o.engine)->value_name("E"),
                                     "llama.cpp | vllm | sglang | tensorrt-llm (required)")(
      "tp", po::value(&o.tp)->value_name("N"),
      "tensor parallel GPUs per replica (default: chosen)")(
      "pp", po::value(&o.pp)->value_name("N"),
      "pipeline parallel stages per replica (default: chosen)")(
      "input-tokens", po::value(&o.input_tokens)->value_name("N"),
      "mean prompt tokens per request (required)")("output-tokens",
                                                   po::value(&o.output_tokens)->value_name("N"),
                                                   "mean generated tokens per request (required)")(
      "kv-cache", po::value(&o.kv_cache)->value_name("T"),
      "KV cache: f16 (default) | fp8 | q8_0 | q4_0 (the last two: llama.cpp)")(
      "batch", po::value(&o.goal.batch)->value_name("N"), "sequences in flight per replica")(
      "max-batch", po::bool_switch(&o.goal.max_batch), "as many sequences as memory allows");
  add_latency_options(visible, o.goal);
  visible.add_options()("json", po::bool_switch(&o.json), "print JSON")(
      "catalog", po::value(&o.catalog_path)->value_name("DB"), "catalog database file");
  return visible;
}

/// What the options ask for once checked: the engine, the KV cache type and the goal.
struct CheckedOptions {
  ServingEngine engine;
  KvCacheType kv_cache;
  ServingGoal goal;
};

/// `o` checked before the catalog is opened: the required options, every count in its range,
/// the KV cache type and one goal. Throws UsageError naming the option.
CheckedOptions check_options(const Options& o, const po::variables_map& vm) {
  if (o.model_id.empty()) {
    throw UsageError(
        "throughput: --model is required (gputco catalog list models, or the path of a "
        "config.json or GGUF file)");
  }
  if (o.gpu_id.empty())
    throw UsageError("throughput: --gpu is required (gputco catalog list gpus)");
  if (o.engine.empty()) {
    throw UsageError("throughput: --engine is required: llama.cpp, vllm, sglang or tensorrt-llm");
  }
  const ServingEngine engine = serving_engine("throughput", o.engine);
  if (!vm.count("input-tokens") || !vm.count("output-tokens")) {
    throw UsageError("throughput: --input-tokens and --output-tokens are required");
  }
  check_range("input-tokens", o.input_tokens, 1, 10'000'000);
  check_range("output-tokens", o.output_tokens, 1, 10'000'000);
  check_range("count", o.count, 1, 4096);
  if (vm.count("tp")) check_range("tp", o.tp, 1, 4096);
  if (vm.count("pp")) check_range("pp", o.pp, 1, 4096);
  const auto kv = parse_kv_cache_type(o.kv_cache);
  if (!kv) {
    throw UsageError("throughput: --kv-cache must be f16, fp8, q8_0 or q4_0, got '" + o.kv_cache +
                     "'");
  }
  const ServingGoal goal = serving_goal("throughput", o.goal, vm, true);
  check_per_token_target("throughput", goal, o.output_tokens);
  return {engine, *kv, goal};
}

/// The request, box and goal of `o` against `catalog`: the model (a catalog id, a Hugging Face
/// repository id a catalog model names, or a model file; its notes on `err`), its weights, the
/// device (UsageError for an unknown id), its power limit and the user's measured runs of the
/// model (gputco calibrate), which refit the serving model for their GPU and engine.
ThroughputQuery make_query(const Catalog& catalog, const Options& o, const CheckedOptions& checked,
                           const po::variables_map& vm, std::ostream& err) {
  ThroughputQuery q;
  const ResolvedModel model = model_argument(catalog, "throughput", o.model_id);
  const Quant quant = quant_argument(catalog, "throughput", model, o.quant_id);
  for (const auto& note : model.notes) err << "throughput: " << visible_text(note) << "\n";
  const auto device = catalog.device(o.gpu_id);
  if (!device) {
    unknown_id(
        "throughput", "gpu", o.gpu_id, catalog.devices(), [](const Device& d) { return d.id; },
        "gputco catalog list gpus");
  }
  q.request.model = model.model;
  q.request.quant = quant;
  q.request.kv_cache = checked.kv_cache;
  q.request.engine = checked.engine;
  q.request.backend = default_backend(*device);
  q.request.input_tokens = o.input_tokens;
  q.request.output_tokens = o.output_tokens;
  q.request.measured_runs = catalog.serving_runs(model.model.id);
  q.device = *device;
  if (vm.count("power-limit")) {
    q.device.power_limit_w = power_limit_argument("throughput", *device, o.power_limit_w, err);
  }
  q.count = o.count;
  q.layout = ServingLayout{o.tp, o.pp};
  q.goal = checked.goal;
  return q;
}

/// Throws EngineError when `capacity` misses the latency target: the engine's "no batch meets"
/// note (it names the layout, the box and the layouts searched) and what to relax.
void require_target_met(const ServingCapacity& capacity, const Options& o) {
  if (capacity.target_met) return;
  std::string why = capacity.notes.empty() ? "no batch meets the target" : capacity.notes.front();
  for (const auto& note : capacity.notes) {
    if (note.rfind("no batch meets", 0) == 0) why = note;
  }
  throw EngineError("throughput: " + why + "; relax the target, " +
                    (o.tp > 0 || o.pp > 0 ? "let the layout be chosen (no --tp, --pp), " : "") +
                    "or use more or faster GPUs");
}

}  // namespace

int throughput_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  const po::options_description visible = throughput_options(o);
  const auto vm = parse_arguments(args, visible, {});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  const CheckedOptions checked = check_options(o, vm);
  const Catalog catalog = open_catalog(o.catalog_path);
  const ThroughputQuery q = make_query(catalog, o, checked, vm, err);
  const ServingCapacity capacity = serving_capacity(q.request, q.device, q.count, q.layout, q.goal);
  require_target_met(capacity, o);
  out << (o.json ? throughput_json(q, capacity) : throughput_text(q, capacity));
  return 0;
}

}  // namespace gputco::cli
