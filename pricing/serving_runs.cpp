#include "pricing/serving_runs.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <optional>

#include "pricing/catalog_file.hpp"
#include "pricing/catalog_guard.hpp"
#include "pricing/catalog_import_steps.hpp"

namespace gputco {

namespace {

using catalog_detail::guarded;

constexpr const char* kColumns =
    "id, file_name, file_sha256, run_index, format, model_id, quant, kv_cache, device_id, "
    "gpu_count, tp, pp, engine, engine_version, input_tokens, output_tokens, concurrency, "
    "output_tokens_per_s, mean_tpot_ms, mean_ttft_ms, p99_tpot_ms, p99_ttft_ms, "
    "prefill_tokens_per_s, duration_s, requests, measured_on";

MeasuredServingRun read_run(SQLite::Statement& q) {
  MeasuredServingRun r;
  int i = 0;
  r.id = "run-" + std::to_string(q.getColumn(i++).getInt64());
  r.file_name = q.getColumn(i++).getString();
  r.file_sha256 = q.getColumn(i++).getString();
  r.index_in_file = q.getColumn(i++).getInt();
  r.format = q.getColumn(i++).getString();
  r.model_id = q.getColumn(i++).getString();
  r.quant = q.getColumn(i++).getString();
  r.kv_cache = q.getColumn(i++).getString();
  r.device_id = q.getColumn(i++).getString();
  r.gpu_count = q.getColumn(i++).getInt();
  r.tp = q.getColumn(i++).getInt();
  r.pp = q.getColumn(i++).getInt();
  r.engine = parse_serving_engine(q.getColumn(i++).getString()).value_or(ServingEngine::vllm);
  r.engine_version = q.getColumn(i++).getString();
  r.input_tokens = q.getColumn(i++).getDouble();
  r.output_tokens = q.getColumn(i++).getDouble();
  r.concurrency = q.getColumn(i++).getDouble();
  r.output_tokens_per_s = q.getColumn(i++).getDouble();
  r.mean_tpot_ms = q.getColumn(i++).getDouble();
  r.mean_ttft_ms = q.getColumn(i++).getDouble();
  r.p99_tpot_ms = q.getColumn(i++).getDouble();
  r.p99_ttft_ms = q.getColumn(i++).getDouble();
  r.prefill_tokens_per_s = q.getColumn(i++).getDouble();
  r.duration_s = q.getColumn(i++).getDouble();
  r.requests = q.getColumn(i++).getInt();
  r.measured_on = q.getColumn(i++).getString();
  return r;
}

/// The fields of two runs of one file and index that differ, "field: stored X, now Y".
std::vector<std::string> differences(const MeasuredServingRun& stored,
                                     const MeasuredServingRun& fresh) {
  std::vector<std::string> out;
  const auto text = [&](const char* field, const std::string& a, const std::string& b) {
    if (a != b) out.push_back(fmt::format("{}: stored '{}', now '{}'", field, a, b));
  };
  const auto number = [&](const char* field, double a, double b) {
    if (std::abs(a - b) > 1e-9 * std::max(std::abs(a), std::abs(b))) {
      out.push_back(fmt::format("{}: stored {}, now {}", field, a, b));
    }
  };
  text("model", stored.model_id, fresh.model_id);
  text("quant", stored.quant, fresh.quant);
  text("kv_cache", stored.kv_cache, fresh.kv_cache);
  text("gpu", stored.device_id, fresh.device_id);
  number("gpu_count", stored.gpu_count, fresh.gpu_count);
  number("tp", stored.tp, fresh.tp);
  number("pp", stored.pp, fresh.pp);
  text("engine", to_string(stored.engine), to_string(fresh.engine));
  text("engine_version", stored.engine_version, fresh.engine_version);
  text("measured_on", stored.measured_on, fresh.measured_on);
  number("concurrency", stored.concurrency, fresh.concurrency);
  number("output_tokens_per_s", stored.output_tokens_per_s, fresh.output_tokens_per_s);
  return out;
}

/// The row id a selector "run-12" or "12" names; nullopt for anything else.
std::optional<long long> run_id(const std::string& selector) {
  std::string digits = selector.rfind("run-", 0) == 0 ? selector.substr(4) : selector;
  if (digits.empty() || digits.size() > 15 ||
      !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return std::nullopt;
  }
  return std::stoll(digits);
}

}  // namespace

std::vector<MeasuredServingRun> Catalog::serving_runs(const std::string& model_id) const {
  return guarded("reading the measured serving runs", [&] {
    SQLite::Statement q(*db_, std::string("SELECT ") + kColumns +
                                  " FROM layered_serving_runs WHERE ?1 = '' OR "
                                  "lower(model_id) = lower(?1) ORDER BY id");
    q.bind(1, model_id);
    std::vector<MeasuredServingRun> out;
    while (q.executeStep()) out.push_back(read_run(q));
    return out;
  });
}

ServingRunsStored store_serving_runs(const std::string& db_path,
                                     const std::vector<MeasuredServingRun>& runs,
                                     const std::string& imported_on) {
  std::optional<SQLite::Transaction> transaction;
  std::unique_ptr<SQLite::Database> db = import_detail::open_for_import(db_path, transaction);
  ServingRunsStored result;
  std::vector<std::string> problems;
  try {
    SQLite::Statement existing(*db, std::string("SELECT ") + kColumns +
                                        " FROM main.serving_runs WHERE file_sha256 = ?1 AND "
                                        "run_index = ?2");
    SQLite::Statement insert(
        *db,
        "INSERT INTO main.serving_runs (file_name, file_sha256, run_index, format, model_id, "
        "quant, kv_cache, device_id, gpu_count, tp, pp, engine, engine_version, input_tokens, "
        "output_tokens, concurrency, output_tokens_per_s, mean_tpot_ms, mean_ttft_ms, "
        "p99_tpot_ms, p99_ttft_ms, prefill_tokens_per_s, duration_s, requests, measured_on, "
        "imported_on) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
        "?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)");
    for (const MeasuredServingRun& run : runs) {
      MeasuredServingRun stored_run = run;
      existing.reset();
      existing.bind(1, run.file_sha256);
      existing.bind(2, run.index_in_file);
      if (existing.executeStep()) {
        const MeasuredServingRun stored = read_run(existing);
        const auto diff = differences(stored, run);
        for (const auto& d : diff) {
          problems.push_back(
              fmt::format("{} (run {}): stored as {} with other values: {}; "
                          "remove it first (gputco calibrate --remove {})",
                          run.file_name, run.index_in_file + 1, stored.id, d, stored.id));
        }
        if (diff.empty()) ++result.unchanged;
        stored_run.id = stored.id;
        result.runs.push_back(stored_run);
        continue;
      }
      insert.reset();
      insert.clearBindings();
      int i = 1;
      insert.bind(i++, run.file_name);
      insert.bind(i++, run.file_sha256);
      insert.bind(i++, run.index_in_file);
      insert.bind(i++, run.format);
      insert.bind(i++, run.model_id);
      insert.bind(i++, run.quant);
      insert.bind(i++, run.kv_cache);
      insert.bind(i++, run.device_id);
      insert.bind(i++, run.gpu_count);
      insert.bind(i++, run.tp);
      insert.bind(i++, run.pp);
      insert.bind(i++, to_string(run.engine));
      insert.bind(i++, run.engine_version);
      insert.bind(i++, run.input_tokens);
      insert.bind(i++, run.output_tokens);
      insert.bind(i++, run.concurrency);
      insert.bind(i++, run.output_tokens_per_s);
      insert.bind(i++, run.mean_tpot_ms);
      insert.bind(i++, run.mean_ttft_ms);
      insert.bind(i++, run.p99_tpot_ms);
      insert.bind(i++, run.p99_ttft_ms);
      insert.bind(i++, run.prefill_tokens_per_s);
      insert.bind(i++, run.duration_s);
      insert.bind(i++, run.requests);
      insert.bind(i++, run.measured_on);
      insert.bind(i++, imported_on);
      insert.exec();
      stored_run.id = "run-" + std::to_string(db->getLastInsertRowid());
      result.runs.push_back(stored_run);
      ++result.inserted;
    }
    if (!problems.empty()) {
      transaction.reset();
      throw ImportError(problems);
    }
    import_detail::fault_injection_pause();
    transaction->commit();
  } catch (const SQLite::Exception& e) {
    transaction.reset();
    throw_catalog_file_error(db_path, "cannot store the runs", e.getErrorCode(), e.what());
  }
  return result;
}

std::vector<MeasuredServingRun> remove_serving_runs(const std::string& db_path,
                                                    const std::vector<std::string>& selectors) {
  std::error_code ec;
  if (!std::filesystem::exists(db_path, ec)) {
    std::vector<std::string> problems;
    for (const auto& s : selectors) problems.push_back(s + ": no runs stored (no user catalog)");
    throw ImportError(problems);
  }
  std::optional<SQLite::Transaction> transaction;
  std::unique_ptr<SQLite::Database> db = import_detail::open_for_import(db_path, transaction);
  std::vector<MeasuredServingRun> removed;
  std::vector<std::string> problems;
  try {
    SQLite::Statement select(*db, std::string("SELECT ") + kColumns +
                                      " FROM main.serving_runs WHERE id = ?1 OR file_name = ?2 "
                                      "OR (length(?2) >= 8 AND file_sha256 LIKE ?2 || '%') "
                                      "ORDER BY id");
    SQLite::Statement remove(*db, "DELETE FROM main.serving_runs WHERE id = ?1");
    std::vector<long long> ids;
    for (const std::string& selector : selectors) {
      select.reset();
      select.bind(1, static_cast<std::int64_t>(run_id(selector).value_or(-1)));
      select.bind(2, selector);
      int found = 0;
      while (select.executeStep()) {
        MeasuredServingRun r = read_run(select);
        const long long id = std::stoll(r.id.substr(4));
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
          ids.push_back(id);
          removed.push_back(r);
        }
        ++found;
      }
      if (found == 0) {
        problems.push_back(selector +
                           ": no stored run has this id, file name or SHA-256 (gputco calibrate "
                           "--list)");
      }
    }
    if (!problems.empty()) {
      transaction.reset();
      throw ImportError(problems);
    }
    for (long long id : ids) {
      remove.reset();
      remove.bind(1, static_cast<std::int64_t>(id));
      remove.exec();
    }
    transaction->commit();
  } catch (const SQLite::Exception& e) {
    transaction.reset();
    throw_catalog_file_error(db_path, "cannot remove the runs", e.getErrorCode(), e.what());
  }
  std::sort(removed.begin(), removed.end(), [](const auto& a, const auto& b) {
    return std::stoll(a.id.substr(4)) < std::stoll(b.id.substr(4));
  });
  return removed;
}

}  // namespace gputco
