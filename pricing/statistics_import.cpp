#include "pricing/statistics_import.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "pricing/catalog_build.hpp"
#include "pricing/catalog_import_steps.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/embedded.hpp"
#include "pricing/input_file.hpp"
#include "pricing/price_book_files.hpp"

namespace gputco::import_detail {

namespace {

std::string trim(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])) != 0) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])) != 0) --end;
  return std::string(text.substr(begin, end - begin));
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto at = text.find(separator, start);
    out.emplace_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// The lines of a text, without their line ends (LF or CR LF).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines = split(text, '\n');
  for (auto& line : lines) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
  }
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// Eurostat's flags (Eurostat, "Codes and flags" of the dissemination database).
std::string flag_words(const std::string& flags) {
  static const std::map<char, std::string> words = {{'b', "break in time series"},
                                                    {'c', "confidential"},
                                                    {'d', "definition differs"},
                                                    {'e', "estimated"},
                                                    {'n', "not significant"},
                                                    {'p', "provisional"},
                                                    {'r', "revised"},
                                                    {'s', "Eurostat estimate"},
                                                    {'u', "low reliability"},
                                                    {'z', "not applicable"}};
  std::string out;
  for (char f : flags) {
    if (f == ' ') continue;
    const auto it = words.find(f);
    out += (out.empty() ? "" : ", ") + (it != words.end() ? it->second : std::string(1, f));
  }
  return out;
}

// A Eurostat geo code as the catalog's region: lower case, Greece and the UK by ISO 3166
// (Eurostat writes EL and UK), the EU aggregate "eu".
std::string region_of_geo(const std::string& geo) {
  if (geo == "EL") return "gr";
  if (geo == "UK") return "gb";
  if (geo.rfind("EU27", 0) == 0) return "eu";
  return lower(geo);
}

// A tariff no business pays: a per-MWh price read per kWh is 1,000 x too high.
constexpr double kMaxTariffPerKwh = 2;

void check_tariff(double amount, int line, const std::string& column, Problems& problems) {
  if (amount > kMaxTariffPerKwh) {
    problems.add(line, column,
                 format_number(amount) + " per kWh is above " + format_number(kMaxTariffPerKwh) +
                     " (ten times the dearest business tariffs of 2022-2024): a price per MWh "
                     "read per kWh?");
  }
}

/// The header line of a Eurostat SDMX-TSV file: "DIM,DIM,...\\TIME_PERIOD<tab>PERIOD<tab>...".
struct EurostatHeader {
  std::vector<std::string> cells;          ///< the line's tab-separated cells
  std::vector<std::string> dims;           ///< the dimensions of the first cell, as written
  std::map<std::string, std::size_t> dim;  ///< a dimension's (trimmed) index in a row's key
  std::vector<std::string> periods;        ///< the periods of the other cells, trimmed
};

/// Reads `line`, the header of an nrg_pc_205 file; nullopt (the problem in `problems`, line 1)
/// when a dimension the import needs is missing or the file has no --period `options.period`.
std::optional<EurostatHeader> eurostat_header(const std::string& line, const ImportOptions& options,
                                              Problems& problems) {
  EurostatHeader h;
  h.cells = split(line, '\t');
  std::string dims_cell = h.cells[0];
  const auto slash = dims_cell.find('\\');
  dims_cell = dims_cell.substr(0, slash);
  h.dims = split(dims_cell, ',');
  for (std::size_t i = 0; i < h.dims.size(); ++i) h.dim[trim(h.dims[i])] = i;
  for (const char* needed : {"nrg_cons", "tax", "currency", "geo"}) {
    if (h.dim.count(needed) == 0) {
      problems.add(1, "header",
                   std::string("no dimension '") + needed +
                       "': not a Eurostat nrg_pc_205 file (electricity prices for non-household "
                       "consumers; its dimensions are freq, siec, nrg_cons, unit, tax, currency, "
                       "geo)");
      return std::nullopt;
    }
  }
  for (std::size_t i = 1; i < h.cells.size(); ++i) h.periods.push_back(trim(h.cells[i]));
  const std::vector<std::string>& periods = h.periods;
  if (!options.period.empty() &&
      std::find(periods.begin(), periods.end(), options.period) == periods.end()) {
    problems.add(
        1, "header",
        "--period " + in_quotes(options.period) + " is not a period of the file (" +
            (periods.empty() ? std::string("none") : periods.front() + " to " + periods.back()) +
            ")");
    return std::nullopt;
  }
  return h;
}

/// The period of a row (`cells`: its cells, the key first) whose value is read: `period` when
/// given, else the latest with a value; nullopt when that has none (':' missing or
/// confidential).
std::optional<std::size_t> chosen_period(const std::vector<std::string>& cells,
                                         const std::vector<std::string>& periods,
                                         const std::string& period) {
  for (std::size_t i = periods.size(); i-- > 0;) {
    const std::string cell = trim(cells[i + 1]);
    const bool missing = cell.empty() || cell[0] == ':';
    if (!period.empty()) {
      if (periods[i] == period) return missing ? std::nullopt : std::optional<std::size_t>(i);
      continue;
    }
    if (!missing) return i;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ImportFormat> sniff_statistics_format(const std::string& path) {
  if (is_standard_input(path)) return std::nullopt;
  // A FIFO, device or folder is never opened here (a FIFO would block): the CSV reader refuses
  // it by name.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const std::string start = trim(head.substr(0, 512));
  if (start.rfind("<?xml", 0) == 0 || start.rfind("<gesmes", 0) == 0) {
    if (head.find("eurofxref") != std::string::npos ||
        head.find("Reference rates") != std::string::npos) {
      return ImportFormat::ecb_xml;
    }
    return std::nullopt;
  }
  const std::string first = head.substr(0, head.find('\n'));
  if (first.find('\t') != std::string::npos && (first.find("\\TIME_PERIOD") != std::string::npos ||
                                                first.find("\\time") != std::string::npos)) {
    return ImportFormat::eurostat_tsv;
  }
  return std::nullopt;
}

bool is_eia_retail_sales(const std::vector<std::string>& header) {
  const auto has = [&](std::string_view c) {
    return std::find(header.begin(), header.end(), c) != header.end();
  };
  return has("period") && has("stateid") && has("sectorid") && has("price");
}

std::vector<TariffRow> read_eurostat_tsv(const std::string& text, const std::string& file,
                                         const ImportOptions& options, Problems& problems,
                                         ImportReport& report) {
  std::vector<TariffRow> out;
  const std::vector<std::string> lines = lines_of(text);
  if (lines.empty()) {
    problems.add(1, "header", "file is empty");
    return out;
  }
  const auto tsv = eurostat_header(lines[0], options, problems);
  if (!tsv) return out;
  const std::vector<std::string>& header = tsv->cells;
  const std::vector<std::string>& dims = tsv->dims;
  const std::map<std::string, std::size_t>& dim = tsv->dim;
  const std::vector<std::string>& periods = tsv->periods;
  const std::string source = !options.source.empty()
                                 ? options.source
                                 : "Eurostat nrg_pc_205 (electricity prices for non-household "
                                   "consumers, bi-annual data), SDMX-TSV " +
                                       std::filesystem::path(file).filename().string();
  for (std::size_t n = 1; n < lines.size(); ++n) {
    const int line = static_cast<int>(n) + 1;
    if (trim(lines[n]).empty()) continue;
    ++report.rows_read;
    const std::vector<std::string> cells = split(lines[n], '\t');
    const std::vector<std::string> key = split(cells[0], ',');
    if (key.size() != dims.size() || cells.size() != header.size()) {
      problems.add(line, "row",
                   std::to_string(cells.size()) + " cells and " + std::to_string(key.size()) +
                       " dimension values, but the header has " + std::to_string(header.size()) +
                       " and " + std::to_string(dims.size()));
      continue;
    }
    const auto value_of = [&](const char* name) { return trim(key[dim.at(name)]); };
    if (dim.count("siec") != 0 && value_of("siec") != "E7000") {
      problems.add(line, "siec",
                   in_quotes(value_of("siec")) +
                       " is not electricity (E7000): import nrg_pc_205, not a gas price file");
      continue;
    }
    if (dim.count("unit") != 0 && value_of("unit") != "KWH") {
      ++report.not_selected;  // another unit of the same figures: not asked for
      continue;
    }
    if (value_of("nrg_cons") != options.band || value_of("tax") != options.tax ||
        value_of("currency") != "EUR") {
      ++report.not_selected;  // another band, tax level or currency: not asked for
      continue;
    }
    const std::string geo = value_of("geo");
    const std::optional<std::size_t> chosen = chosen_period(cells, periods, options.period);
    if (!chosen) {
      report.skipped_rows.push_back(
          {line, "geo", geo,
           options.period.empty()
               ? "no value in any period (':' missing or confidential)"
               : "no value in " + options.period + " (':' missing or confidential)"});
      ++report.skipped;
      continue;
    }
    const std::string cell = trim(cells[*chosen + 1]);
    const auto space = cell.find(' ');
    const std::string number = cell.substr(0, space);
    const std::string flags = space == std::string::npos ? "" : trim(cell.substr(space));
    const auto amount = parse_decimal(number);
    if (!amount || *amount <= 0) {
      problems.add(line, periods[*chosen], in_quotes(cell) + " is not a price per kWh");
      continue;
    }
    check_tariff(*amount, line, periods[*chosen], problems);
    const std::string region = region_of_geo(geo);
    std::string note = "band " + options.band + " (nrg_cons), " + options.tax +
                       " (tax); semester " + periods[*chosen] + " average";
    if (!flags.empty()) note += "; Eurostat flag " + flags + ": " + flag_words(flags);
    note += "; observed = the date the file was published or read (--observed-on)";
    out.push_back(
        {line, region + "-business", region, *amount, "EUR", options.observed_on, source, note});
  }
  return out;
}

std::vector<TariffRow> read_eia_csv(const CsvTable& csv, const ImportOptions& options,
                                    Problems& problems, ImportReport& report) {
  std::vector<TariffRow> out;
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < csv.header.size(); ++i) col[csv.header[i]] = i;
  const auto get = [&](const CsvRow& row, const char* name) -> std::string {
    const auto it = col.find(name);
    return it == col.end() ? std::string() : trim(row.fields[it->second]);
  };
  const std::string source = !options.source.empty()
                                 ? options.source
                                 : "U.S. EIA, electricity retail sales (average price to ultimate "
                                   "customers), retail-sales CSV " +
                                       std::filesystem::path(csv.path).filename().string();
  struct Latest {
    const CsvRow* row = nullptr;
    std::string period;
  };
  std::map<std::string, Latest> by_state;
  for (const CsvRow& row : csv.rows) {
    ++report.rows_read;
    if (auto wrong = row_width_problem(row.fields.size(), csv.header.size())) {
      problems.add(row.line, "row", *wrong);
      continue;
    }
    if (get(row, "sectorid") != options.sector) {
      ++report.not_selected;  // another sector: not asked for
      continue;
    }
    const std::string units = get(row, "price-units");
    if (!units.empty() && lower(units).find("cents per kilowatt") == std::string::npos) {
      problems.add(row.line, "price-units",
                   in_quotes(units) +
                       " is not cents per kilowatt-hour (the unit EIA publishes "
                       "retail prices in)");
      continue;
    }
    const std::string state = get(row, "stateid");
    const std::string period = get(row, "period");
    if (state.empty() || period.empty()) {
      problems.add(row.line, state.empty() ? "stateid" : "period", "required, but empty");
      continue;
    }
    Latest& latest = by_state[state];
    if (latest.row == nullptr || period > latest.period) latest = {&row, period};
  }
  for (const auto& [state, latest] : by_state) {
    const CsvRow& row = *latest.row;
    const std::string price = get(row, "price");
    const auto cents = parse_decimal(price);
    if (!cents || *cents <= 0) {
      report.skipped_rows.push_back(
          {row.line, "price", price, "no price in the latest period " + latest.period});
      ++report.skipped;
      continue;
    }
    const double amount = *cents / 100;
    check_tariff(amount, row.line, "price", problems);
    std::string sector = lower(get(row, "sectorName"));
    if (sector.empty()) sector = lower(options.sector);
    const std::string region = state == "US" ? "us" : "us-" + lower(state);
    std::string name = get(row, "stateDescription");
    out.push_back({row.line, region + "-" + sector, region, amount, "USD", options.observed_on,
                   source,
                   (name.empty() ? state : name) + ", " + sector + " sector, average price for " +
                       latest.period +
                       " (EIA: revenue divided by sales; the US has no VAT); published in "
                       "cents/kWh, converted / 100"});
  }
  std::sort(out.begin(), out.end(),
            [](const TariffRow& a, const TariffRow& b) { return a.line < b.line; });
  return out;
}

std::vector<FxRow> read_ecb_xml(const std::string& text, const std::string& file,
                                const ImportOptions& options,
                                const std::vector<std::string>& currencies, Problems& problems,
                                ImportReport& report) {
  std::vector<FxRow> out;
  const std::set<std::string, std::less<>> known(currencies.begin(), currencies.end());
  const std::string source = !options.source.empty()
                                 ? options.source
                                 : "ECB euro foreign exchange reference rates, " +
                                       std::filesystem::path(file).filename().string();
  // The value of attribute `name` in `line` ('...' or "..."), "" when absent.
  const auto attribute = [](const std::string& line, std::string_view name) -> std::string {
    for (std::size_t at = line.find(name); at != std::string::npos; at = line.find(name, at + 1)) {
      std::size_t i = at + name.size();
      while (i < line.size() && line[i] == ' ') ++i;
      if (i >= line.size() || line[i] != '=') continue;
      ++i;
      while (i < line.size() && line[i] == ' ') ++i;
      if (i >= line.size() || (line[i] != '\'' && line[i] != '"')) continue;
      const char quote = line[i];
      const auto end = line.find(quote, i + 1);
      if (end == std::string::npos) return "";
      return line.substr(i + 1, end - i - 1);
    }
    return "";
  };
  std::string day;
  int days = 0;
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const int line = static_cast<int>(n) + 1;
    // One element per line in the ECB's files; a line may also hold a day and its rates.
    for (std::size_t at = lines[n].find("<Cube"); at != std::string::npos;
         at = lines[n].find("<Cube", at + 1)) {
      const auto end = lines[n].find('>', at);
      const std::string element = lines[n].substr(at, end == std::string::npos ? end : end - at);
      const std::string time = attribute(element, " time");
      if (!time.empty()) {
        if (!is_iso_date(time)) {
          problems.add(line, "time", in_quotes(time) + " is not a date YYYY-MM-DD");
          day.clear();
          continue;
        }
        day = time;
        ++days;
        if (day > options.as_of) {
          problems.add(line, "time",
                       day + " is after the import date " + options.as_of +
                           " (--as-of, default today): a rate cannot be observed in the future");
        }
        continue;
      }
      const std::string currency = attribute(element, " currency");
      if (currency.empty()) continue;
      const std::string rate_text = attribute(element, " rate");
      if (day.empty()) {
        problems.add(line, "currency", "a rate outside a <Cube time='...'> day");
        continue;
      }
      if (!options.since.empty() && day < options.since) continue;
      ++report.rows_read;
      const auto rate = parse_decimal(rate_text);
      if (!rate || *rate <= 0) {
        problems.add(line, "rate", in_quotes(rate_text) + " is not a positive rate");
        continue;
      }
      if (known.count(currency) == 0) {
        report.skipped_rows.push_back(
            {line, "currency", currency,
             "not an active ISO 4217 currency of the catalog (withdrawn: the catalog prices in "
             "none)"});
        ++report.skipped;
        continue;
      }
      out.push_back({line, "EUR", currency, *rate, day, source});
    }
  }
  if (days == 0) {
    problems.add(1, "Cube",
                 "no <Cube time='YYYY-MM-DD'> day: not an ECB reference rates file "
                 "(eurofxref-daily.xml, eurofxref-hist-90d.xml, eurofxref-hist.xml)");
  }
  return out;
}

namespace {

// Writes `rows` (one CellValue vector per row, in `columns` order) into main.`table`, `key`
// naming the key columns; see write_tariffs.
void write_rows(const std::string& db_path, const std::string& table,
                const std::vector<std::string>& columns, const std::vector<std::string>& key,
                const std::vector<std::pair<int, std::vector<CellValue>>>& rows, Problems& problems,
                ImportReport& report) {
  std::optional<SQLite::Transaction> transaction;
  const auto db = open_for_import(db_path, transaction);
  try {
    std::string list;
    std::string params;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      list += (i ? ", " : "") + columns[i];
      params += (i ? ", ?" : "?") + std::to_string(i + 1);
    }
    std::string match;
    std::vector<std::size_t> key_at;
    for (const std::string& k : key) {
      const auto i = static_cast<std::size_t>(column_index(columns, k));
      key_at.push_back(i);
      match += (match.empty() ? "" : " AND ") + k + " = ?" + std::to_string(key_at.size());
    }
    // Table and column names are this file's constants, never data.
    SQLite::Statement insert(*db, "INSERT INTO main." + table + " (" + list + ") VALUES (" +
                                      params + ") ON CONFLICT DO NOTHING");
    SQLite::Statement existing(*db, "SELECT " + list + " FROM main." + table + " WHERE " + match);
    std::set<std::vector<std::string>> seen;
    for (const auto& [line, values] : rows) {
      std::vector<std::string> key_text;
      for (const std::size_t i : key_at) key_text.push_back(cell_text(values[i]));
      if (!seen.insert(key_text).second) {
        std::string joined;
        for (const auto& k : key_text) joined += (joined.empty() ? "" : ", ") + k;
        problems.add(line, "row", "the same " + table + " key (" + joined + ") twice in the file");
        continue;
      }
      insert.reset();
      insert.clearBindings();
      for (std::size_t i = 0; i < values.size(); ++i) {
        bind_value(insert, static_cast<int>(i) + 1, values[i]);
      }
      if (insert.exec() == 1) {
        ++report.inserted;
        continue;
      }
      existing.reset();
      existing.clearBindings();
      for (std::size_t k = 0; k < key_at.size(); ++k) {
        bind_value(existing, static_cast<int>(k) + 1, values[key_at[k]]);
      }
      if (!existing.executeStep()) continue;
      bool same = true;
      for (std::size_t i = 0; i < columns.size() && same; ++i) {
        const CellValue stored = column_value(existing.getColumn(static_cast<int>(i)));
        if (!same_value(stored, values[i])) {
          same = false;
          problems.add(line, columns[i],
                       "the catalog already holds this " + table + " row with " + columns[i] + " " +
                           in_quotes(cell_text(stored)) + ", not " +
                           in_quotes(cell_text(values[i])) +
                           " (an observation is never overwritten: give the new figure its own "
                           "date)");
        }
      }
      if (same) ++report.unchanged;
    }
    if (!problems.items.empty()) return;  // rolls back
    fault_injection_pause();
    transaction->commit();
  } catch (const SQLite::Exception& e) {
    throw CatalogError(db_path + ": cannot import: " + e.what());
  }
}

}  // namespace

void write_tariffs(const std::string& db_path, const std::vector<TariffRow>& rows,
                   Problems& problems, ImportReport& report) {
  std::vector<std::pair<int, std::vector<CellValue>>> values;
  for (const TariffRow& t : rows) {
    values.push_back(
        {t.line,
         {CellValue{t.id}, CellValue{t.region}, CellValue{t.amount_per_kwh}, CellValue{t.currency},
          CellValue{t.observed_on}, CellValue{t.source}, CellValue{t.note}}});
  }
  write_rows(db_path, "tariffs",
             {"id", "region", "amount_per_kwh", "currency", "observed_on", "source", "note"},
             {"id", "observed_on"}, values, problems, report);
}

void write_fx_rates(const std::string& db_path, const std::vector<FxRow>& rows, Problems& problems,
                    ImportReport& report) {
  std::vector<std::pair<int, std::vector<CellValue>>> values;
  for (const FxRow& r : rows) {
    values.push_back({r.line,
                      {CellValue{r.base}, CellValue{r.quote}, CellValue{r.rate},
                       CellValue{r.observed_on}, CellValue{r.source}}});
  }
  write_rows(db_path, "fx_rates", {"base", "quote", "rate", "observed_on", "source"},
             {"base", "quote", "observed_on"}, values, problems, report);
}

void import_statistics(const std::string& db_path, const std::string& path, const std::string& file,
                       ImportFormat format, CsvTable* csv, const ImportOptions& options,
                       ImportReport& report, const std::function<void()>& cleanup) {
  Problems problems{file, {}};
  std::vector<std::string> option_problems;
  if (format != ImportFormat::ecb_xml) {
    const std::string observed_on = import_detail::observed_on_problem(
        options.observed_on, options.as_of,
        to_string(format) +
            " files, whose figures carry no date of publication (the date the file was "
            "published or downloaded)",
        "a figure");
    if (!observed_on.empty()) option_problems.push_back(observed_on);
  }
  if (!options.since.empty() && !is_iso_date(options.since)) {
    option_problems.push_back("--since: " + in_quotes(options.since) + " is not a date YYYY-MM-DD");
  }
  if (!option_problems.empty()) throw ImportError(option_problems);
  std::vector<TariffRow> tariffs;
  std::vector<FxRow> rates;
  if (format == ImportFormat::eia_csv) {
    tariffs = read_eia_csv(*csv, options, problems, report);
  } else {
    std::string text;
    try {
      text = read_input_file(path, kMaxCsvFileBytes, "price file");
    } catch (const InputFileError& e) {
      throw ImportError({file + ": " + e.what()});
    }
    if (format == ImportFormat::eurostat_tsv) {
      tariffs = read_eurostat_tsv(text, file, options, problems, report);
    } else {
      std::vector<std::string> currencies;
      auto builtin = open_builtin_database();
      SQLite::Statement q(*builtin, "SELECT code FROM currencies ORDER BY code");
      while (q.executeStep()) currencies.push_back(q.getColumn(0).getString());
      rates = read_ecb_xml(text, file, options, currencies, problems, report);
    }
  }
  if (!problems.items.empty()) throw ImportError(problems.sorted());
  std::stable_sort(report.skipped_rows.begin(), report.skipped_rows.end(),
                   [](const SkippedRow& a, const SkippedRow& b) { return a.line < b.line; });
  if (report.skipped > 0 && !options.allow_skipped) {
    throw ImportIncomplete(skipped_summary(report, file), report.skipped);
  }
  try {
    if (format == ImportFormat::ecb_xml) {
      write_fx_rates(db_path, rates, problems, report);
    } else {
      write_tariffs(db_path, tariffs, problems, report);
    }
  } catch (...) {
    cleanup();
    throw;
  }
  if (!problems.items.empty()) {
    cleanup();
    throw ImportError(problems.sorted());
  }
}

}  // namespace gputco::import_detail
