// gputco calibrate: the user's serving benchmark runs into the user catalog, where the serving
// model (throughput, fit --engine, the finder, plan) refits itself to them
// (engine/serving/serving_measured.hpp); --list and --remove.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <tuple>

#include "cli/catalog_actions.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "engine/serving/serving_measured.hpp"
#include "pricing/serving_runs.hpp"
#include "pricing/visible_text.hpp"
#include "reports/calibration_report.hpp"
#include "scenarios/benchmark_runs.hpp"
#include "scenarios/dates.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

constexpr const char* kUsage =
    "usage: gputco calibrate FILE... [--model ID] [--quant Q] [--gpu ID] [--count N] [--tp N]\n"
    "         [--pp N] [--engine E] [--engine-version V] [--kv-cache T] [--measured-on DATE]\n"
    "         [--format F] [--dry-run] [--catalog DB]\n"
    "       gputco calibrate --list [--model ID] [--json] [--catalog DB]\n"
    "       gputco calibrate --remove RUN|FILE|SHA256... [--catalog DB]\n\n"
    "Stores the runs of serving benchmark files in the user catalog, each dated with its\n"
    "file's name and SHA-256 as its source: the result JSON of vllm bench serve, SGLang's\n"
    "bench_serving JSONL, trtllm-bench's report JSON, genai-perf / AIPerf profile exports,\n"
    "llama-bench's JSON output, or gputco's CSV (docs/calibrate.md). From then on throughput,\n"
    "fit --engine and plan refit the serving model to your runs of that model, GPU and engine\n"
    "(one run: a scale; three or more: the efficiencies, the fixed cost and the cost per\n"
    "sequence; between runs of one shape the steps you measured), use a run's own figures\n"
    "where a request has its shape, and say so. What the file does not say, the flags give;\n"
    "a file and flags that disagree, a run of zero duration and runs that contradict each other\n"
    "by more than 2 x are refused (exit 2) and nothing is stored. Importing a file again\n"
    "stores nothing new.\n\noptions";

/// The day `path` was last modified (UTC), YYYY-MM-DD: the date of a file that states none.
std::string modification_day(const std::string& path) {
  std::error_code ec;
  const auto written = std::filesystem::last_write_time(path, ec);
  if (ec) return "";
  const auto when = std::chrono::file_clock::to_sys(written);
  return format_date(std::chrono::year_month_day{std::chrono::floor<std::chrono::days>(when)});
}

std::string today_utc() {
  const auto now = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  return format_date(std::chrono::year_month_day{now});
}

/// What a group of runs (one model, weights, GPU and engine) calibrates to, as one line.
void print_calibrations(const Catalog& catalog, const std::vector<MeasuredServingRun>& fresh,
                        std::ostream& out, std::ostream& err) {
  std::map<std::tuple<std::string, std::string, std::string, int>, const MeasuredServingRun*>
      groups;
  for (const auto& run : fresh) {
    groups.emplace(
        std::make_tuple(run.model_id, run.quant, run.device_id, static_cast<int>(run.engine)),
        &run);
  }
  for (const auto& [key, example] : groups) {
    const auto model = catalog.model(example->model_id);
    const auto quant = catalog.quant(example->quant);
    const auto device = catalog.device(example->device_id);
    if (!model || !quant || !device) continue;
    ServingRequest request;
    request.model = *model;
    request.quant = *quant;
    request.engine = example->engine;
    request.backend = default_backend(*device);
    const auto runs = runs_for(request, *device, catalog.serving_runs(model->id));
    if (runs.empty()) continue;
    const MeasuredCalibration c = calibrate_to_runs(request, *device, runs);
    // The published model's error on the same runs, to show what the calibration changed.
    MeasuredCalibration published;
    published.constants = engine_profile(request.engine, device->memory_nameplate_gb).constants;
    double sum = 0;
    int n = 0;
    for (const auto& run : runs) {
      if (!(run.output_tokens_per_s > 0)) continue;
      const RunEstimate e = estimate_run(request, *device, run, published);
      sum += std::abs(e.output_tokens_per_s / run.output_tokens_per_s - 1);
      ++n;
      const double ratio = e.output_tokens_per_s / run.output_tokens_per_s;
      if (ratio > 2 || ratio < 0.5) {
        err << "warning: " << run.id << " (" << run.file_name << "): the published model "
            << "estimates " << (ratio > 1 ? "more than twice" : "less than half")
            << " its throughput: check its model, GPU, engine and settings\n";
      }
    }
    out << model->id << " " << quant->id << " on " << device->id << " with "
        << display_name(request.engine) << ": " << calibration_sentence(c.summary);
    if (n > 0) {
      out << fmt::format("; the published model was {:.1f} % off their throughput", 100 * sum / n);
    }
    out << "\n";
  }
}

int list_runs(const std::string& catalog_path, const std::string& model, bool json,
              std::ostream& out) {
  const Catalog catalog = open_catalog(catalog_path);
  std::string model_id;
  if (!model.empty()) {
    const auto m = catalog.model(model);
    model_id = m ? m->id : model;
  }
  const auto runs = catalog.serving_runs(model_id);
  out << (json ? serving_runs_json(runs) : serving_runs_text(runs));
  return 0;
}

int remove_runs(const std::string& catalog_path, const std::vector<std::string>& selectors,
                std::ostream& out, std::ostream& err) {
  const std::string db = user_catalog_path(catalog_path);
  std::vector<MeasuredServingRun> removed;
  try {
    removed = remove_serving_runs(db, selectors);
  } catch (const ImportError& e) {
    for (const auto& p : e.problems()) err << "error: " << visible_text(p) << "\n";
    err << "gputco: nothing removed\n";
    return 2;
  }
  for (const auto& r : removed) out << "removed " << measured_run_line(r) << "\n";
  return 0;
}

/// What the command line asked for: the flags a benchmark file may leave out, the mode
/// (files, --list or --remove) and where to write.
struct CalibrateArguments {
  BenchmarkFlags flags;
  std::string format_name, catalog_path;
  std::vector<std::string> files, remove;
  bool list = false, json = false, dry_run = false;
};

/// calibrate's options, written into `a`; kUsage is the description's caption.
po::options_description calibrate_options(CalibrateArguments& a) {
  po::options_description visible(kUsage);
  BenchmarkFlags& flags = a.flags;
  visible.add_options()("help,h", "this text")(
      "model", po::value(&flags.model)->value_name("ID"),
      "the model the runs served (catalog id or Hugging Face id), where the file does not say")(
      "quant", po::value(&flags.quant)->value_name("Q"),
      "its weight format (BF16, FP8, NVFP4, MXFP4, INT4-AWQ, a GGUF quant)")(
      "gpu", po::value(&flags.gpu)->value_name("ID"), "the catalog device the runs ran on")(
      "count", po::value(&flags.gpu_count)->value_name("N"),
      "GPUs of the box (default: the file's, else TP x PP)")(
      "tp", po::value(&flags.tp)->value_name("N"),
      "tensor parallel GPUs per replica (default: the file's, else the whole box)")(
      "pp", po::value(&flags.pp)->value_name("N"), "pipeline stages per replica (default 1)")(
      "engine", po::value(&flags.engine)->value_name("E"),
      "vllm | sglang | tensorrt-llm | llama.cpp, where the file does not say")(
      "engine-version", po::value(&flags.engine_version)->value_name("V"),
      "the engine's release (0.10.1, 0.5.6, 1.0.0, b6500)")(
      "kv-cache", po::value(&flags.kv_cache)->value_name("T"),
      "f16 | fp8 | q8_0 | q4_0 (default: the file's, else the engine's default)")(
      "measured-on", po::value(&flags.measured_on)->value_name("DATE"),
      "the day the runs ran (default: the file's date, else its modification day)")(
      "format", po::value(&a.format_name)->value_name("F"),
      "vllm-bench-serve | sglang-bench-serving | trtllm-bench | genai-perf | llama-bench | csv "
      "(default: told by the content)")("dry-run", po::bool_switch(&a.dry_run),
                                        "read and check the files, store nothing")(
      "list", po::bool_switch(&a.list), "list the stored runs (of --model)")(
      "remove", po::value(&a.remove)->multitoken()->value_name("RUN|FILE|SHA256"),
      "remove stored runs: an id (run-3), a file name, or 8+ hex digits of its SHA-256")(
      "json", po::bool_switch(&a.json), "--list as JSON")(
      "catalog", po::value(&a.catalog_path)->value_name("DB"),
      "user catalog to write (default: the config file's [catalog] path, else "
      "$XDG_DATA_HOME/gputco/catalog.sqlite, else ~/.local/share/gputco/catalog.sqlite)");
  return visible;
}

/// The import's flags checked before any file is read: --format (nullopt: told by the content),
/// --measured-on, and --count, --tp and --pp where given. Throws UsageError naming the flag.
std::optional<BenchmarkFormat> check_import_flags(const CalibrateArguments& a,
                                                  const po::variables_map& vm) {
  std::optional<BenchmarkFormat> format;
  if (!a.format_name.empty()) {
    format = parse_benchmark_format(a.format_name);
    if (!format) {
      throw UsageError(
          "calibrate: --format must be vllm-bench-serve, sglang-bench-serving, "
          "trtllm-bench, genai-perf, llama-bench or csv, got '" +
          a.format_name + "'");
    }
  }
  const BenchmarkFlags& flags = a.flags;
  if (!flags.measured_on.empty()) require_date_option("--measured-on", flags.measured_on);
  for (const auto& [name, value] : {std::pair<const char*, int>{"count", flags.gpu_count},
                                    {"tp", flags.tp},
                                    {"pp", flags.pp}}) {
    if (vm.count(name) && (value < 1 || value > 4096)) {
      throw UsageError(std::string("calibrate: --") + name + " must be between 1 and 4096, got " +
                       std::to_string(value));
    }
  }
  return format;
}

/// Every run of `a.files`, read and resolved against `catalog` (their notes on `err`).
std::vector<MeasuredServingRun> read_runs(const CalibrateArguments& a,
                                          const std::optional<BenchmarkFormat>& format,
                                          const Catalog& catalog, std::ostream& err) {
  std::vector<MeasuredServingRun> fresh;
  for (const std::string& file : a.files) {
    const BenchmarkFile read = read_benchmark_file(file, format);
    const ResolvedBenchmark resolved =
        resolve_benchmark(read, a.flags, catalog, modification_day(file));
    for (const auto& note : resolved.notes) err << "note: " << visible_text(note) << "\n";
    fresh.insert(fresh.end(), resolved.runs.begin(), resolved.runs.end());
  }
  return fresh;
}

/// `fresh` stored in the user catalog, what was stored listed on `out` and what each group
/// calibrates to; 2 with the problems on `err` and nothing stored when the store refuses them.
int store_runs(const CalibrateArguments& a, const std::vector<MeasuredServingRun>& fresh,
               std::ostream& out, std::ostream& err) {
  const std::string db = user_catalog_path(a.catalog_path);
  for (const std::string& file : a.files) check_catalog_destination(db, file);
  ServingRunsStored stored;
  try {
    stored = store_serving_runs(db, fresh, today_utc());
  } catch (const ImportError& e) {
    for (const auto& p : e.problems()) err << "error: " << visible_text(p) << "\n";
    err << "gputco: nothing stored\n";
    return 2;
  }
  out << "stored " << fresh.size() << (fresh.size() == 1 ? " run" : " runs") << " of "
      << a.files.size() << (a.files.size() == 1 ? " file" : " files") << " in " << db << ": "
      << stored.inserted << " new, " << stored.unchanged << " already stored\n";
  for (const auto& run : stored.runs) out << "  " << measured_run_line(run) << "\n";
  print_calibrations(open_catalog(a.catalog_path.empty() ? db : a.catalog_path), stored.runs, out,
                     err);
  return 0;
}

/// `gputco calibrate FILE...`: the files' runs checked against each other and the stored ones
/// (2, nothing stored, when they disagree), then listed (--dry-run) or stored.
int import_runs(const CalibrateArguments& a, const po::variables_map& vm, std::ostream& out,
                std::ostream& err) {
  const std::optional<BenchmarkFormat> format = check_import_flags(a, vm);
  const Catalog catalog = open_catalog(a.catalog_path);
  const std::vector<MeasuredServingRun> fresh = read_runs(a, format, catalog, err);
  const auto disagreements = disagreeing_runs(fresh, catalog.serving_runs());
  if (!disagreements.empty()) {
    for (const auto& p : disagreements) err << "error: " << visible_text(p) << "\n";
    err << "gputco: " << disagreements.size()
        << (disagreements.size() == 1 ? " disagreement" : " disagreements") << "; nothing stored\n";
    return 2;
  }
  if (a.dry_run) {
    for (const auto& run : fresh) out << measured_run_line(run) << "\n";
    out << fresh.size() << (fresh.size() == 1 ? " run" : " runs")
        << " read and checked; nothing stored (--dry-run)\n";
    return 0;
  }
  return store_runs(a, fresh, out, err);
}

}  // namespace

int calibrate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CalibrateArguments a;
  const po::options_description visible = calibrate_options(a);
  po::options_description all;
  all.add(visible);
  all.add_options()("file", po::value(&a.files));
  po::positional_options_description positions;
  positions.add("file", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(all).positional(positions).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  const int modes = (a.list ? 1 : 0) + (!a.remove.empty() ? 1 : 0) + (!a.files.empty() ? 1 : 0);
  if (modes != 1) {
    throw UsageError(
        "calibrate: give benchmark files to import, or --list, or --remove (one of them)");
  }
  if (a.json && !a.list) throw UsageError("calibrate: --json goes with --list");
  if (a.list) return list_runs(a.catalog_path, a.flags.model, a.json, out);
  if (!a.remove.empty()) return remove_runs(a.catalog_path, a.remove, out, err);
  return import_runs(a, vm, out, err);
}

}  // namespace gputco::cli
