#include "pricing/catalog_build.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <variant>

#include "engine/hardware/hardware.hpp"
#include "pricing/catalog_data_checks.hpp"
#include "pricing/catalog_data_spec.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/catalog_table.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/suggest.hpp"

namespace gputco {

namespace fs = std::filesystem;

namespace {

using namespace catalog_table;  // the typed rows of one file (catalog_table.hpp)

struct LoadedData {
  std::vector<Table> tables;  // in table_specs() order; absent optional files have no rows
  std::vector<std::string> problems;
};

LoadedData load_data(const std::string& data_dir) {
  LoadedData data;
  const fs::path dir(data_dir);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw CatalogError(data_dir + ": not a directory");

  std::vector<std::pair<std::string_view, Problems>> by_file;
  const auto currencies = known_currencies();
  for (const TableSpec& spec : table_specs()) {
    const std::string path = (dir / spec.file).string();
    Problems problems;
    if (fs::exists(path, ec)) {
      data.tables.push_back(load_table(spec, path, currencies, problems));
    } else {
      if (spec.required) problems.add(path, 0, "file", "missing (required)");
      data.tables.push_back(Table{&spec, path, {}});
    }
    by_file.emplace_back(spec.file, std::move(problems));
  }

  auto table = [&](std::string_view file) -> Table& {
    for (Table& t : data.tables) {
      if (t.spec->file == file) return t;
    }
    throw std::logic_error("no table " + std::string(file));
  };
  auto problems_of = [&](std::string_view file) -> Problems& {
    for (auto& [name, problems] : by_file) {
      if (name == file) return problems;
    }
    throw std::logic_error("no file " + std::string(file));
  };

  for (const Table& t : data.tables) check_duplicates(t, problems_of(t.spec->file));
  check_models(table("models.csv"), problems_of("models.csv"));
  check_hf_repos(table("models.csv"), problems_of("models.csv"));
  check_figures(table("models.csv"), kModelFigures, problems_of("models.csv"));
  check_figures(table("devices.csv"), kDeviceFigures, problems_of("devices.csv"));
  std::set<std::string, std::less<>> device_ids;
  const Table& devices = table("devices.csv");
  for (const Row& row : devices.rows) {
    // A row whose id has a problem (reported already) holds no id.
    if (devices.ok(row, {"id"})) device_ids.insert(devices.str(row, "id"));
  }
  check_device_refs(table("purchase_prices.csv"), "item_id", device_ids, devices,
                    problems_of("purchase_prices.csv"));
  check_device_refs(table("rental_offers.csv"), "device_id", device_ids, devices,
                    problems_of("rental_offers.csv"));
  check_rentals(table("rental_offers.csv"), problems_of("rental_offers.csv"));
  check_fx(table("fx_rates.csv"), problems_of("fx_rates.csv"));
  check_device_refs(table("systems.csv"), "device_id", device_ids, devices,
                    problems_of("systems.csv"));
  std::set<std::string, std::less<>> system_ids;
  const Table& systems = table("systems.csv");
  for (const Row& row : systems.rows) {
    if (systems.ok(row, {"id"})) system_ids.insert(systems.str(row, "id"));
  }
  check_nvlink_domains(systems, problems_of("systems.csv"));
  check_refs(table("system_prices.csv"), "system_id", system_ids, "system",
             "not an id of " + systems.path, problems_of("system_prices.csv"));
  std::set<std::string, std::less<>> model_ids;
  const Table& models = table("models.csv");
  for (const Row& row : models.rows) {
    if (models.ok(row, {"id"})) model_ids.insert(models.str(row, "id"));
  }
  check_api_prices(table("api_prices.csv"), model_ids, "not an id of " + models.path,
                   problems_of("api_prices.csv"));
  check_grid_carbon(table("grid_carbon.csv"), problems_of("grid_carbon.csv"));

  for (auto& [name, problems] : by_file) {
    std::stable_sort(problems.items.begin(), problems.items.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& item : problems.items) data.problems.push_back(std::move(item.second));
  }

  // Any other CSV is most likely a misnamed table: say so rather than ignore it.
  std::vector<std::string> strays;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".csv") continue;
    const std::string name = entry.path().filename().string();
    bool known = std::any_of(table_specs().begin(), table_specs().end(),
                             [&](const TableSpec& s) { return s.file == name; });
    if (!known) strays.push_back(entry.path().string());
  }
  if (ec) throw CatalogError(data_dir + ": cannot list directory: " + ec.message());
  std::sort(strays.begin(), strays.end());
  for (const std::string& stray : strays) {
    std::vector<std::string_view> files;
    for (const TableSpec& s : table_specs()) files.push_back(s.file);
    data.problems.push_back(stray + ":0: file: not a catalog table (expected one of " +
                            join(files, ", ") + ")");
  }
  return data;
}

void insert_rows(SQLite::Database& db, const Table& table, std::vector<std::string>& problems) {
  // Table and column names are the constants above, never data; values are bound.
  std::string columns;
  std::string params;
  for (const Column& column : table.spec->columns) {
    if (!columns.empty()) {
      columns += ", ";
      params += ", ";
    }
    columns += column.name;
    params += "?";
  }
  SQLite::Statement insert(db, "INSERT INTO " + std::string(table.spec->table) + " (" + columns +
                                   ") VALUES (" + params + ")");
  for (const Row& row : table.rows) {
    for (std::size_t i = 0; i < row.values.size(); ++i) {
      bind_value(insert, static_cast<int>(i + 1), row.values[i]);
    }
    try {
      insert.exec();
    } catch (const SQLite::Exception& e) {
      problems.push_back(table.path + ":" + std::to_string(row.line) +
                         ": row: rejected by the database: " + e.what());
    }
    insert.reset();
    insert.clearBindings();
  }
}

}  // namespace

CatalogBuildError::CatalogBuildError(std::vector<std::string> problems)
    : CatalogError([&] {
        std::string text;
        for (const auto& p : problems) text += p + "\n";
        text += std::to_string(problems.size()) +
                (problems.size() == 1 ? " problem" : " problems") + " in the catalog data";
        return text;
      }()),
      problems_(std::move(problems)) {}

bool is_iso_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  auto number = [&](std::size_t pos, std::size_t len) {
    int value = 0;
    std::from_chars(text.data() + pos, text.data() + pos + len, value);
    return value;
  };
  const std::chrono::year_month_day ymd{std::chrono::year{number(0, 4)},
                                        std::chrono::month{static_cast<unsigned>(number(5, 2))},
                                        std::chrono::day{static_cast<unsigned>(number(8, 2))}};
  return ymd.ok();
}

std::vector<std::string> check_catalog_data(const std::string& data_dir) {
  return load_data(data_dir).problems;
}

void build_catalog(const std::string& data_dir, const std::string& db_path) {
  LoadedData data = load_data(data_dir);
  if (!data.problems.empty()) throw CatalogBuildError(std::move(data.problems));

  const std::string tmp = db_path + ".tmp";
  std::error_code ec;
  fs::remove(tmp, ec);
  try {
    {
      SQLite::Database db(tmp, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
      create_catalog_schema(db);
      std::vector<std::string> problems;
      SQLite::Transaction transaction(db);
      for (const Table& table : data.tables) insert_rows(db, table, problems);
      if (!problems.empty()) throw CatalogBuildError(std::move(problems));
      transaction.commit();
      db.exec("VACUUM");
    }
    fs::rename(tmp, db_path);
  } catch (const SQLite::Exception& e) {
    fs::remove(tmp, ec);
    throw CatalogError(db_path + ": cannot write the catalog: " + e.what());
  } catch (const fs::filesystem_error& e) {
    fs::remove(tmp, ec);
    throw CatalogError(db_path + ": cannot write the catalog: " + e.what());
  } catch (...) {
    fs::remove(tmp, ec);
    throw;
  }
}

void bind_value(SQLite::Statement& q, int index, const CellValue& value) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          q.bind(index);
        } else {
          q.bind(index, v);
        }
      },
      value);
}

struct PriceFileReader::Impl {
  const TableSpec* spec = nullptr;
  CsvReader* csv = nullptr;
  std::set<std::string, std::less<>> currencies;
  const std::set<std::string, std::less<>>* device_ids = nullptr;
  std::string device_list;
  std::vector<std::pair<int, std::string>>* problems = nullptr;
  std::optional<std::vector<std::size_t>> positions;
  std::size_t header_size = 0;
  std::vector<std::string> columns;
  CsvRow record;  // reused: its fields' buffers are not given back between rows
};

PriceFileReader::PriceFileReader(std::string_view file_name, CsvReader& csv, const CsvRow& header,
                                 const std::set<std::string, std::less<>>& device_ids,
                                 std::string device_list,
                                 std::vector<std::pair<int, std::string>>& problems)
    : impl_(std::make_unique<Impl>()) {
  const auto& specs = table_specs();
  const auto spec = std::find_if(specs.begin(), specs.end(),
                                 [&](const TableSpec& s) { return s.file == file_name; });
  if (spec == specs.end() ||
      (file_name != "purchase_prices.csv" && file_name != "rental_offers.csv")) {
    throw std::invalid_argument("PriceFileReader: not a price file: " + std::string(file_name));
  }
  impl_->spec = &*spec;
  impl_->csv = &csv;
  impl_->currencies = known_currencies();
  impl_->device_ids = &device_ids;
  impl_->device_list = std::move(device_list);
  impl_->problems = &problems;
  impl_->header_size = header.fields.size();
  for (const Column& column : spec->columns) impl_->columns.emplace_back(column.name);
  Problems found;
  impl_->positions = header_positions(*spec, header.fields, header.line, csv.path(), found);
  for (auto& item : found.items) problems.push_back(std::move(item));
}

PriceFileReader::~PriceFileReader() = default;

bool PriceFileReader::header_ok() const {
  return impl_->positions.has_value();
}

const std::vector<std::string>& PriceFileReader::columns() const {
  return impl_->columns;
}

bool PriceFileReader::next(CheckedRow& out) {
  Impl& in = *impl_;
  if (!in.positions) return false;
  const std::string& path = in.csv->path();
  for (;;) {
    if (!in.csv->next(in.record)) return false;
    Problems found;
    auto row =
        convert_row(*in.spec, *in.positions, in.header_size, in.record, in.currencies, path, found);
    if (row) {
      Table table;  // one row: the accessors of Table
      table.spec = in.spec;
      table.path = path;
      const bool rental = in.spec->file == "rental_offers.csv";
      const std::string_view device_column = rental ? "device_id" : "item_id";
      if (table.ok(*row, {device_column})) {
        const std::string& id = table.str(*row, device_column);
        if (in.device_ids->find(id) == in.device_ids->end()) {
          found.add(path, row->line, device_column,
                    "unknown device " + in_quotes(id) + " (" + in.device_list + ")");
          row->valid[table.index(device_column)] = false;
        }
      }
      if (rental && table.ok(*row, {"term", "billing"}) && table.str(*row, "term") == "spot" &&
          table.str(*row, "billing") != "hourly") {
        found.add(path, row->line, "billing", "spot offers are billed hourly");
        row->valid[table.index("billing")] = false;
      }
      out.line = row->line;
      out.values = std::move(row->values);
      out.ok = std::all_of(row->valid.begin(), row->valid.end(), [](bool v) { return v; });
    }
    for (auto& item : found.items) in.problems->push_back(std::move(item));
    if (row) return true;
  }
}

CheckedTable check_reference_file(std::string_view file_name, CsvTable& csv,
                                  std::vector<std::pair<int, std::string>>& problems) {
  const auto& specs = table_specs();
  const auto spec = std::find_if(specs.begin(), specs.end(),
                                 [&](const TableSpec& s) { return s.file == file_name; });
  if (spec == specs.end() || (file_name != "devices.csv" && file_name != "models.csv")) {
    throw std::invalid_argument("check_reference_file: not devices.csv or models.csv: " +
                                std::string(file_name));
  }
  Problems found;
  Table table = load_table(*spec, csv, csv.path, known_currencies(), found);
  check_duplicates(table, found);
  if (file_name == "devices.csv") {
    check_figures(table, kDeviceFigures, found);
  } else {
    check_models(table, found);
    check_hf_repos(table, found);
    check_figures(table, kModelFigures, found);
  }
  for (auto& item : found.items) problems.push_back(std::move(item));
  CheckedTable out;
  for (const Column& column : spec->columns) out.columns.emplace_back(column.name);
  for (Row& row : table.rows) {
    const bool ok = std::all_of(row.valid.begin(), row.valid.end(), [](bool v) { return v; });
    out.rows.push_back({row.line, std::move(row.values), ok});
  }
  return out;
}

std::vector<std::string> data_file_columns(std::string_view file_name) {
  for (const TableSpec& spec : table_specs()) {
    if (spec.file != file_name) continue;
    std::vector<std::string> out;
    for (const Column& column : spec.columns) out.emplace_back(column.name);
    return out;
  }
  throw std::invalid_argument("no data file " + std::string(file_name));
}

std::set<std::string, std::less<>> catalog_currencies() {
  return known_currencies();
}

}  // namespace gputco
