// gputco catalog import FILE [--book NAME] [--catalog DB] ... and
// gputco catalog export [prices|rentals] [--book NAME] [-o FILE] [--catalog DB]
#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>

#include "cli/catalog_actions.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "pricing/catalog_export.hpp"
#include "pricing/catalog_import.hpp"
#include "pricing/visible_text.hpp"
#include "reports/atomic_file.hpp"
#include "scenarios/dates.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

// Today's date (UTC). Only the import's "observed in the future" check reads it, and only
// when --as-of is not given; it never reaches a stored value or a result.
std::string today_utc() {
  const auto now = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  return format_date(std::chrono::year_month_day{now});
}

}  // namespace

int catalog_import(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description visible(
      "usage: gputco catalog import FILE [options]\n\n"
      "Imports a price file into a price book of the user catalog (created on first import),\n"
      "layered over the built-in catalog by plan, fit and catalog list/show. The format is told\n"
      "by the header: purchase_prices.csv or rental_offers.csv as in pricing/data/README.md,\n"
      "a SkyPilot catalog vms.csv, or a gpuhunt catalog CSV; tariffs from Eurostat's nrg_pc_205\n"
      "TSV or EIA's retail-sales CSV (with --observed-on), exchange rates from the ECB's\n"
      "eurofxref XML (daily, 90 days or the whole history), each read as published; or\n"
      "devices.csv or models.csv:\n"
      "devices and models of your own, then usable by id in plan, fit and throughput (not a\n"
      "built-in id; a source and date in every row). Every row is checked; a file\n"
      "with any problem is rejected whole (each problem printed as FILE:LINE: column: problem,\n"
      "exit code 2) and nothing changes. Importing the same file again changes nothing.\n\n"
      "options");
  std::string file, catalog_path;
  ImportOptions options;
  visible.add_options()("help,h", "this text")("book", po::value(&options.book)->value_name("NAME"),
                                               "price book to import into (default: "
                                               "default)")(
      "catalog", po::value(&catalog_path)->value_name("DB"),
      "user catalog to write (default: the config file's [catalog] path, else "
      "$XDG_DATA_HOME/gputco/catalog.sqlite, else ~/.local/share/gputco/catalog.sqlite)")(
      "as-of", po::value(&options.as_of)->value_name("DATE"),
      "rows observed after this date are rejected as in the future (default: today, UTC; the "
      "only use of the clock)")(
      "observed-on", po::value(&options.observed_on)->value_name("DATE"),
      "SkyPilot/gpuhunt files: the date their prices were read; Eurostat TSV and EIA CSV: the "
      "date the file was published or downloaded (required for them)")(
      "provider", po::value(&options.provider)->value_name("NAME"),
      "SkyPilot/gpuhunt files: the provider (default: from the file name; vms.csv: its folder)")(
      "source", po::value(&options.source)->value_name("TEXT"),
      "SkyPilot/gpuhunt files: the source of every row (default: format, provider, file name)")(
      "accept-outliers", po::bool_switch(&options.accept_outliers),
      "import rows that fail a plausibility check (far from the dated median of their item, "
      "or used above new) instead of refusing the file; plans that use them say so")(
      "band", po::value(&options.band)->value_name("NRG_CONS"),
      "Eurostat TSV: the consumption band (default MWH500-1999: band IC, as the built-in "
      "tariffs)")("tax", po::value(&options.tax)->value_name("TAX"),
                  "Eurostat TSV: the tax level (default X_VAT: excluding VAT and other "
                  "recoverable taxes)")(
      "period", po::value(&options.period)->value_name("YYYY-SN"),
      "Eurostat TSV: the semester (default: each country's latest with a value)")(
      "sector", po::value(&options.sector)->value_name("ID"),
      "EIA CSV: the sector (COM commercial, default; IND, RES, ALL)")(
      "since", po::value(&options.since)->value_name("DATE"),
      "ECB XML: only the days on or after DATE (default: every day of the file)")(
      "allow-skipped", po::bool_switch(&options.allow_skipped),
      "SkyPilot/gpuhunt files: import the other rows when some rows with an accelerator "
      "cannot be (not a catalog device, a TPU, a share of a device, no price); statistics "
      "files: when some rows have no value or a withdrawn currency; without it such a file is "
      "refused, every such row named, exit code 1");
  auto vm = parse_arguments(args, visible, {{"file", &file}});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (file.empty()) {
    err << visible << "\n";
    return 2;
  }
  if (options.as_of.empty()) options.as_of = today_utc();
  require_date_option("--as-of", options.as_of);
  const std::string db = user_catalog_path(catalog_path);
  check_catalog_destination(db, file);
  ImportReport report;
  try {
    report = import_price_book(db, file, options);
  } catch (const ImportError& e) {
    for (const auto& problem : e.problems()) err << visible_text(problem) << "\n";
    err << "gputco: " << e.problems().size()
        << (e.problems().size() == 1 ? " problem" : " problems") << " in " << file
        << "; nothing imported\n";
    return 2;
  } catch (const ImportIncomplete& e) {
    for (const auto& line : e.summary()) err << "skipped: " << visible_text(line) << "\n";
    err << "gputco: " << e.skipped() << (e.skipped() == 1 ? " row" : " rows")
        << " cannot be imported from " << file
        << "; nothing imported (--allow-skipped imports the other rows)\n";
    return 1;
  }
  // Skipped rows (with --allow-skipped), then the book's plausibility findings (catalog check
  // reports the same as problems): imported, but worth a look.
  for (const auto& line : skipped_summary(report, file)) {
    err << "skipped: " << visible_text(line) << "\n";
  }
  for (const auto& warning : report.warnings) err << "warning: " << visible_text(warning) << "\n";
  if (report.format == ImportFormat::eurostat_tsv || report.format == ImportFormat::eia_csv ||
      report.format == ImportFormat::ecb_xml) {
    // Tariffs and exchange rates are the database's, shared by its books.
    out << "imported " << file << " (" << to_string(report.format) << ") into " << db << ": "
        << (report.format == ImportFormat::ecb_xml ? "rates" : "tariffs") << ": "
        << report.rows_read << " rows read, " << report.inserted << " added, " << report.unchanged
        << " unchanged, " << report.skipped << " skipped";
    if (report.not_selected > 0) {
      out << ", " << report.not_selected
          << (report.format == ImportFormat::eia_csv ? " of other sectors"
                                                     : " of other bands, taxes or currencies");
    }
    out << "\n";
    return 0;
  }
  if (report.format == ImportFormat::devices || report.format == ImportFormat::models) {
    // Devices and models are the database's, shared by its books.
    out << "imported " << file << " (" << to_string(report.format) << ") into " << db << ": "
        << report.rows_read << " rows read, " << report.inserted << " added, " << report.unchanged
        << " unchanged\n";
    return 0;
  }
  out << "imported " << file << " (" << to_string(report.format) << ") into book '" << report.book
      << "' of " << db << ": " << report.rows_read << " rows read, " << report.inserted
      << " added, " << report.unchanged << " unchanged, " << report.skipped << " skipped";
  if (report.without_accelerator > 0) {
    out << ", " << report.without_accelerator << " without an accelerator (CPU-only or host VM)";
  }
  out << "\n";
  return 0;
}

int catalog_export(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
  po::options_description visible(
      "usage: gputco catalog export [prices|rentals] [options]\n\n"
      "Writes the purchase prices or rental offers of a price book as CSV in the format of\n"
      "pricing/data/README.md, importable again. Without prices|rentals: the one kind the\n"
      "selection holds. --book built-in exports the built-in catalog's rows.\n\n"
      "options");
  std::string what, book, output, catalog_path;
  visible.add_options()("help,h", "this text")("book", po::value(&book)->value_name("NAME"),
                                               "the book to export (default: every book)")(
      "output,o", po::value(&output)->value_name("FILE"), "file to write (default: stdout)")(
      "catalog", po::value(&catalog_path)->value_name("DB"),
      "user catalog to read (default: the config file's [catalog] path, else the XDG one)");
  auto vm = parse_arguments(args, visible, {{"what", &what}});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (!what.empty() && what != "prices" && what != "rentals") {
    throw UsageError("catalog export: expected prices or rentals, got '" + what + "'");
  }
  if (vm.count("output") && output.empty()) {  // -o "$OUT" with OUT unset: not stdout
    throw UsageError(
        "catalog export: --output is empty; give a file name (or leave -o out "
        "for stdout)");
  }
  if (!output.empty()) {
    // Refused before any work: -o naming the catalog itself, a directory or a FIFO.
    const std::vector<CommandInput> inputs =
        book == kBuiltinBook
            ? std::vector<CommandInput>{}
            : std::vector<CommandInput>{{"the catalog", user_catalog_path(catalog_path)}};
    check_output_path(output, inputs);
  }
  auto export_kind = [&](ImportFormat format) {
    if (book == kBuiltinBook) return export_builtin_prices(format);
    const std::string db = user_catalog_path(catalog_path);
    try {
      return export_price_book(db, format, book);
    } catch (const CatalogLocked&) {
      throw;  // exit 1: try again later
    } catch (const CatalogError& e) {
      throw UsageError(std::string("catalog export: ") + e.what());
    }
  };
  auto rows = [](const std::string& csv) { return std::count(csv.begin(), csv.end(), '\n') - 1; };
  std::string csv;
  if (what == "prices") {
    csv = export_kind(ImportFormat::purchase_prices);
  } else if (what == "rentals") {
    csv = export_kind(ImportFormat::rental_offers);
  } else {
    const std::string prices = export_kind(ImportFormat::purchase_prices);
    const std::string rentals = export_kind(ImportFormat::rental_offers);
    if (rows(prices) > 0 && rows(rentals) > 0) {
      throw UsageError(
          "catalog export: the selection holds purchase prices and rental offers; say which "
          "(gputco catalog export prices|rentals)");
    }
    csv = rows(rentals) > 0 ? rentals : prices;
  }
  if (!book.empty() && book != kBuiltinBook && rows(csv) == 0) {
    throw UsageError("catalog export: the book '" + book + "' holds no such rows");
  }
  if (output.empty()) {
    out << csv;
  } else {
    write_text_file_atomically(output, csv);
  }
  return 0;
}

}  // namespace gputco::cli
