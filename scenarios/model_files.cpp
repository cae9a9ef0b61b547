#include "scenarios/model_files.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>

#include "engine/base/error.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "scenarios/gguf_file.hpp"
#include "scenarios/gguf_model.hpp"
#include "scenarios/hf_config.hpp"
#include "scenarios/model_file_error.hpp"
#include "scenarios/scenario.hpp"

namespace gputco {

namespace {

namespace fs = std::filesystem;

bool ends_with_ignoring_case(const std::string& text, const std::string& suffix) {
  if (text.size() < suffix.size()) return false;
  return std::equal(suffix.rbegin(), suffix.rend(), text.rbegin(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
}

// Bits per weight a format's recipe starts from before the tensor groups refine it; only
// used where a format has no recipe (engine/hardware/model_bytes.cpp tensor_recipe has them all).
double nominal_bits(const std::string& format) {
  if (format == "F32") return 32;
  if (format == "F16" || format == "BF16") return 16;
  if (format == "FP8" || format == "INT8" || format == "GPTQ-INT8") return 8;
  return 4.5;
}

std::string path_in(const std::string& base_dir, const std::string& path) {
  if (base_dir.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(base_dir) / path).string();
}

// The model a config describes; `file` names it.
ModelFile from_config(HfConfig config, const std::string& file) {
  try {
    ModelFile out = model_from_shape(config.shape, config.native_format);
    out.kind = "config.json";
    out.files = {file};
    out.notes = std::move(config.notes);
    return out;
  } catch (const EngineError& e) {
    throw ModelFileError(file, e.what());
  }
}

}  // namespace

bool is_model_path(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec) || ends_with_ignoring_case(path, ".gguf") ||
         ends_with_ignoring_case(path, ".json");
}

ModelFile model_from_shape(const ModelShape& shape, const std::string& format) {
  ModelFile out;
  out.model = finish_shape(shape);
  const Quant nominal{format, nominal_bits(format), "float"};
  const double bytes = weights_bytes(out.model, nominal);
  out.native_quant =
      Quant{format, bytes * 8 / (out.model.params_b * 1e9),
            format == "F32" || format == "F16" || format == "BF16" ? "float" : "group"};
  return out;
}

ModelFile read_model_file(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw ModelFileError(path, "cannot open the file (does it exist?)");
  if (!fs::is_directory(path, ec) &&
      (has_gguf_magic(path) || ends_with_ignoring_case(path, ".gguf"))) {
    GgufModel g = read_gguf_model(path);
    ModelFile out;
    out.model = std::move(g.arch);
    const FileWeights& w = *out.model.file_weights;
    out.native_quant = Quant{w.quant, w.total_bytes() * 8 / (out.model.params_b * 1e9), "mix"};
    out.kind = "GGUF";
    out.files = std::move(g.files);
    out.notes = std::move(g.notes);
    return out;
  }
  return from_config(read_hf_config(path),
                     fs::is_directory(path, ec) ? (fs::path(path) / "config.json").string() : path);
}

ModelFile model_from_config_text(const std::string& json_text, const std::string& where,
                                 std::set<std::string>* keys_read) {
  return from_config(read_hf_config_text(json_text, where, keys_read), where);
}

ResolvedModel resolve_model_argument(const std::string& argument, const Catalog& catalog,
                                     const std::string& base_dir) {
  const std::string path = path_in(base_dir, argument);
  if (is_model_path(path)) {
    ModelFile file = read_model_file(path);
    return ResolvedModel{std::move(file.model), std::move(file.native_quant),
                         file.kind + " " + file.files.front(), std::move(file.notes)};
  }
  if (auto model = catalog.model_by_repo(argument))
    return ResolvedModel{*model, std::nullopt, "catalog", {}};
  std::vector<std::string> ids;
  for (const ModelArch& m : catalog.models()) ids.push_back(m.id);
  const std::string hint = nearest(argument, ids);
  static const std::regex kRepoId(R"([A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*)");
  std::string message = "unknown model '" + argument + "'";
  if (!hint.empty()) message += "; did you mean '" + hint + "'?";
  if (std::regex_match(argument, kRepoId)) {
    message +=
        " (not a catalog model's Hugging Face repository; gputco never downloads: save "
        "https://huggingface.co/" +
        argument + "/resolve/main/config.json and give its path, or a GGUF file's)";
  } else {
    message += " (gputco catalog list models, or the path of a config.json or GGUF file)";
  }
  throw UnknownModelError(argument, hint, message);
}

}  // namespace gputco
