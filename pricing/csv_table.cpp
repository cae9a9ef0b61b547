#include "pricing/csv_table.hpp"

#include <csv.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "pricing/catalog.hpp"
#include "pricing/input_file.hpp"

namespace gputco {

namespace {

// Keep every space: RFC 4180 fields are taken as written, the validator judges them.
int no_space(unsigned char) {
  return 0;
}

}  // namespace

std::string csv_number_field(std::string_view text) {
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
  if (starts_formula(text) || guarded(text)) return csv_number_field("'" + std::string(text));
  return csv_number_field(text);
}

std::optional<std::string> row_width_problem(std::size_t fields, std::size_t header_fields) {
  if (fields == header_fields) return std::nullopt;
  return std::to_string(fields) + " fields, but the header has " + std::to_string(header_fields);
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

struct CsvReader::State {
  std::string path;
  std::function<std::size_t(char*, std::size_t)> source;
  csv_parser parser{};
  bool parser_ready = false;
  std::string chunk;  // validated text not yet parsed from `pos`
  std::size_t pos = 0;
  std::string tail;      // an incomplete UTF-8 sequence at a chunk's end: parsed with the next
  bool at_start = true;  // before the first chunk (byte order mark, UTF-16)
  bool finished = false;
  int line = 1;         // physical line of the next byte parsed
  int record_line = 0;  // line where the current record started; 0 = between records
  std::vector<std::string> fields;
  std::deque<CsvRow> ready;  // records parsed, not yet returned: one or a few

  ~State() {
    if (parser_ready) csv_free(&parser);
  }

  [[noreturn]] void fail(int at_line, std::string_view what) {
    std::ostringstream msg;
    msg << path << ':' << at_line << ": csv: malformed CSV: ";
    if (csv_error(&parser) == CSV_EPARSE) {
      msg << what;
    } else {
      msg << csv_strerror(csv_error(&parser));
    }
    throw CatalogError(msg.str());
  }

  // Reads the next chunk and checks it as parse_csv checks a whole text; false at the end.
  bool load_chunk() {
    std::string data = std::move(tail);
    tail.clear();
    std::string buffer(kCsvChunkBytes, '\0');
    bool end = false;
    // At the start, enough bytes to recognise a byte order mark.
    do {
      const std::size_t got = source(buffer.data(), buffer.size());
      if (got == 0) {
        end = true;
        break;
      }
      data.append(buffer.data(), got);
    } while (at_start && data.size() < 3);
    if (at_start) {
      at_start = false;
      constexpr std::string_view kBom = "\xEF\xBB\xBF";
      if (std::string_view(data).substr(0, kBom.size()) == kBom) data.erase(0, kBom.size());
      // Spreadsheets' "Unicode text" and binary files: say what they are, not which columns
      // are missing.
      if (data.substr(0, 2) == "\xFF\xFE" || data.substr(0, 2) == "\xFE\xFF") {
        throw CatalogError(path + ":1: csv: the file is UTF-16 text; save it as CSV UTF-8");
      }
    }
    // Hold back a UTF-8 sequence cut by the chunk's end: it is checked with the next chunk.
    std::size_t cut = data.size();
    if (!end) {
      std::size_t k = data.size();
      std::size_t continuation = 0;
      while (k > 0 && continuation < 3 &&
             (static_cast<unsigned char>(data[k - 1]) & 0xC0) == 0x80) {
        --k;
        ++continuation;
      }
      if (k > 0) {
        const auto lead = static_cast<unsigned char>(data[k - 1]);
        const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        if (length > continuation + 1) cut = k - 1;
      }
    }
    const std::string_view text(data.data(), cut);
    const auto line_of = [&](std::size_t offset) {
      return line + static_cast<int>(std::count(
                        text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    };
    if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
      throw CatalogError(path + ":" + std::to_string(line_of(nul)) +
                         ": csv: not a text file (it contains NUL bytes)");
    }
    // Another 8-bit encoding (Windows-1252, Latin-1): the bytes would reach the catalog, the
    // workbook and JSON as they are.
    if (const auto bad = first_invalid_utf8(text); bad != std::string_view::npos) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[bad]));
      throw CatalogError(path + ":" + std::to_string(line_of(bad)) +
                         ": csv: not UTF-8 text (byte " + hex + "); save the file as CSV UTF-8");
    }
    tail = data.substr(cut);
    data.resize(cut);
    chunk = std::move(data);
    pos = 0;
    return !end || !chunk.empty();
  }

  // Parses the chunk up to its next line end (a record ends at one, unless quoted).
  void parse_line() {
    const std::size_t nl = chunk.find('\n', pos);
    const std::size_t stop = nl == std::string::npos ? chunk.size() : nl + 1;
    const std::string_view piece(chunk.data() + pos, stop - pos);
    if (record_line == 0 && piece.find_first_not_of("\r\n") != std::string_view::npos) {
      record_line = line;
    }
    if (csv_parse(&parser, piece.data(), piece.size(), on_field, on_record_end, this) !=
        piece.size()) {
      fail(line, "a quote inside an unquoted field, or text after a closing quote");
    }
    pos = stop;
    if (nl != std::string::npos) ++line;
  }

  static void on_field(void* data, std::size_t size, void* user) {
    auto* state = static_cast<State*>(user);
    // A record after an old Mac line end (CR) on the same physical line.
    if (state->record_line == 0) state->record_line = state->line;
    state->fields.emplace_back(data == nullptr ? "" : std::string(static_cast<char*>(data), size));
  }

  static void on_record_end(int /*terminator*/, void* user) {
    auto* state = static_cast<State*>(user);
    state->ready.push_back(CsvRow{state->record_line != 0 ? state->record_line : state->line,
                                  std::move(state->fields)});
    state->fields.clear();
    state->record_line = 0;
  }
};

CsvReader::CsvReader(std::string path, std::function<std::size_t(char*, std::size_t)> source)
    : state_(std::make_unique<State>()) {
  state_->path = std::move(path);
  state_->source = std::move(source);
  if (csv_init(&state_->parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
    throw CatalogError(state_->path + ": cannot initialise the CSV parser");
  }
  state_->parser_ready = true;
  csv_set_space_func(&state_->parser, no_space);
}

CsvReader::CsvReader(CsvReader&&) noexcept = default;
CsvReader& CsvReader::operator=(CsvReader&&) noexcept = default;
CsvReader::~CsvReader() = default;

const std::string& CsvReader::path() const {
  return state_->path;
}

bool CsvReader::next(CsvRow& row) {
  State& s = *state_;
  while (s.ready.empty()) {
    if (s.pos < s.chunk.size()) {
      s.parse_line();
      continue;
    }
    if (s.finished) return false;
    if (!s.load_chunk()) {
      s.finished = true;
      if (csv_fini(&s.parser, State::on_field, State::on_record_end, &s) != 0) {
        s.fail(s.record_line != 0 ? s.record_line : s.line,
               "quoted field not closed before the end of the file");
      }
    }
  }
  row = std::move(s.ready.front());
  s.ready.pop_front();
  return true;
}

CsvTable read_rows_after(CsvReader& reader, CsvRow header) {
  CsvTable table;
  table.path = reader.path();
  table.header_line = header.line;
  table.header = std::move(header.fields);
  for (CsvRow row; reader.next(row);) table.rows.push_back(std::move(row));
  return table;
}

namespace {

CsvTable read_table(CsvReader& reader) {
  CsvRow header;
  if (!reader.next(header)) {
    CsvTable empty;
    empty.path = reader.path();
    return empty;
  }
  return read_rows_after(reader, std::move(header));
}

}  // namespace

CsvTable parse_csv(std::string_view text, const std::string& path) {
  std::size_t at = 0;
  CsvReader reader(path, [text, &at](char* buffer, std::size_t size) {
    const std::size_t n = std::min(size, text.size() - at);
    std::copy_n(text.data() + at, n, buffer);
    at += n;
    return n;
  });
  return read_table(reader);
}

CsvReader open_csv_file(const std::string& path) {
  const std::string shown = is_standard_input(path) ? "<stdin>" : path;
  std::shared_ptr<InputStream> file;
  try {
    file = std::make_shared<InputStream>(path, kMaxCsvFileBytes, "CSV file");
  } catch (const InputFileError& e) {
    throw CatalogError(shown + ": " + e.what());
  }
  return CsvReader(shown, [file, shown](char* buffer, std::size_t size) {
    try {
      return file->read(buffer, size);
    } catch (const InputFileError& e) {
      throw CatalogError(shown + ": " + e.what());
    }
  });
}

CsvTable read_csv_file(const std::string& path) {
  CsvReader reader = open_csv_file(path);
  return read_table(reader);
}

}  // namespace gputco
