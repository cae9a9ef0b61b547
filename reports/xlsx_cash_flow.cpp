// The Cash flow sheet: one timeline of months 0..horizon, one block of rows per option.
// Every row is ONE formula copied across the months (flag rows switch terms on and off),
// reading the named cells of the Inputs sheet; the engine's figure is each cell's cached
// result, so the file opens right even where nothing recalculates.
#include "engine/units.hpp"
#include "reports/xlsx_report.hpp"
#include "reports/xlsx_sheets.hpp"

namespace gputco::xlsx {
namespace {

const std::vector<double>& row_values(const CashFlow& cf, int which) {
  switch (which) {
    case 0:
      return cf.capex;
    case 1:
      return cf.energy;
    case 2:
      return cf.maintenance;
    case 3:
      return cf.rent;
    default:
      return cf.resale;
  }
}

/// The formulas of one option's component rows at one month column. An empty formula
/// means the row does not apply to the option's kind: the engine's value (zero) is written
/// as a plain number.
struct ComponentFormulas {
  std::string capex, energy, maintenance, rent, resale;
  const std::string& at(int which) const {
    switch (which) {
      case 0:
        return capex;
      case 1:
        return energy;
      case 2:
        return maintenance;
      case 3:
        return rent;
      default:
        return resale;
    }
  }
};

ComponentFormulas component_formulas(const OptionResult& option, const OptionBlock& block,
                                     const CashFlowLayout& layout, lxw_col_t col,
                                     const InputNames& names) {
  const std::string is_start = cell_ref(layout.is_start_row, col, true);
  const std::string is_running = cell_ref(layout.is_running_row, col, true);
  const std::string is_end = cell_ref(layout.is_end_row, col, true);
  const auto in = [&](const char* key) { return names.at(option.id, key); };
  const auto global = [&](const char* section, const char* key) { return names.at(section, key); };
  const std::string months_per_year = global(kConstantsSection, "months_per_year");
  const std::string hours_of_use =
      global("workload", "hours_per_day") + "*" + global("workload", "days_per_month");

  ComponentFormulas f;
  switch (option.kind) {
    case OptionKind::buy: {
      const std::string capex_total =
          "SUM(" + cell_ref(block.capex, layout.first_month_col, true, true) + ":" +
          cell_ref(block.capex, layout.last_month_col, true, true) + ")";
      f.capex = "=" + is_start + "*(" + in("count") + "*" + in("price_per_gpu") + "+" +
                in("host_cost") + ")";
      f.energy = "=" + is_running + "*(" + in("count") + "*" + in("board_power_w") + "+" +
                 in("host_power_w") + ")/" + global(kConstantsSection, "watts_per_kw") + "*" +
                 hours_of_use + "*" + global("site", "tariff_per_kwh") + "*" +
                 global("site", "pue");
      f.maintenance = "=" + is_running + "*" + capex_total + "*" + in("maintenance_per_year") +
                      "/" + months_per_year;
      f.resale = "=-" + is_end + "*" + in("residual_fraction") + "*" + capex_total;
      break;
    }
    case OptionKind::rent_hourly:
      f.rent =
          "=" + is_running + "*" + in("rate_per_gpu_hour") + "*" + in("count") + "*" + hours_of_use;
      break;
    case OptionKind::rent_monthly:
      f.rent =
          "=" + is_start + "*" + in("setup_fee") + "+" + is_running + "*" + in("price_per_month");
      break;
  }
  return f;
}

void write_timeline(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                    const CashFlowLayout& layout, const InputNames& names) {
  const int horizon = plan.horizon_months;
  const std::string horizon_name = names.at("scenario", "horizon_months");
  const std::string months_per_year = names.at(kConstantsSection, "months_per_year");
  const std::string rate = names.at("scenario", "discount_rate");

  sheet.text(layout.month_row, layout.label_col, "Month", formats.header);
  sheet.text(layout.month_row, layout.sum_col, "Sum", formats.header);
  sheet.text(layout.is_start_row, layout.label_col, "is start (month 0)", formats.flag_label);
  sheet.text(layout.is_running_row, layout.label_col, "is running month (1..horizon)",
             formats.flag_label);
  sheet.text(layout.is_end_row, layout.label_col, "is horizon end", formats.flag_label);
  sheet.text(layout.year_row, layout.label_col, "Year", formats.flag_label);
  sheet.text(layout.discount_row, layout.label_col, "Discount factor", formats.label);

  for (int m = 0; m <= horizon; ++m) {
    const auto col = static_cast<lxw_col_t>(layout.first_month_col + m);
    const std::string month = cell_ref(layout.month_row, col, true);
    sheet.number(layout.month_row, col, m, formats.month_header);
    sheet.formula(layout.is_start_row, col, "=IF(" + month + "=0,1,0)", m == 0 ? 1 : 0,
                  formats.flag);
    sheet.formula(layout.is_running_row, col,
                  "=IF(AND(" + month + ">=1," + month + "<=" + horizon_name + "),1,0)",
                  m >= 1 && m <= horizon ? 1 : 0, formats.flag);
    sheet.formula(layout.is_end_row, col, "=IF(" + month + "=" + horizon_name + ",1,0)",
                  m == horizon ? 1 : 0, formats.flag);
    // Year 1 holds the start (month 0) and months 1-12; year k months 12(k-1)+1..12k.
    sheet.formula(layout.year_row, col, "=MAX(1,ROUNDUP(" + month + "/" + months_per_year + ",0))",
                  m == 0 ? 1 : (m - 1) / kMonthsPerYear + 1, formats.flag);
    if (!plan.options.empty()) {
      sheet.formula(
          layout.discount_row, col, "=(1+" + rate + ")^(-" + month + "/" + months_per_year + ")",
          plan.options.front().cash_flow.discount_factor[static_cast<size_t>(m)], formats.factor);
    }
  }
}

void write_block(SheetWriter& sheet, const Formats& formats, const OptionResult& option,
                 const OptionInputs* inputs, const OptionBlock& block, const CashFlowLayout& layout,
                 const InputNames& names) {
  const CashFlow& cf = option.cash_flow;
  sheet.text(block.title, layout.label_col, option.id, formats.subtitle);
  std::string description = kind_label(option.kind, inputs) + ", " + devices_label(inputs);
  if (!option.feasible) description += " (the model does not fit)";
  sheet.text(block.title, layout.first_month_col, description, formats.note);

  const char* component_labels[] = {"Capex", "Energy", "Maintenance", "Rent", "Resale"};
  const lxw_row_t component_rows[] = {block.capex, block.energy, block.maintenance, block.rent,
                                      block.resale};
  for (int k = 0; k < 5; ++k) sheet.text(component_rows[k], layout.label_col, component_labels[k]);
  sheet.text(block.total, layout.label_col, "Total (sum: total cost)", formats.bold);
  sheet.text(block.cumulative, layout.label_col, "Cumulative");
  sheet.text(block.discounted, layout.label_col, "Discounted (sum: NPV)", formats.bold);

  const lxw_col_t first = layout.first_month_col;
  const lxw_col_t last = layout.last_month_col;
  for (lxw_col_t col = first; col <= last; ++col) {
    const auto m = static_cast<size_t>(col - first);
    const ComponentFormulas f = component_formulas(option, block, layout, col, names);
    for (int k = 0; k < 5; ++k) {
      const double engine_value = row_values(cf, k)[m];
      if (f.at(k).empty()) {
        sheet.number(component_rows[k], col, engine_value, formats.money_quiet);
      } else {
        sheet.formula(component_rows[k], col, f.at(k), engine_value, formats.money);
      }
    }
    sheet.formula(block.total, col,
                  "=SUM(" + cell_ref(block.capex, col) + ":" + cell_ref(block.resale, col) + ")",
                  cf.total[m], formats.money_bold);
    sheet.formula(
        block.cumulative, col,
        "=SUM(" + cell_ref(block.total, first, true, true) + ":" + cell_ref(block.total, col) + ")",
        cf.cumulative[m], formats.money);
    sheet.formula(block.discounted, col,
                  "=" + cell_ref(block.total, col) + "*" + cell_ref(layout.discount_row, col, true),
                  cf.discounted[m], formats.money);
  }
  const auto row_sum = [&](lxw_row_t row) {
    return "=SUM(" + cell_ref(row, first) + ":" + cell_ref(row, last) + ")";
  };
  sheet.formula(block.total, layout.sum_col, row_sum(block.total), option.total_cost,
                formats.money_bold);
  sheet.formula(block.discounted, layout.sum_col, row_sum(block.discounted), option.npv,
                formats.money_bold);
}

}  // namespace

CashFlowLayout write_cash_flow_sheet(lxw_workbook* /*workbook*/, SheetWriter& sheet,
                                     const Formats& formats, const Plan& plan,
                                     const ResolvedScenario& scenario, const InputNames& names) {
  CashFlowLayout layout;
  layout.month_row = 3;
  layout.is_start_row = 4;
  layout.is_running_row = 5;
  layout.is_end_row = 6;
  layout.year_row = 7;
  layout.discount_row = 8;
  layout.last_month_col = static_cast<lxw_col_t>(layout.first_month_col + plan.horizon_months);

  sheet.text(0, 0, "Cash flow, " + plan.currency, formats.title);
  sheet.text(1, 0,
             "Month 0 is the start of month 1 (purchases, setup fees); month m is the end of "
             "month m (running costs, paid in arrears; resale at the horizon). Costs are "
             "positive, money coming back negative. Each row is one formula over the named "
             "Inputs; the flag rows switch its terms on and off.",
             formats.note);
  write_timeline(sheet, formats, plan, layout, names);

  lxw_row_t row = layout.discount_row + 2;
  for (const OptionResult& option : plan.options) {
    OptionBlock block;
    block.title = row++;
    block.capex = row++;
    block.energy = row++;
    block.maintenance = row++;
    block.rent = row++;
    block.resale = row++;
    block.total = row++;
    block.cumulative = row++;
    block.discounted = row++;
    ++row;
    write_block(sheet, formats, option, find_option_inputs(scenario, option.id), block, layout,
                names);
    layout.blocks.push_back(block);
  }

  sheet.width(layout.label_col, layout.label_col, 30);
  sheet.width(layout.sum_col, layout.sum_col, 15);
  sheet.width(layout.first_month_col, layout.last_month_col, 12);
  worksheet_freeze_panes(sheet.raw(), layout.month_row + 1, layout.first_month_col);
  check_xlsx(worksheet_repeat_columns(sheet.raw(), layout.label_col, layout.sum_col),
             "setting Cash flow print titles");
  set_print_layout(sheet);
  return layout;
}

}  // namespace gputco::xlsx
