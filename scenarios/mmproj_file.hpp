// A multimodal projector file (llama.cpp's mmproj GGUF: the vision encoder and projector that
// libmtmd loads with --mmproj), read for its size and the widths its image buffer needs.
#pragma once

#include <string>

#include "engine/hardware/hardware.hpp"

namespace gputco {

/// The vision tower of the mmproj GGUF at `path`: weights_bytes = every tensor's bytes (the
/// file's own precision), hidden = clip.vision.embedding_length, intermediate =
/// clip.vision.feed_forward_length, image_patches = (max(clip.vision.image_size, 1,472) /
/// clip.vision.patch_size)^2 (llama.cpp's warmup reserves a 1,472 x 1,472 image for dynamic-
/// resolution encoders). Throws ModelFileError naming the file: not a GGUF (read_gguf_header's
/// checks), general.architecture not "clip" (a language model given as --mmproj), or a
/// clip.vision key missing.
VisionTower read_mmproj_file(const std::string& path);

}  // namespace gputco
