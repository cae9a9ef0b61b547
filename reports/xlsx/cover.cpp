// The Cover: the page a customer reads first. Who offers it and for whom, which quote, how old
// the prices are and how long the figures hold, the basis (currency, VAT, paper), the option
// proposed and the recommendation beside it, one status line, the seller's terms and what the
// figures are not.
#include <fmt/format.h>

#include <cstdio>

#include "engine/money/instalment.hpp"

#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

/// A rate as typed: percent with the decimals it has (0.0305 -> "3.05 %", 0.065 -> "6.5 %"),
/// never rounded to one decimal (issue #37: "3.1%" on a lease of 3.05 % a month).
std::string rate_as_typed(double fraction) {
  std::string text = fmt::format("{:.4f}", fraction * 100);
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text + " %";
}

/// "lease: 36 instalments, 3.05 % of the hardware price a month" or "loan: 36 instalments at
/// 6.5 % a year".
std::string instalment_terms(const FinancingInstalment& instalment) {
  return instalment.financing == Financing::lease
             ? "lease: " + std::to_string(instalment.months) + " instalments, " +
                   rate_as_typed(instalment.rate) + " of the hardware price a month"
             : "loan: " + std::to_string(instalment.months) + " instalments at " +
                   rate_as_typed(instalment.rate) + " a year";
}

std::string paper_name(const ResolvedScenario& scenario) {
  return std::string(scenario.paper == "letter" ? "Letter" : "A4") + " (" + scenario.paper_reason +
         "), one page wide";
}

/// The status line's words, as its formula writes them (same text, for the cached value and
/// the quote): the checks, the prices older than allowed, and whether an input changed the
/// recommendation since gputco wrote the workbook.
std::string status_text(bool checks_pass, size_t stale, size_t prices, int max_age_days,
                        bool quote) {
  std::string text =
      checks_pass
          ? (quote ? "All checks pass (in the full workbook)" : "All checks pass")
          : (quote ? "CHECKS FAIL (in the full workbook)" : "CHECKS FAIL (see the Checks sheet)");
  const std::string age = std::to_string(max_age_days);
  if (prices == 0) return text + "; no catalog prices";
  if (stale == 0) return text + "; no price older than " + age + " days";
  return text + "; " + std::to_string(stale) + " of " + std::to_string(prices) +
         " prices older than " + age + " days (see Sources)";
}

}  // namespace

CoverLayout write_cover_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                              const Plan& plan, const ResolvedScenario& scenario,
                              const SummaryLayout& summary, const SourcesLayout& sources,
                              const CoverStatus& status) {
  CoverLayout layout;
  const lxw_col_t label = 0, value = 1, note = 2;
  layout.value_col = value;
  sheet.text(0, 0, "Total cost of ownership", formats.title);
  sheet.text(1, 0, scenario.name, formats.subtitle);
  if (!scenario.seller.logo_path.empty() && scenario.seller.logo_height_px > 0) {
    // The seller's logo at the top right, at most 60 pixels tall and 240 wide.
    lxw_image_options image{};
    const double scale = std::min({1.0, 60.0 / scenario.seller.logo_height_px,
                                   240.0 / std::max(1, scenario.seller.logo_width_px)});
    image.x_scale = image.y_scale = scale;
    image.object_position = LXW_OBJECT_MOVE_DONT_SIZE;
    // At the right edge of the note column (55 characters, about 390 pixels).
    image.x_offset = static_cast<int32_t>(
        std::max(0.0, 390.0 - scale * std::max(1, scenario.seller.logo_width_px)));
    check_xlsx(
        worksheet_insert_image_opt(sheet.raw(), 0, note, scenario.seller.logo_path.c_str(), &image),
        "inserting the seller's logo " + scenario.seller.logo_path);
  }

  lxw_row_t row = 3;
  const auto key = [&](const char* text) { sheet.text(row, label, text, formats.label); };
  if (!scenario.seller.company.empty()) {
    key("Prepared by");
    sheet.text(row++, value, scenario.seller.company);
  }
  if (!scenario.seller.contact.empty()) {
    key("Contact");
    sheet.text(row++, value, scenario.seller.contact);
  }
  key("Customer");
  sheet.text(row++, value, scenario.customer);
  key("Quote");
  sheet.text(row++, value, scenario.quote_id);
  key("Scenario");
  sheet.text(row++, value, scenario.name);
  ++row;

  key("Prices as of");
  layout.as_of_row = row;
  const auto as_of = parse_iso_date(scenario.as_of);
  if (as_of) {
    sheet.date(row, value, *as_of, formats.date);
    check_xlsx(workbook_define_name(workbook, kPricesAsOfName,
                                    ("=" + sheet_cell_ref(kCoverSheet, row, value)).c_str()),
               std::string("defining the workbook name ") + kPricesAsOfName);
  } else {
    sheet.text(row, value, scenario.as_of);
  }
  const lxw_row_t as_of_row = row++;
  key("Valid for");
  const int valid_days = quote_valid_days(scenario);
  sheet.number(row, value, valid_days, formats.days);
  const lxw_row_t valid_row = row++;
  key("Valid until");
  if (as_of) {
    // The cached result: as_of + valid_days, by the serial arithmetic the formula does.
    sheet.formula(row, value, "=" + cell_ref(as_of_row, value) + "+" + cell_ref(valid_row, value),
                  date_serial(as_of->year, as_of->month, as_of->day) + valid_days, formats.date);
  } else {
    sheet.text(row, value, kNotAvailable);
  }
  row += 2;

  key("Currency");
  sheet.text(row++, value, plan.currency);
  key("VAT basis");
  sheet.text(row++, value, vat_basis_label(scenario.plan_inputs.finance));
  key("Horizon");
  sheet.number(row++, value, plan.horizon_months, formats.months);
  key("First month");
  sheet.text(row++, value, scenario.start);
  key("Paper");
  sheet.text(row++, value, paper_name(scenario));
  ++row;

  // An option's figures, found by its name in the Summary's options table.
  const auto last = static_cast<lxw_row_t>(summary.first_option_row +
                                           (plan.options.empty() ? 0 : plan.options.size() - 1));
  const auto of_named = [&](lxw_row_t name_row, lxw_col_t col) {
    return "=INDEX(" + sheet_range_ref(kSummarySheet, summary.first_option_row, col, last, col) +
           ",MATCH(" + cell_ref(name_row, value) + "," +
           sheet_range_ref(kSummarySheet, summary.first_option_row, summary.option_col, last,
                           summary.option_col) +
           ",0))";
  };
  const auto index_of = [&](const std::string& id) {
    for (size_t i = 0; i < plan.options.size(); ++i) {
      if (plan.options[i].id == id) return i;
    }
    return plan.options.size();
  };
  const size_t proposed = index_of(scenario.proposed_option_id);
  const size_t recommended = index_of(plan.recommendation.value_or(""));
  lxw_row_t proposed_row = 0;
  if (proposed < plan.options.size()) {
    // The seller's choice first, as the seller offers it; the recommendation beside it.
    key("Proposed");
    proposed_row = row;
    sheet.text(row++, value, option_label(scenario, scenario.proposed_option_id),
               formats.highlight);
    key("Its total cost over the horizon");
    sheet.formula(row++, value, of_named(proposed_row, summary.total_col),
                  plan.options[proposed].total_cost, formats.money_whole_left);
    key("Its NPV of cost");
    sheet.formula(row++, value, of_named(proposed_row, summary.npv_col), plan.options[proposed].npv,
                  formats.money_whole_left);
    // What the customer signs for, on a loan or a lease (engine/money/instalment.hpp).
    if (const OptionInputs* inputs = find_option_inputs(scenario, scenario.proposed_option_id)) {
      if (const auto instalment = financing_instalment(*inputs, plan.options[proposed].cash_flow)) {
        key("Monthly instalment");
        sheet.number(row, value, instalment->per_month, formats.money_whole_left);
        sheet.text(row++, note, instalment_terms(*instalment), formats.note);
        if (instalment->down_payment > 0) {
          key("Down payment");
          sheet.number(row++, value, instalment->down_payment, formats.money_whole_left);
        }
      }
    }
    ++row;
  }
  key("Recommendation");
  const lxw_row_t recommendation_row = row;
  sheet.formula_text(
      row++, value,
      "=" + sheet_cell_ref(kSummarySheet, summary.recommendation_row, summary.value_col),
      recommended < plan.options.size() ? option_label(scenario, plan.options[recommended].id)
                                        : std::string("none"),
      formats.highlight);
  if (recommended < plan.options.size()) {
    key("Its total cost over the horizon");
    sheet.formula(row++, value, of_named(recommendation_row, summary.total_col),
                  plan.options[recommended].total_cost, formats.money_whole_left);
    key("Its NPV of cost");
    const lxw_row_t npv_row = row;
    sheet.formula(row++, value, of_named(recommendation_row, summary.npv_col),
                  plan.options[recommended].npv, formats.money_whole_left);
    if (summary.after_tax_npv_col != 0 && plan.options[recommended].after_tax) {
      // The NPV the recommendation ranked with a tax rate (issue #40), beside the pre-tax one.
      key("Its after-tax NPV of cost");
      sheet.formula(row++, value, of_named(recommendation_row, summary.after_tax_npv_col),
                    plan.options[recommended].after_tax->npv, formats.money_whole_left);
    }
    if (proposed < plan.options.size()) {
      // Honest about the difference: what the proposed option costs beyond the cheapest.
      key("Proposed minus recommended, NPV");
      const double difference = plan.options[proposed].npv - plan.options[recommended].npv;
      sheet.formula(row, value,
                    "=" + cell_ref(proposed_row + 2, value) + "-" + cell_ref(npv_row, value),
                    difference, formats.money_whole_left);
      sheet.formula_text(
          row, note,
          "=IF(" + cell_ref(proposed_row, value) + "=" + cell_ref(recommendation_row, value) +
              ",\"the proposed option is the recommendation\",\"more, in today's money\")",
          proposed == recommended ? "the proposed option is the recommendation"
                                  : "more, in today's money",
          formats.note);
      ++row;
    }
  }
  key("Why");
  sheet.text(row++, value, plan.recommendation_reason);
  ++row;

  // One status line: the checks and the prices' age together, so they cannot contradict. Not
  // in the quote: it has no Checks sheet to point at, and a customer reads the seller's
  // validity and terms instead (issue #37).
  if (status.master_check_cell.empty()) {
    layout.status_row = 0;
  } else {
    sheet.text(row, label, "Status", formats.label_top);
    layout.status_row = row;
    size_t stale = 0;
    for (const SourceRow& source : scenario.sources) stale += source.stale ? 1 : 0;
    const std::string cached =
        status_text(status.checks_pass, stale, scenario.sources.size(), scenario.max_price_age_days,
                    status.master_check_cell.empty()) +
        (status.recommendation_changed ? "; inputs changed since gputco wrote this workbook: "
                                         "re-run gputco"
                                       : "");
    // Across the value and note columns, wrapped: the whole line on the page.
    check_xlsx(worksheet_merge_range(sheet.raw(), row, value, row, note, "", formats.wrapped),
               "merging the status line");
    check_xlsx(worksheet_set_row(sheet.raw(), row, 30, nullptr), "sizing the status line");
    if (status.master_check_cell.empty()) {
      sheet.text(row, value, cached, formats.wrapped);
    } else {
      const std::string checks = "IF(" + status.master_check_cell +
                                 ",\"All checks pass\",\"CHECKS FAIL (see the Checks sheet)\")";
      std::string prices = "\"; no catalog prices\"";
      if (sources.count > 0) {
        const std::string range = sheet_range_ref(
            kSourcesSheet, sources.first_row, sources.stale_col,
            static_cast<lxw_row_t>(sources.first_row + sources.count - 1), sources.stale_col);
        const std::string stale_count = "COUNTIF(" + range + ",\"stale\")";
        const std::string age = status.max_age_name.empty()
                                    ? "\"" + std::to_string(scenario.max_price_age_days) + "\""
                                    : status.max_age_name;
        prices = "IF(" + stale_count + "=0,\"; no price older than \"&" + age +
                 "&\" days\",\"; \"&" + stale_count + "&\" of \"&ROWS(" + range +
                 ")&\" prices older than \"&" + age + "&\" days (see Sources)\")";
      }
      // Inputs changed since gputco wrote the workbook: what no longer follows them, and whether
      // the recommendation moved with them.
      std::string changed;
      if (!status.inputs_changed_cell.empty()) {
        const std::string moved = status.recommendation_now.empty()
                                      ? std::string("\"\"")
                                      : "IF(" + status.recommendation_now + "<>" +
                                            status.recommendation_written +
                                            ",\" (the recommendation with them)\",\"\")";
        const std::string what =
            status.estimates_cell.empty()
                ? std::string(
                      "\"the figures only gputco computes (Sensitivity, Hardware) are "
                      "stale\"")
                : "IF(" + status.estimates_cell +
                      "=\"current\",\"the figures only gputco computes (Sensitivity, Hardware) "
                      "are stale\",\"its speed and capacity estimates, and the totals resting on "
                      "them, are stale\")";
        changed = "&IF(" + status.inputs_changed_cell +
                  "=\"current\",\"\",\"; inputs changed since gputco wrote this workbook\"&" +
                  moved + "&\": \"&" + what + "&\"; re-run gputco\")";
      }
      sheet.formula_text(row, value, "=" + checks + "&" + prices + changed, cached,
                         formats.wrapped);
    }
    // Red when a check fails, amber for stale prices or changed inputs, green otherwise.
    const std::string cell = cell_ref(row, value);
    for (const auto& [rule_text, format] :
         {std::pair<std::string, lxw_format*>{"=LEFT(" + cell + ",6)=\"CHECKS\"", formats.fail},
          std::pair<std::string, lxw_format*>{"=OR(ISNUMBER(SEARCH(\" prices older\"," + cell +
                                                  ")),ISNUMBER(SEARCH(\"re-run\"," + cell + ")))",
                                              formats.warning},
          std::pair<std::string, lxw_format*>{"=LEFT(" + cell + ",3)=\"All\"", formats.pass}}) {
      lxw_conditional_format rule{};
      rule.type = LXW_CONDITIONAL_TYPE_FORMULA;
      rule.value_string = const_cast<char*>(rule_text.c_str());
      rule.format = format;
      rule.stop_if_true = LXW_TRUE;
      check_xlsx(worksheet_conditional_format_cell(sheet.raw(), row, value, &rule),
                 "colouring the status line");
    }
    row += 2;
  }

  const auto paragraph = [&](const char* title, const std::string& text, lxw_row_t lines) {
    sheet.text(row++, 0, title, formats.subtitle);
    check_xlsx(
        worksheet_merge_range(sheet.raw(), row, 0, row + lines - 1, note, "", formats.wrapped),
        std::string("merging the cells of ") + title);
    sheet.text(row, 0, text, formats.wrapped);
    row += lines + 1;
  };
  if (!scenario.seller.terms.empty()) {
    // About 100 characters a line across the page; at most a screenful.
    const auto lines = static_cast<lxw_row_t>(std::min<size_t>(
        30, 1 + scenario.seller.terms.size() / 100 +
                std::count(scenario.seller.terms.begin(), scenario.seller.terms.end(), '\n')));
    paragraph("Terms", scenario.seller.terms, lines);
  }
  paragraph("Please note",
            "The figures are estimates for planning, not an offer and not a guarantee. Prices "
            "are public prices as published on the dates shown on the Sources sheet (as of " +
                scenario.as_of +
                "; stale ones are flagged) and change often; speeds are gputco's estimates "
                "(llama.cpp decode from memory bandwidth, a serving engine's batches from a "
                "step model fitted on published runs) unless the Assumptions sheet marks them "
                "measured, not measurements of your workload. Check current prices before you "
                "buy or sign.",
            6);

  // A narrow value column keeps numbers next to their labels; text runs on to the right.
  // 33 + 24 + 55 characters print at 80 % or more, portrait, on A4 and Letter.
  sheet.width(label, label, 33);
  sheet.width(value, value, 24);
  sheet.width(note, note, 55);
  return layout;
}

}  // namespace gputco::xlsx
