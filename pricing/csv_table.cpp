#include "pricing/csv_table.hpp"

#include <csv.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "pricing/catalog.hpp"
#include "pricing/input_file.hpp"

namespace gputco {

namespace {

// State shared with libcsv's C callbacks while one text is parsed.
struct ParseState {
  CsvTable* table = nullptr;
  int line = 1;         // physical line of the byte being fed
  int record_line = 0;  // line where the current record started; 0 = between records
  std::vector<std::string> fields;
};

void on_field(void* data, std::size_t size, void* user) {
  auto* state = static_cast<ParseState*>(user);
  state->fields.emplace_back(data == nullptr ? "" : std::string(static_cast<char*>(data), size));
}

void on_record_end(int /*terminator*/, void* user) {
  auto* state = static_cast<ParseState*>(user);
  CsvTable& table = *state->table;
  if (table.header_line == 0) {
    table.header_line = state->record_line;
    table.header = std::move(state->fields);
  } else {
    table.rows.push_back(CsvRow{state->record_line, std::move(state->fields)});
  }
  state->fields.clear();
  state->record_line = 0;
}

// Keep every space: RFC 4180 fields are taken as written, the validator judges them.
int no_space(unsigned char) {
  return 0;
}

}  // namespace

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

namespace {

/// The first characters a spreadsheet reads as the start of a formula (OWASP).
bool starts_formula(std::string_view text) {
  return !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
}

/// An apostrophe that csv_text_field added (or must add, to keep a leading one).
bool guarded(std::string_view text) {
  return text.size() >= 2 && text.front() == '\'' &&
         (starts_formula(text.substr(1)) || text[1] == '\'');
}

}  // namespace

std::string csv_text_field(std::string_view text) {
  if (starts_formula(text) || guarded(text)) return csv_field("'" + std::string(text));
  return csv_field(text);
}

std::string lf_line_ends(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else if (i + 1 == text.size() || text[i + 1] != '\n') {
      out += '\n';
    }
  }
  return out;
}

std::string csv_text_value(std::string_view field) {
  return std::string(guarded(field) ? field.substr(1) : field);
}

// Offset of the first byte that is not part of valid UTF-8 (overlong forms, surrogates and
/// code points above U+10FFFF included), npos when the whole text is valid.
std::size_t first_invalid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b0 = byte(i);
    std::size_t length = 1;
    unsigned char low = 0x80, high = 0xBF;  // range of the second byte
    if (b0 < 0x80) {
      ++i;
      continue;
    } else if (b0 >= 0xC2 && b0 <= 0xDF) {
      length = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      length = 3;
      if (b0 == 0xE0) low = 0xA0;
      if (b0 == 0xED) high = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      length = 4;
      if (b0 == 0xF0) low = 0x90;
      if (b0 == 0xF4) high = 0x8F;
    } else {
      return i;
    }
    if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high) return i;
    for (std::size_t k = 2; k < length; ++k) {
      if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return i;
    }
    i += length;
  }
  return std::string_view::npos;
}

std::optional<std::size_t> CsvTable::column(std::string_view name) const {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  return std::nullopt;
}

CsvTable parse_csv(std::string_view text, const std::string& path) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
  // Spreadsheets' "Unicode text" and binary files: say what they are, not which columns
  // are missing.
  if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF") {
    throw CatalogError(path + ":1: csv: the file is UTF-16 text; save it as CSV UTF-8");
  }
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    const auto line =
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
    throw CatalogError(path + ":" + std::to_string(line) +
                       ": csv: not a text file (it contains NUL bytes)");
  }
  // Another 8-bit encoding (Windows-1252, Latin-1): the bytes would reach the catalog, the
  // workbook and JSON as they are.
  if (const auto bad = first_invalid_utf8(text); bad != std::string_view::npos) {
    const auto line =
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[bad]));
    throw CatalogError(path + ":" + std::to_string(line) + ": csv: not UTF-8 text (byte " + hex +
                       "); save the file as CSV UTF-8");
  }

  CsvTable table;
  table.path = path;
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
    throw CatalogError(path + ": cannot initialise the CSV parser");
  }
  csv_set_space_func(&parser, no_space);
  ParseState state;
  state.table = &table;

  auto fail = [&](int line, std::string_view what) {
    std::ostringstream msg;
    msg << path << ':' << line << ": csv: malformed CSV: ";
    if (csv_error(&parser) == CSV_EPARSE) {
      msg << what;
    } else {
      msg << csv_strerror(csv_error(&parser));
    }
    csv_free(&parser);
    throw CatalogError(msg.str());
  };

  // Fed one byte at a time so that each record's first line is known: libcsv itself does
  // not count lines, and a quoted field may span several.
  for (char c : text) {
    if (state.record_line == 0 && c != '\n' && c != '\r') state.record_line = state.line;
    if (csv_parse(&parser, &c, 1, on_field, on_record_end, &state) != 1) {
      fail(state.line, "a quote inside an unquoted field, or text after a closing quote");
    }
    if (c == '\n') ++state.line;
  }
  if (csv_fini(&parser, on_field, on_record_end, &state) != 0) {
    fail(state.record_line != 0 ? state.record_line : state.line,
         "quoted field not closed before the end of the file");
  }
  csv_free(&parser);
  return table;
}

CsvTable read_csv_file(const std::string& path) {
  const std::string shown = is_standard_input(path) ? "<stdin>" : path;
  std::string text;
  try {
    text = read_input_file(path, kMaxCsvFileBytes, "CSV file");
  } catch (const InputFileError& e) {
    throw CatalogError(shown + ": " + e.what());
  }
  return parse_csv(text, shown);
}

}  // namespace gputco
