// ISO 4217 currency codes a plan may be priced in.
#pragma once

#include <string>

namespace gputco {

/// True when `code` is an active ISO 4217 currency code (three capital letters) of a national
/// or regional currency: ISO 4217 List One (SIX Group, the maintenance agency, 2025 edition),
/// without the funds, precious metals, SDR and test codes (BOV, CHE, CHW, CLF, COU, MXV, USN,
/// UYI, UYW, XAG, XAU, XBA-XBD, XDR, XPD, XPT, XSU, XTS, XUA, XXX), none of which prices
/// hardware. Withdrawn codes (ANG, BGN since Bulgaria's euro changeover on 2026-01-01, CUC,
/// HRK, SLL, ZWL) are not active.
bool is_iso_4217_currency(const std::string& code);

}  // namespace gputco
