#include "pricing/visible_text.hpp"

#include <cstdint>
#include <cstdio>

namespace gputco {

namespace {

/// The code point starting at `at` and its length in bytes; length 1 and code point
/// 0xFFFFFFFF for a byte that does not start valid UTF-8.
struct Decoded {
  std::uint32_t code_point;
  std::size_t length;
};

constexpr std::uint32_t kInvalid = 0xFFFFFFFF;

Decoded decode(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(at);
  if (b0 < 0x80) return {b0, 1};
  std::size_t length = 0;
  std::uint32_t cp = 0;
  if ((b0 & 0xE0) == 0xC0) {
    length = 2;
    cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3;
    cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4;
    cp = b0 & 0x07;
  } else {
    return {kInvalid, 1};
  }
  if (at + length > text.size()) return {kInvalid, 1};
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(at + k) & 0xC0) != 0x80) return {kInvalid, 1};
    cp = (cp << 6) | (byte(at + k) & 0x3F);
  }
  return {cp, length};
}

bool is_control(std::uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
}

bool is_invisible(std::uint32_t cp) {
  return cp == 0xA0 || (cp >= 0x200B && cp <= 0x200F) || cp == 0x2028 || cp == 0x2029 ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2064) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
}

std::string hex(const char* format, std::uint32_t value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, format, static_cast<unsigned>(value));
  return buffer;
}

}  // namespace

std::size_t first_control_character(std::string_view text, std::string_view allowed) {
  for (std::size_t i = 0; i < text.size();) {
    const Decoded d = decode(text, i);
    if (d.code_point != kInvalid && is_control(d.code_point) &&
        (d.code_point >= 0x80 ||
         allowed.find(static_cast<char>(d.code_point)) == std::string_view::npos)) {
      return i;
    }
    i += d.length;
  }
  return std::string_view::npos;
}

std::string code_point_name(std::string_view text, std::size_t at) {
  if (at >= text.size()) return "";
  const Decoded d = decode(text, at);
  if (d.code_point == kInvalid) return hex("byte 0x%02X", static_cast<unsigned char>(text[at]));
  return hex("U+%04X", d.code_point);
}

std::string visible_text(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const Decoded d = decode(text, i);
    const std::uint32_t cp = d.code_point;
    if (cp == kInvalid) {
      out += hex("\\x%02X", static_cast<unsigned char>(text[i]));
    } else if (keep_newlines && (cp == '\n' || (cp == '\r' && text.substr(i + 1, 1) == "\n"))) {
      out += static_cast<char>(cp);
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp < 0x20 || cp == 0x7F) {
      out += hex("\\x%02X", cp);
    } else if (is_control(cp) || is_invisible(cp)) {
      out += hex("\\u%04X", cp);
    } else {
      out.append(text.substr(i, d.length));
    }
    i += d.length;
  }
  return out;
}

}  // namespace gputco
