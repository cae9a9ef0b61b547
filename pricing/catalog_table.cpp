#include "pricing/catalog_table.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "pricing/catalog.hpp"
#include "pricing/catalog_build.hpp"
#include "pricing/visible_text.hpp"

namespace gputco::catalog_table {

std::string format_number(double value) {
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}

std::string in_quotes(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::string join(const std::vector<std::string_view>& parts, std::string_view sep) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += sep;
    out += part;
  }
  return out;
}

bool has_outer_space(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  return !s.empty() && (space(s.front()) || space(s.back()));
}

// A plain decimal: optional minus, digits, optional dot and digits; nothing else.
std::optional<double> parse_decimal(std::string_view s) {
  double value = 0;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, value, std::chars_format::fixed);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  for (char c : s) {  // from_chars also takes "inf" and "nan"
    if (!(c == '-' || c == '.' || (c >= '0' && c <= '9'))) return std::nullopt;
  }
  return value;
}

std::optional<std::int64_t> parse_integer(std::string_view s) {
  std::int64_t value = 0;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

std::string range_problem(Range range, std::string_view field) {
  switch (range) {
    case Range::positive:
      return "must be greater than 0, got " + std::string(field);
    case Range::non_negative:
      return "must be 0 or more, got " + std::string(field);
    case Range::any:
      break;
  }
  return {};
}

bool in_range(Range range, double value) {
  switch (range) {
    case Range::positive:
      return value > 0;
    case Range::non_negative:
      return value >= 0;
    case Range::any:
      break;
  }
  return true;
}

// Converts one field; returns nullopt (and records why) when it is not acceptable.
std::optional<Value> convert(const Column& column, const std::string& field,
                             const std::set<std::string, std::less<>>& currencies,
                             const std::string& path, int line, Problems& problems) {
  auto problem = [&](std::string_view what) {
    problems.add(path, line, column.name, what);
    return std::nullopt;
  };
  if (has_outer_space(field))
    return problem("leading or trailing whitespace in " + in_quotes(field));
  if (field.empty()) {
    if (!column.optional) return problem("required, but empty");
    if (column.type == Type::text || column.type == Type::identifier) {
      return Value{std::string()};
    }
    return Value{std::monostate{}};
  }
  switch (column.type) {
    case Type::text: {
      // An apostrophe our export put before a formula-like cell goes (csv_text_field); a line
      // break inside a note is LF whichever system saved the file.
      std::string value = lf_line_ends(csv_text_value(field));
      const std::string_view allowed = column.optional ? "\n\t" : "";
      if (const auto at = first_control_character(value, allowed); at != std::string::npos) {
        return problem("control character " + code_point_name(value, at) + " in " +
                       in_quotes(visible_text(value)) +
                       (column.optional ? ": a note holds text, tabs and line breaks only"
                                        : ": ids, names and sources are plain text"));
      }
      return Value{std::move(value)};
    }
    case Type::identifier: {
      const auto is_word = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      };
      const bool ok =
          is_word(field.front()) && std::all_of(field.begin(), field.end(), [&](char c) {
            return is_word(c) || c == '.' || c == '_' || c == '-';
          });
      if (!ok) {
        return problem(in_quotes(visible_text(field)) +
                       " is not an id: ASCII letters, digits, '.', '_' and '-', starting with a "
                       "letter or digit (no spaces), e.g. my-gpu-24gb");
      }
      return Value{field};
    }
    case Type::decimal: {
      auto value = parse_decimal(field);
      if (!value) {
        return problem(in_quotes(field) +
                       " is not a plain decimal number (digits, a dot for decimals, nothing else)");
      }
      if (!in_range(column.range, *value)) return problem(range_problem(column.range, field));
      return Value{*value};
    }
    case Type::integer: {
      auto value = parse_integer(field);
      if (!value) return problem(in_quotes(field) + " is not a whole number");
      if (!in_range(column.range, static_cast<double>(*value))) {
        return problem(range_problem(column.range, field));
      }
      return Value{*value};
    }
    case Type::date:
      if (!is_iso_date(field)) return problem(in_quotes(field) + " is not a date YYYY-MM-DD");
      return Value{field};
    case Type::choice:
      if (std::find(column.choices.begin(), column.choices.end(), field) == column.choices.end()) {
        return problem(in_quotes(field) + " is not one of " + join(column.choices, ", "));
      }
      return Value{field};
    case Type::currency:
      if (currencies.find(field) == currencies.end()) {
        return problem(in_quotes(field) +
                       " is not a known currency code (ISO 4217, table currencies of "
                       "pricing/schema.sql)");
      }
      return Value{field};
  }
  return problem("unsupported column type");
}

std::optional<std::vector<std::size_t>> header_positions(const TableSpec& spec,
                                                         const std::vector<std::string>& header,
                                                         int header_line, const std::string& path,
                                                         Problems& problems) {
  bool header_ok = true;
  std::vector<std::size_t> position;  // spec column -> field index (kAbsentColumn: its default)
  const auto index_of = [&](std::string_view name) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return i;
    }
    return std::nullopt;
  };
  for (const Column& column : spec.columns) {
    if (auto index = index_of(column.name)) {
      position.push_back(*index);
    } else if (column.when_absent) {
      position.push_back(kAbsentColumn);
    } else {
      problems.add(path, header_line, column.name, "missing column");
      header_ok = false;
    }
  }
  std::set<std::string, std::less<>> seen;
  for (const std::string& name : header) {
    bool known = std::any_of(spec.columns.begin(), spec.columns.end(),
                             [&](const Column& c) { return c.name == name; });
    if (!known) {
      problems.add(path, header_line, name.empty() ? "header" : name, "unknown column");
      header_ok = false;
    } else if (!seen.insert(name).second) {
      problems.add(path, header_line, name, "column appears twice");
      header_ok = false;
    }
  }
  if (!header_ok) return std::nullopt;
  return position;
}

std::optional<Row> convert_row(const TableSpec& spec, const std::vector<std::size_t>& positions,
                               std::size_t header_size, const CsvRow& record,
                               const std::set<std::string, std::less<>>& currencies,
                               const std::string& path, Problems& problems) {
  if (auto wrong = row_width_problem(record.fields.size(), header_size)) {
    problems.add(path, record.line, "row", *wrong);
    return std::nullopt;
  }
  Row row{record.line, {}, {}};
  row.values.reserve(spec.columns.size());
  row.valid.reserve(spec.columns.size());
  for (std::size_t i = 0; i < spec.columns.size(); ++i) {
    const std::string field = positions[i] == kAbsentColumn
                                  ? std::string(*spec.columns[i].when_absent)
                                  : record.fields[positions[i]];
    auto value = convert(spec.columns[i], field, currencies, path, record.line, problems);
    row.valid.push_back(value.has_value());
    row.values.push_back(value ? std::move(*value) : Value{});
  }
  return row;
}

Table load_table(const TableSpec& spec, CsvTable& csv, const std::string& path,
                 const std::set<std::string, std::less<>>& currencies, Problems& problems) {
  Table table;
  table.spec = &spec;
  table.path = path;
  if (csv.header_line == 0) {
    problems.add(path, 1, "header", "file is empty; expected the header line");
    return table;
  }
  const auto positions = header_positions(spec, csv.header, csv.header_line, path, problems);
  if (!positions) return table;
  for (CsvRow& csv_row : csv.rows) {
    if (auto row =
            convert_row(spec, *positions, csv.header.size(), csv_row, currencies, path, problems)) {
      table.rows.push_back(std::move(*row));
    }
    // The text is converted: free it now, so that a large file is not held twice.
    std::vector<std::string>().swap(csv_row.fields);
  }
  return table;
}

Table load_table(const TableSpec& spec, const std::string& path,
                 const std::set<std::string, std::less<>>& currencies, Problems& problems) {
  CsvTable csv;
  try {
    csv = read_csv_file(path);
  } catch (const CatalogError& e) {
    problems.items.emplace_back(0, e.what());
    Table table;
    table.spec = &spec;
    table.path = path;
    return table;
  }
  return load_table(spec, csv, path, currencies, problems);
}

}  // namespace gputco::catalog_table
