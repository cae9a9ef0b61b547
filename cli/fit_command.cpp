// gputco fit --model ID [--quant Q] [options]: memory, fit and speed of one model on one device,
// on every catalog device (the GPU finder), on two devices side by side (--compare A B), or
// the memory of fine-tuning it (--mode finetune-*).
#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/arguments.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "cli/model_argument.hpp"
#include "cli/power_limit_argument.hpp"
#include "cli/serving_options.hpp"
#include "engine/base/parallel.hpp"
#include "engine/hardware/finder.hpp"
#include "engine/hardware/finetune.hpp"
#include "engine/hardware/layer_split.hpp"
#include "engine/hardware/power_limit.hpp"
#include "pricing/suggest.hpp"
#include "pricing/visible_text.hpp"
#include "reports/fit_report.hpp"
#include "reports/layer_split_report.hpp"
#include "reports/serving_finder_report.hpp"
#include "scenarios/dates.hpp"
#include "scenarios/gpu_list.hpp"
#include "scenarios/mmproj_file.hpp"
#include "scenarios/model_files.hpp"
#include "scenarios/scenario.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

/// "Every observation": later than any catalog date.
constexpr const char* kLatest = "2999-12-31";

Device find_device(const Catalog& catalog, const std::string& option, const std::string& id) {
  const auto device = catalog.device(id);
  if (!device) {
    unknown_id(
        "fit", option, id, catalog.devices(), [](const Device& d) { return d.id; },
        "gputco catalog list gpus");
  }
  return *device;
}

DeviceOffer offer_of(const Catalog& catalog, const Device& device, const std::string& as_of) {
  DeviceOffer offer{device, std::nullopt, std::nullopt};
  if (const auto p = catalog.latest_price(device.id, "new", as_of)) {
    offer.new_price = Price{p->amount, p->currency};
  }
  if (const auto p = catalog.latest_price(device.id, "used", as_of)) {
    offer.used_price = Price{p->amount, p->currency};
  }
  return offer;
}

/// A catalog system as the finder prices it: its device's unit prices, and the system's own
/// whole-system or host-only prices (Catalog::latest_system_price) as of `as_of`. nullopt when
/// the catalog lacks the system's device.
std::optional<SystemOffer> system_offer_of(const Catalog& catalog, const System& system,
                                           const std::string& as_of) {
  const auto device = catalog.device(system.device_id);
  if (!device) return std::nullopt;
  SystemOffer s;
  s.id = system.id;
  s.name = system.name;
  s.device = offer_of(catalog, *device, as_of);
  // The system's NVLink domain: a tensor split larger than it goes over PCIe.
  s.device.device.nvlink_domain_gpus = system.nvlink_domain_gpus;
  s.count = system.device_count;
  for (const char* condition : {"new", "used"}) {
    const auto p = catalog.latest_system_price(system.id, condition, as_of);
    if (!p) continue;
    const Price price{p->amount, p->currency};
    const bool fresh = std::string(condition) == "new";
    if (p->includes_devices) {
      (fresh ? s.whole_new : s.whole_used) = price;
    } else {
      (fresh ? s.host_new : s.host_used) = price;
    }
  }
  return s;
}

/// The speed index's 100: the catalog's RTX 3090, or its spec-sheet figures (24 GB GDDR6X,
/// 936 GB/s, 350 W, 71 FP16 TFLOPS; DOMAIN E1) when a custom catalog lacks it.
Device speed_reference(const Catalog& catalog) {
  if (auto d = catalog.device("rtx-3090")) return *d;
  Device d;
  d.id = "rtx-3090";
  d.name = "GeForce RTX 3090";
  d.vendor = Vendor::nvidia;
  d.kind = DeviceKind::consumer;
  d.memory_nameplate_gb = 24;
  d.memory_type = "GDDR6X";
  d.bandwidth_gbps = 936;
  d.board_power_w = 350;
  d.fp16_tflops = 71;
  return d;
}

/// The tier probe of the buyer's guides: every catalog model at Q4_K_M (4.89 bits when a
/// custom catalog lacks it), 8K context.
TierProbe tier_probe(const Catalog& catalog) {
  TierProbe probe;
  probe.models = catalog.models();
  probe.quant = catalog.quant("Q4_K_M").value_or(Quant{"Q4_K_M", 4.89, "mix"});
  probe.context_tokens = 8192;
  return probe;
}

struct Options {
  std::string model_id, quant_id, gpu_id, kv_cache = "f16", catalog_path, gpus, tensor_split;
  std::string mmproj;
  bool no_mmproj = false;
  std::string cache_type_k, cache_type_v;
  std::string split = "layer", backend, mode = "inference", as_of, engine;
  int input_tokens = 1000, output_tokens = 1000;
  ServingGoalOptions goal;
  std::vector<std::string> compare;
  int context = 8192, streams = 1, count = 0, prompt_tokens = 0;
  int lora_rank = 16, micro_batch = 1;
  double power_limit_w = 0;
  bool json = false, multi = false, no_checkpointing = false, double_quant = false;
  bool context_given = false;
};

void check_range(const char* option, int value, int lo, int hi) {
  if (value < lo || value > hi) {
    throw UsageError("fit: --" + std::string(option) + " must be between " + std::to_string(lo) +
                     " and " + std::to_string(hi) + ", got " + std::to_string(value));
  }
}

int run_finetune(const Options& o, FinetuneMethod method, const Catalog& catalog,
                 const ModelArch& model, std::ostream& out) {
  FinetuneRequest request;
  request.model = model;
  request.method = method;
  request.sequence_tokens = o.context_given ? o.context : 2048;
  request.micro_batch = o.micro_batch;
  request.gradient_checkpointing = !o.no_checkpointing;
  request.lora_rank = o.lora_rank;
  request.double_quant = o.double_quant;
  FinetuneReportInputs in;
  in.stamp = json_stamp(catalog);
  in.request = request;
  in.memory = estimate_finetune_memory(request);
  // The inference baseline: --quant, else 16-bit for full and LoRA (the precision trained),
  // 4-bit Q4_0 (4.5 bits, like NF4) for QLoRA.
  const std::string baseline = !o.quant_id.empty()               ? o.quant_id
                               : method == FinetuneMethod::qlora ? "Q4_0"
                                                                 : "F16";
  in.inference_request = FitRequest{model, quant_argument(catalog, "fit", baseline),
                                    request.sequence_tokens, 1, KvCacheType::f16};
  in.inference_memory = estimate_memory(in.inference_request, 1);
  in.ratio_to_inference = training_to_inference_ratio(in.memory, in.inference_memory);
  std::vector<Device> devices;
  if (!o.gpu_id.empty()) {
    devices.push_back(find_device(catalog, "gpu", o.gpu_id));
  } else {
    devices = catalog.devices();
  }
  const int count = o.count > 0 ? o.count : (o.gpu_id.empty() ? 0 : 1);
  const auto rows = rank_finetune(in.memory, devices, count);
  out << (o.json ? finetune_json(in, rows) : finetune_text(in, rows));
  return 0;
}

/// The serving finder (--engine without --gpu): every catalog device the engine runs the
/// request on, ranked by the cost of a million output tokens at the goal.
int run_serving_finder(const Options& o, const po::variables_map& vm, const Catalog& catalog,
                       const ModelArch& model, const Quant& quant, const KvCacheTypes& kv,
                       std::ostream& out) {
  if (!o.gpu_id.empty() || vm.count("compare")) {
    throw UsageError(
        "fit: --engine ranks every device (the finder); for one device use gputco throughput");
  }
  check_range("input-tokens", o.input_tokens, 1, 10'000'000);
  check_range("output-tokens", o.output_tokens, 1, 10'000'000);
  ServingRequest request;
  request.model = model;
  request.quant = quant;
  request.engine = serving_engine("fit", o.engine);
  if (kv.k != kv.v) {
    throw UsageError(
        "fit: a serving engine keeps K and V in one type: give --kv-cache, not "
        "--cache-type-k and --cache-type-v apart");
  }
  request.kv_cache = kv.k;
  request.input_tokens = o.input_tokens;
  request.output_tokens = o.output_tokens;
  // The user's measured runs (gputco calibrate) refit the model for their GPUs and engine.
  request.measured_runs = catalog.serving_runs(model.id);
  if (const std::string why = context_beyond_model_reason(model, o.input_tokens + o.output_tokens);
      !why.empty()) {
    throw UsageError("fit: --input-tokens + --output-tokens: " + why);
  }
  const ServingGoal goal = serving_goal("fit", o.goal, vm, false);
  check_per_token_target("fit", goal, o.output_tokens);
  // Rates as a plan takes them (issue 38): by price basis, fresh before cheap, as of --as-of or,
  // without it, the catalog's newest observation (no clock: same input, same output).
  ServingPrices prices;
  prices.as_of_given = !o.as_of.empty();
  prices.as_of = prices.as_of_given ? o.as_of : catalog.data_date();
  if (prices.as_of.empty()) prices.as_of = kLatest;  // a catalog without observations
  PriceBasis basis;
  basis.as_of = prices.as_of;
  basis.max_age_days = prices.max_age_days;
  std::vector<ServingOffer> offers;
  for (const auto& device : catalog.devices()) {
    offers.push_back(serving_offer(catalog, device, basis));
  }
  const auto rows = rank_serving(request, offers, goal, default_thread_count());
  // A refusal that is the same for every device is the request's (GGUF on vLLM, a q4_0 KV
  // cache on SGLang), not a device's: one error, exit 2, as throughput gives, instead of an
  // empty table above a hundred copies of the sentence.
  if (!rows.empty() && std::all_of(rows.begin(), rows.end(), [&](const ServingFinderRow& row) {
        return !row.refusal.empty() && row.refusal == rows.front().refusal;
      })) {
    throw UsageError("fit: " + rows.front().refusal);
  }
  out << (o.json ? serving_finder_json(request, goal, rows, prices)
                 : serving_finder_text(request, goal, rows, prices));
  return 0;
}

/// The box of --gpus: its devices in order, each card a copy of its catalog device.
std::vector<Device> box_of(const Catalog& catalog, const std::string& list) {
  std::vector<GpuListEntry> entries;
  try {
    entries = parse_gpu_list(list);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("fit: --gpus: ") + e.what());
  }
  std::vector<Device> box;
  for (const GpuListEntry& e : entries) {
    const Device device = find_device(catalog, "gpus", e.id);
    for (int i = 0; i < e.count; ++i) box.push_back(device);
  }
  return box;
}

/// The box's price in one condition: the sum of its cards' latest prices, when every card has
/// one in the same currency.
std::optional<Price> box_price(const Catalog& catalog, const std::vector<Device>& box,
                               const std::string& condition, const std::string& as_of) {
  Price total{0, ""};
  for (const Device& d : box) {
    const auto p = catalog.latest_price(d.id, condition, as_of);
    if (!p || (!total.currency.empty() && total.currency != p->currency)) return std::nullopt;
    total.amount += p->amount;
    total.currency = p->currency;
  }
  return total;
}

/// fit --gpus: the request on a box of (unequal) GPUs in a layer split.
int run_box(const Options& o, const po::variables_map& vm, const Catalog& catalog,
            const FitRequest& request, std::optional<Backend> backend, std::ostream& out) {
  if (!o.gpu_id.empty() || vm.count("compare") || vm.count("count") || vm.count("power-limit") ||
      o.multi) {
    throw UsageError(
        "fit: --gpus describes the whole box: not with --gpu, --count, --compare, "
        "--multi or --power-limit");
  }
  if (o.split != "layer") throw UsageError("fit: --gpus is a layer split (--split layer)");
  LayerSplitReport r;
  const std::vector<Device> box = box_of(catalog, o.gpus);
  if (vm.count("tensor-split")) {
    try {
      r.tensor_split = parse_tensor_split(o.tensor_split);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("fit: --tensor-split: ") + e.what());
    }
    if (r.tensor_split.size() != box.size()) {
      throw UsageError("fit: --tensor-split has " + std::to_string(r.tensor_split.size()) +
                       " weights for the " + std::to_string(box.size()) +
                       " GPUs of --gpus: give one per GPU, in the box's order");
    }
    double sum = 0;
    for (double w : r.tensor_split) sum += w;
    if (!(sum > 0)) throw UsageError("fit: --tensor-split: the weights must not all be 0");
  }
  // One backend for the box: the given one, else the first card's, which every card must run.
  r.backend = backend.value_or(default_backend(box.front()));
  for (const Device& d : box) {
    if (const std::string why = backend_unsupported_reason(r.backend, d); !why.empty()) {
      throw UsageError("fit: --gpus: " + why + " (mixing vendors: --backend vulkan)");
    }
  }
  r.request = request;
  r.prompt_tokens = o.prompt_tokens;
  r.fit = fit_layer_split(request, box, r.tensor_split);
  SpeedRequest speed;
  speed.fit = request;
  speed.backend = r.backend;
  speed.prompt_tokens = o.prompt_tokens;
  r.speed = estimate_layer_split_speed(speed, r.fit);
  for (const Device& d : box) {
    if (!(load_power_w(d) > 0)) {
      r.power_at_load_w = 0;
      break;
    }
    r.power_at_load_w += load_power_w(d);
  }
  const std::string as_of = o.as_of.empty() ? kLatest : o.as_of;
  r.price_new = box_price(catalog, box, "new", as_of);
  r.price_used = box_price(catalog, box, "used", as_of);
  r.stamp = json_stamp(catalog);
  out << (o.json ? layer_split_json(r) : layer_split_text(r));
  return 0;
}

}  // namespace

int fit_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description visible(
      "usage: gputco fit --model ID --quant Q [options]\n"
      "       gputco fit --model ID --quant Q --compare GPU_A GPU_B [options]\n"
      "       gputco fit --model ID --mode finetune-full|finetune-lora|finetune-qlora "
      "[options]\n\n"
      "Memory needed (weights + KV cache + overhead), whether it fits, and decode speed.\n"
      "Without --gpu: the GPU finder, every catalog device (and the smallest multi-card system\n"
      "of a device one card of which does not hold the model) and every catalog system\n"
      "(servers, rigs), best first, with prices, a speed index (RTX 3090 = 100) and the tier\n"
      "each system serves.\n\noptions");
  Options o;
  visible.add_options()("help,h", "this text")(
      "model", po::value(&o.model_id)->value_name("ID|PATH"),
      "catalog model id, its Hugging Face repo id, or a config.json / GGUF file (required)")(
      "quant", po::value(&o.quant_id)->value_name("Q"),
      "weight format, e.g. Q4_K_M (required for a catalog model; a model file's own format "
      "by default; fine-tuning: the inference baseline, default F16, Q4_0 for QLoRA)")(
      "context", po::value(&o.context)->value_name("N"),
      "context tokens per stream (default 8192); fine-tuning: tokens per training sequence "
      "(default 2048)")("streams", po::value(&o.streams)->value_name("N"),
                        "concurrent streams (default 1)")(
      "kv-cache", po::value(&o.kv_cache)->value_name("T"),
      "KV cache type of K and V: f16 (default), q8_0, q4_0, ... (see --cache-type-k)")(
      "cache-type-k", po::value(&o.cache_type_k)->value_name("T"),
      "K cache type apart (llama.cpp -ctk): f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, "
      "q5_1")("cache-type-v", po::value(&o.cache_type_v)->value_name("T"),
              "V cache type apart (llama.cpp -ctv)")(
      "split", po::value(&o.split)->value_name("S"),
      "several devices: layer (pipeline, default) | tensor (tensor parallel)")(
      "backend", po::value(&o.backend)->value_name("B"),
      "cuda | metal | rocm | vulkan | sycl (default: from each device's vendor)")(
      "prompt-tokens", po::value(&o.prompt_tokens)->value_name("N"),
      "prompt length: report prefill time (time to first token)")(
      "gpu", po::value(&o.gpu_id)->value_name("ID"), "one catalog device id")(
      "gpus", po::value(&o.gpus)->value_name("LIST"),
      "a box of unequal GPUs in llama.cpp's layer split, e.g. '2 x tesla-m40, 1 x t4': each "
      "GPU's layers and memory, the box's speed")(
      "tensor-split", po::value(&o.tensor_split)->value_name("W,W,..."),
      "--gpus: llama.cpp's --tensor-split, one weight per GPU (default: by free memory)")(
      "count", po::value(&o.count)->value_name("N"), "devices per system (default 1)")(
      "power-limit", po::value(&o.power_limit_w)->value_name("W"),
      "--gpu's power limit per card in W (nvidia-smi -pl): decode's fixed cost and prefill run "
      "at the fitted compute share; default none")(
      "mmproj", po::value(&o.mmproj)->value_name("FILE"),
      "a multimodal projector GGUF (llama.cpp --mmproj): its weights and image buffer on the "
      "first GPU")("no-mmproj", po::bool_switch(&o.no_mmproj),
                   "leave out the vision tower a config.json describes (text only)")(
      "compare", po::value(&o.compare)->multitoken()->value_name("A B"),
      "two device ids side by side, with a one-line verdict")(
      "multi", po::bool_switch(&o.multi), "finder: list 2x, 4x and 8x systems of every device")(
      "as-of", po::value(&o.as_of)->value_name("DATE"),
      "prices: latest observation on or before YYYY-MM-DD (default: all; --engine: the "
      "catalog's newest observation, and a rate older than 90 days only when no fresher one)")(
      "mode", po::value(&o.mode)->value_name("M"),
      "inference (default) | finetune-full | finetune-lora | finetune-qlora")(
      "lora-rank", po::value(&o.lora_rank)->value_name("R"), "LoRA / QLoRA rank (default 16)")(
      "micro-batch", po::value(&o.micro_batch)->value_name("N"),
      "fine-tuning: sequences per device per step (default 1)")(
      "no-checkpointing", po::bool_switch(&o.no_checkpointing),
      "fine-tuning: keep every layer's activations (no gradient checkpointing)")(
      "double-quant", po::bool_switch(&o.double_quant),
      "QLoRA: double quantization (4.127 instead of 4.5 bits per weight)")(
      "json", po::bool_switch(&o.json), "print JSON")(
      "catalog", po::value(&o.catalog_path)->value_name("DB"), kCatalogOptionHelp)(
      "engine", po::value(&o.engine)->value_name("E"),
      "finder for a serving engine: llama.cpp | vllm | sglang | tensorrt-llm; ranks devices by "
      "the cost of a million tokens at the goal (needs no --gpu)")(
      "input-tokens", po::value(&o.input_tokens)->value_name("N"),
      "--engine: mean prompt tokens per request (default 1000)")(
      "output-tokens", po::value(&o.output_tokens)->value_name("N"),
      "--engine: mean generated tokens per request (default 1000)");
  add_latency_options(visible, o.goal);
  const auto vm = parse_arguments(args, visible, {});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }

  o.context_given = vm.count("context") > 0;
  const bool finetune = o.mode.rfind("finetune-", 0) == 0;
  std::optional<FinetuneMethod> method;
  if (finetune) method = parse_finetune_method(o.mode.substr(9));
  if (o.mode != "inference" && !method) {
    throw UsageError(
        "fit: --mode must be inference, finetune-full, finetune-lora or finetune-qlora, got '" +
        o.mode + "'");
  }
  if (o.model_id.empty()) throw UsageError("fit: --model is required (gputco catalog list models)");
  check_range("context", o.context, 1, 10'000'000);
  check_range("streams", o.streams, 1, 100'000);
  if (vm.count("count")) check_range("count", o.count, 1, 4096);
  check_range("prompt-tokens", o.prompt_tokens, 0, 10'000'000);
  check_range("lora-rank", o.lora_rank, 1, 65'536);
  check_range("micro-batch", o.micro_batch, 1, 65'536);
  const auto cache_type = [&](const char* option, const std::string& text) {
    const auto type = parse_kv_cache_type(text);
    if (!type) {
      throw UsageError("fit: --" + std::string(option) + " must be one of " + kv_cache_type_list() +
                       ", got '" + text + "'");
    }
    return *type;
  };
  const KvCacheType both = cache_type("kv-cache", o.kv_cache);
  const KvCacheTypes kv{
      vm.count("cache-type-k") ? cache_type("cache-type-k", o.cache_type_k) : both,
      vm.count("cache-type-v") ? cache_type("cache-type-v", o.cache_type_v) : both};
  if (o.engine.empty() && (kv.k == KvCacheType::fp8 || kv.v == KvCacheType::fp8)) {
    throw UsageError(
        "fit: an fp8 KV cache is a serving engine's (fp8 with --engine); llama.cpp has none");
  }
  const bool latency = vm.count("tpot-ms") || vm.count("ttft-ms") || vm.count("user-tokens-per-s");
  if (o.engine.empty() && (latency || vm.count("input-tokens") || vm.count("output-tokens"))) {
    throw UsageError(
        "fit: --tpot-ms, --ttft-ms, --user-tokens-per-s, --input-tokens and --output-tokens "
        "need --engine");
  }
  const auto split = parse_split_mode(o.split);
  if (!split) throw UsageError("fit: --split must be layer or tensor, got '" + o.split + "'");
  std::optional<Backend> backend;
  if (vm.count("backend")) {
    backend = parse_backend(o.backend);
    if (!backend) {
      throw UsageError("fit: --backend must be cuda, metal, rocm, vulkan or sycl, got '" +
                       o.backend + "'");
    }
  }
  if (vm.count("gpus") && (!o.engine.empty() || finetune)) {
    throw UsageError(
        "fit: --gpus is for llama.cpp inference (not with --engine or --mode finetune-*)");
  }
  if (vm.count("power-limit") && (o.gpu_id.empty() || !o.engine.empty() || finetune)) {
    throw UsageError(
        "fit: --power-limit needs --gpu (a limit in W is one card's), for inference without "
        "--engine");
  }
  if (vm.count("as-of") && !parse_date(o.as_of)) {
    throw UsageError("fit: --as-of expects YYYY-MM-DD, got '" + o.as_of + "'");
  }
  if (vm.count("compare")) {
    if (o.compare.size() != 2) {
      throw UsageError("fit: --compare takes exactly two device ids, got " +
                       std::to_string(o.compare.size()));
    }
    if (!o.gpu_id.empty()) throw UsageError("fit: --compare and --gpu exclude each other");
    if (finetune) throw UsageError("fit: --compare is for inference (--mode inference)");
  }

  const Catalog catalog = open_catalog(o.catalog_path);
  const ResolvedModel resolved = model_argument(catalog, "fit", o.model_id);
  for (const std::string& note : resolved.notes)
    err << "note: " << visible_text(resolved.source + ": " + note) << "\n";
  if (!o.mmproj.empty() && o.no_mmproj) {
    throw UsageError("fit: --mmproj and --no-mmproj exclude each other");
  }
  ModelArch with_vision = resolved.model;
  if (o.no_mmproj) with_vision.vision.reset();
  if (!o.mmproj.empty()) with_vision.vision = read_mmproj_file(o.mmproj);
  const ModelArch* model = &with_vision;
  if (!finetune && o.quant_id.empty() && !resolved.native_quant) {
    throw UsageError("fit: --quant is required (gputco catalog list quants)");
  }
  // The default context is capped at the model's own; a context given is checked.
  if (!o.context_given) o.context = default_context_tokens(*model, o.context);
  if (const std::string why = context_beyond_model_reason(*model, o.context); !why.empty()) {
    throw UsageError("fit: --context " + why);
  }
  if (const std::string warning = context_scaling_warning(*model, o.context); !warning.empty()) {
    err << "warning: " << visible_text(warning) << "\n";
  }
  if (o.prompt_tokens > o.context) {
    throw UsageError("fit: --prompt-tokens " + std::to_string(o.prompt_tokens) +
                     " does not fit in the context of " + std::to_string(o.context) +
                     " tokens (raise --context)");
  }
  // A backend given runs on its vendor's devices only: check the devices named, and list
  // only the devices it runs on.
  const auto runs_on = [&](const Device& device) {
    return !backend || backend_unsupported_reason(*backend, device).empty();
  };
  const auto check_backend = [&](const Device& device) {
    if (!runs_on(device)) {
      throw UsageError("fit: --backend " + o.backend + ": " +
                       backend_unsupported_reason(*backend, device));
    }
    return device;
  };
  if (finetune) return run_finetune(o, *method, catalog, *model, out);
  if (!o.engine.empty()) {
    return run_serving_finder(o, vm, catalog, *model,
                              quant_argument(catalog, "fit", resolved, o.quant_id), kv, out);
  }

  if (vm.count("tensor-split") && !vm.count("gpus")) {
    throw UsageError("fit: --tensor-split needs --gpus (the box it splits)");
  }
  if (vm.count("gpus")) {
    return run_box(o, vm, catalog,
                   FitRequest{*model, quant_argument(catalog, "fit", resolved, o.quant_id),
                              o.context, o.streams, kv},
                   backend, out);
  }
  FinderRequest finder;
  finder.request = FitRequest{*model, quant_argument(catalog, "fit", resolved, o.quant_id),
                              o.context, o.streams, kv};
  finder.options.split = *split;
  finder.options.backend = backend;
  finder.options.prompt_tokens = o.prompt_tokens;
  finder.speed_reference = speed_reference(catalog);
  finder.tier_probe = tier_probe(catalog);
  finder.all_multi = o.multi;
  const std::string as_of = o.as_of.empty() ? kLatest : o.as_of;
  const FitReportContext context{o.as_of, backend.has_value(), json_stamp(catalog)};
  const MemoryBreakdown memory = estimate_memory(finder.request, 1);

  if (vm.count("compare")) {
    const auto a =
        offer_of(catalog, check_backend(find_device(catalog, "compare", o.compare[0])), as_of);
    const auto b =
        offer_of(catalog, check_backend(find_device(catalog, "compare", o.compare[1])), as_of);
    const auto comparison = compare_devices(finder, a, b, o.count > 0 ? o.count : 1);
    out << (o.json ? compare_json(finder, memory, comparison, context)
                   : compare_text(finder, memory, comparison, context));
    return 0;
  }
  std::vector<FinderRow> rows;
  if (!o.gpu_id.empty()) {
    Device device = check_backend(find_device(catalog, "gpu", o.gpu_id));
    if (vm.count("power-limit")) {
      device.power_limit_w = power_limit_argument("fit", device, o.power_limit_w, err);
    }
    const auto offer = offer_of(catalog, device, as_of);
    rows.push_back(finder_row(finder, offer, o.count > 0 ? o.count : 1));
  } else {
    std::vector<DeviceOffer> offers;
    for (const auto& device : catalog.devices()) {
      if (runs_on(device)) offers.push_back(offer_of(catalog, device, as_of));
    }
    std::vector<SystemOffer> systems;
    for (const auto& system : catalog.systems()) {
      if (auto s = system_offer_of(catalog, system, as_of);
          s && s->count >= 1 && runs_on(s->device.device)) {
        systems.push_back(std::move(*s));
      }
    }
    rows = o.count > 0 ? find_devices_at(finder, offers, o.count)
                       : find_devices(finder, offers, systems);
  }
  out << (o.json ? fit_json(finder, memory, rows, context)
                 : fit_text(finder, memory, rows, context));
  return 0;
}

}  // namespace gputco::cli
