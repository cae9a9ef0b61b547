#include "scenarios/mmproj_file.hpp"

#include <algorithm>
#include <cmath>

#include "scenarios/gguf_file.hpp"
#include "scenarios/model_file_error.hpp"

namespace gputco {

namespace {

constexpr double kWarmupImageSide = 1472;

double positive(const GgufFile& file, const std::string& key) {
  const GgufValue* v = file.find(key);
  if (v == nullptr || v->kind != GgufValue::Kind::number || !std::isfinite(v->number) ||
      v->number < 1 || v->number > 1e7) {
    throw ModelFileError(file.path, key +
                                        ": missing or not a positive number (an mmproj GGUF "
                                        "states its vision encoder's widths)");
  }
  return v->number;
}

}  // namespace

VisionTower read_mmproj_file(const std::string& path) {
  const GgufFile file = read_gguf_header(path);
  const GgufValue* arch = file.find("general.architecture");
  if (arch == nullptr || arch->kind != GgufValue::Kind::string || arch->text != "clip") {
    throw ModelFileError(path,
                         "general.architecture: expected clip (a multimodal projector, "
                         "mmproj-*.gguf), got " +
                             (arch && arch->kind == GgufValue::Kind::string ? "'" + arch->text + "'"
                                                                            : std::string("none")));
  }
  VisionTower t;
  for (const GgufTensor& tensor : file.tensors)
    t.weights_bytes += static_cast<double>(tensor.bytes);
  t.hidden = static_cast<int>(positive(file, "clip.vision.embedding_length"));
  t.intermediate = static_cast<int>(positive(file, "clip.vision.feed_forward_length"));
  const double side = std::max(positive(file, "clip.vision.image_size"), kWarmupImageSide);
  const double per_side = std::floor(side / positive(file, "clip.vision.patch_size"));
  t.image_patches = static_cast<int>(per_side * per_side);
  return t;
}

}  // namespace gputco
