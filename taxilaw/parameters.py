"""Values that a decree, a regulation or a census changes, read as of a date.

The law fixes some numbers itself (30 days, 2 years); those live in the rules.
What the executive changes by decree (UFM/UPFM, fees, fines, tariffs), what a
census changes (population) and what the regulation was left to fix (renewal
deadlines) are *dated parameters*: each value has the date it takes effect and
the act that set it. ``DEFAULT_PARAMETERS`` seeds the municipal table; the
backend stores it in the database where DIMUTRAN edits it, and builds a
:class:`Parameters` from those rows.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Iterable, Mapping, Union

Value = Union[Decimal, int]


class ParameterMissing(LookupError):
    """No value of the parameter is in force on the date asked."""


@dataclass(frozen=True)
class DatedValue:
    name: str
    effective_from: date
    value: Value
    source: str


class Parameters:
    """A table of dated values; ``as_of(name, on)`` gives the one in force."""

    def __init__(self, values: Iterable[DatedValue]):
        series: dict[str, list[DatedValue]] = {}
        for item in values:
            series.setdefault(item.name, []).append(item)
        self._series = {k: sorted(v, key=lambda d: d.effective_from) for k, v in series.items()}
        self._dates = {k: [d.effective_from for d in v] for k, v in self._series.items()}

    def entry(self, name: str, on: date) -> DatedValue:
        dates = self._dates.get(name)
        if not dates:
            raise ParameterMissing(f"parameter {name!r} is not defined")
        index = bisect.bisect_right(dates, on) - 1
        if index < 0:
            raise ParameterMissing(f"parameter {name!r} has no value in force on {on.isoformat()}")
        return self._series[name][index]

    def as_of(self, name: str, on: date) -> Value:
        return self.entry(name, on).value

    def names(self) -> list[str]:
        return sorted(self._series)

    def history(self, name: str) -> list[DatedValue]:
        return list(self._series.get(name, ()))


# Units and meaning of each parameter, for the admin and the docs.
PARAMETER_UNITS: Mapping[str, str] = {
    "ufm_brl": "R$ per UFM (Unidade Fiscal do Município)",
    "upfm_brl": "R$ per UPFM (Unidade Padrão Fiscal do Município)",
    "transfer_fee_taxi_upfm": "UPFM (Art. 6, §3, a)",
    "transfer_fee_bus_upfm": "UPFM (Art. 6, §3, b)",
    "transfer_fee_minibus_upfm": "UPFM (Art. 6, §3, c)",
    "inspection_fee_upfm": "UPFM (Art. 40)",
    "late_renewal_fine_ufm": "UFM (Art. 4, §2)",
    "renewal_window_months": "months of the alvará's renewal window, ending in the expiry month (Art. 4, §1: the regulation's escala)",
    "renewal_extinction_days": "days after the alvará expires (Art. 4, §3: set by regulation)",
    "social_security_grace_days": "days after a quarter ends to present the proof (Art. 1, §5)",
    "auxiliary_enrolment_days": "days after an auxiliary's authorization for the matrícula (CMT) (Art. 50: set by DIMUTRAN)",
    "rank_checkin_radius_m": "metres from the rank within which a check-in is accepted (Art. 9, V; docs/readings-ranks-contests.md)",
    "appeal_deposit_required": "1: an appeal against a fine needs the prior deposit (Art. 63, §5); 0: not (STF Súmula Vinculante 21)",
    "taximeter_aferition_grace_days": "days from a new tariff's effective date to afer the taxímetros for it (Art. 47, §2; Art. 45, §4)",
    "population": "inhabitants, IBGE (Art. 41, §3)",
    "inhabitants_per_taxi": "inhabitants per taxi (Art. 41)",
    "meter_fraction_brl": "R$ per taximeter step after the bandeirada (Art. 43; docs/meter.md)",
    "meter_compare_tolerance_brl": "R$ of difference allowed between phone and server meters (Art. 43)",
    "meter_max_trip_hours": "hours a trip may last for the server to recompute it, start to stop (Art. 43; docs/meter.md)",
    "meter_max_trace_fixes": "GPS fixes a trip's trace may hold for the server to recompute it (Art. 43; docs/meter.md)",
    "arrival_radius_m": "metres from the pickup within which \"Cheguei\" and a passenger's absence are accepted (Art. 1, X; Art. 9, VII; docs/readings-dispatch.md)",
    "no_show_wait_minutes": "minutes a driver waits at the pickup before recording the passenger absent (Art. 1, X; Art. 9, VII; docs/readings-dispatch.md)",
    "meter_hold_ratio": "times the server's recomputation (plus the tolerance) beyond which a meter total is held for review (Art. 43)",
    "retention_trace_days": "days a ride's GPS trace is kept after it ends (LGPD; Art. 43, 60; docs/security.md)",
    "retention_offer_audit_days": "days an offer's audit (candidates, distances) is kept (LGPD; Art. 66; docs/security.md)",
    "retention_passenger_days": "days without a ride after which a passenger is anonymised (LGPD; docs/security.md)",
    "receipt_link_days": "days a receipt's link works after it was given out (LGPD; docs/security.md)",
    "fare_estimate_detour_low": "road km per straight-line km, low end of the fare estimate (docs/fare-estimate.md)",
    "fare_estimate_detour_high": "road km per straight-line km, high end of the fare estimate (docs/fare-estimate.md)",
    "booking_lead_minutes": "minutes before a booked pickup when dispatch starts (Art. 66; taxilaw/bookings.py)",
    "booking_min_ahead_minutes": "minutes ahead a pickup must be to be booked, not asked now (Art. 66)",
    "booking_max_ahead_days": "days ahead a ride may be booked (Art. 66)",
    "booking_max_open_per_passenger": "bookings a passenger may hold not yet dispatched at once (Art. 66, Art. 67; docs/security.md)",
    "booking_max_per_day_per_passenger": "bookings a passenger may make in a day, cancelled ones included (Art. 66, Art. 67; docs/security.md)",
    "complaint_max_per_ride": "complaints a passenger may file about one ride (Art. 60; docs/security.md)",
    "complaint_max_chars": "characters of a complaint's description (Art. 60; docs/security.md)",
    "boarding_code_digits": "digits of the code shown on the passenger's and the driver's screens to check the right cab before boarding; 0: no code (docs/passenger-safety.md)",
    "escalation_give_up_minutes": "minutes a ride no cab took keeps being offered to cabs that free up, from its request or its booked pickup, before it is cancelled (Art. 66; docs/readings-dispatch.md)",
    "permit_transfers_allowed": "1: a permit may be transferred (Art. 6, I-IV; Art. 65); 0: not (STF ADI 5337; docs/readings-registry.md)",
    "revocation_bar_years": "years a revocation for fault bars its holder from new permits (Art. 9, § único; CF art. 5, XLVII, b; docs/readings-registry.md)",
    "tariff_review_notice_days": "days before the half-yearly tariff review is due when DIMUTRAN is told to prepare it (Art. 44)",
    "service_start_days": "days after the term's signature to start the service (Art. 13, III: \"no prazo determinado\"; docs/readings-registry.md)",
    "suspension_max_days": "days a suspension may last at most; beyond it only the revocation after the inquiry (Art. 54, b; Art. 10; docs/readings-enforcement.md)",
    "fine_group_a_brl": "R$, fine of Group A (Art. 55, I)",
    "fine_group_b_brl": "R$, fine of Group B (Art. 55, II)",
    "fine_group_c_brl": "R$, fine of Group C (Art. 55, III)",
}

_LEI = "Lei 1.242/1987"
_DEMO = "demo value: replace with the value of the municipal decree in force"

DEFAULT_PARAMETERS: tuple[DatedValue, ...] = (
    DatedValue("ufm_brl", date(2000, 1, 1), Decimal("5.00"), _DEMO),
    DatedValue("upfm_brl", date(2000, 1, 1), Decimal("5.00"), _DEMO),
    DatedValue("transfer_fee_taxi_upfm", date(1987, 12, 28), Decimal("10"), f"{_LEI}, Art. 6, §3, a"),
    DatedValue("transfer_fee_bus_upfm", date(1987, 12, 28), Decimal("50"), f"{_LEI}, Art. 6, §3, b"),
    DatedValue("transfer_fee_minibus_upfm", date(1987, 12, 28), Decimal("20"), f"{_LEI}, Art. 6, §3, c"),
    DatedValue("inspection_fee_upfm", date(1987, 12, 28), Decimal("0.30"), f"{_LEI}, Art. 40"),
    DatedValue("late_renewal_fine_ufm", date(1987, 12, 28), Decimal("1"), f"{_LEI}, Art. 4, §2"),
    DatedValue("renewal_window_months", date(1987, 12, 28), 1, "reading of Art. 4, §1: the regulation's escala is not available (docs/readings-registry.md)"),
    DatedValue("renewal_extinction_days", date(1987, 12, 28), 60, "reading of Art. 4, §3 (docs/readings-registry.md)"),
    DatedValue("social_security_grace_days", date(1987, 12, 28), 30, "reading of Art. 1, §5 (docs/readings-registry.md)"),
    DatedValue("auxiliary_enrolment_days", date(1987, 12, 28), 30, "reading of Art. 50 (docs/readings-registry.md)"),
    DatedValue("rank_checkin_radius_m", date(1987, 12, 28), 200, "reading of Art. 9, V (docs/readings-ranks-contests.md)"),
    DatedValue("appeal_deposit_required", date(1987, 12, 28), 1, f"{_LEI}, Art. 63, §5"),
    DatedValue("appeal_deposit_required", date(2009, 11, 10), 0, "STF, Súmula Vinculante 21 (DJe 10/11/2009; docs/readings-enforcement.md)"),
    DatedValue("taximeter_aferition_grace_days", date(1987, 12, 28), 30, f"{_LEI}, Art. 45, §4 and Art. 47, §2 (docs/readings-tariffs.md)"),
    DatedValue("population", date(2010, 8, 1), 100765, "IBGE, Censo 2010"),
    DatedValue("population", date(2022, 8, 1), 104108, "IBGE, Censo 2022"),
    DatedValue("inhabitants_per_taxi", date(1987, 12, 28), 1000, f"{_LEI}, Art. 41"),
    DatedValue("meter_fraction_brl", date(1987, 12, 28), Decimal("0.10"), "reading of Art. 43 (docs/readings-tariffs.md)"),
    DatedValue("meter_compare_tolerance_brl", date(1987, 12, 28), Decimal("0.50"), "reading of Art. 43 (docs/readings-tariffs.md)"),
    DatedValue("meter_max_trip_hours", date(1987, 12, 28), 24, "reading of Art. 43 (docs/readings-tariffs.md)"),
    DatedValue("meter_max_trace_fixes", date(1987, 12, 28), 10000, "reading of Art. 43 (docs/readings-tariffs.md)"),
    DatedValue("arrival_radius_m", date(1987, 12, 28), 500, "reading of Art. 1, X and Art. 9, VII (docs/readings-dispatch.md)"),
    DatedValue("no_show_wait_minutes", date(1987, 12, 28), 5, "reading of Art. 1, X and Art. 9, VII (docs/readings-dispatch.md)"),
    DatedValue("meter_hold_ratio", date(1987, 12, 28), Decimal("2"), "reading of Art. 43 (docs/readings-tariffs.md)"),
    DatedValue("retention_trace_days", date(2020, 9, 18), 180, "LGPD (Lei 13.709/2018), art. 15-16; reading in docs/security.md"),
    DatedValue("retention_offer_audit_days", date(2020, 9, 18), 180, "LGPD (Lei 13.709/2018), art. 15-16; reading in docs/security.md"),
    DatedValue("retention_passenger_days", date(2020, 9, 18), 730, "LGPD (Lei 13.709/2018), art. 15-16; reading in docs/security.md"),
    DatedValue("receipt_link_days", date(2026, 1, 1), 30, "LGPD (Lei 13.709/2018), art. 6, III (necessity); reading in docs/security.md"),
    DatedValue("fare_estimate_detour_low", date(2026, 1, 1), Decimal("1.20"), "measured: docs/fare-estimate.md"),
    DatedValue("fare_estimate_detour_high", date(2026, 1, 1), Decimal("1.55"), "measured: docs/fare-estimate.md"),
    DatedValue("booking_lead_minutes", date(2026, 1, 1), 15, "operation of the radio-taxi service (Art. 66, Art. 67)"),
    DatedValue("booking_min_ahead_minutes", date(2026, 1, 1), 30, "operation of the radio-taxi service (Art. 66, Art. 67)"),
    DatedValue("booking_max_ahead_days", date(2026, 1, 1), 30, "operation of the radio-taxi service (Art. 66, Art. 67)"),
    DatedValue("booking_max_open_per_passenger", date(2026, 1, 1), 3, "limit of the platform (docs/security.md)"),
    DatedValue("booking_max_per_day_per_passenger", date(2026, 1, 1), 10, "limit of the platform (docs/security.md)"),
    DatedValue("complaint_max_per_ride", date(2026, 1, 1), 2, "limit of the platform (docs/security.md)"),
    DatedValue("complaint_max_per_ride", date(2026, 12, 1), 1, "uma reclamação por corrida, como a página do passageiro oferece (issue #30; docs/security.md)"),
    DatedValue("complaint_max_chars", date(2026, 1, 1), 4000, "limit of the platform (docs/security.md)"),
    DatedValue("boarding_code_digits", date(2026, 1, 1), 4, "safety of the platform (docs/passenger-safety.md)"),
    DatedValue("escalation_give_up_minutes", date(2026, 1, 1), 15, "operation of the radio-taxi service (Art. 66, Art. 67; docs/readings-dispatch.md)"),
    DatedValue("permit_transfers_allowed", date(1987, 12, 28), 1, f"{_LEI}, Art. 6 and Art. 65"),
    DatedValue("permit_transfers_allowed", date(2021, 3, 11), 0, "STF, ADI 5337 (ata DOU 11/03/2021; docs/readings-registry.md)"),
    DatedValue("revocation_bar_years", date(1988, 10, 5), 5, "reading of Art. 9, § único under CF art. 5, XLVII, b (docs/readings-registry.md)"),
    DatedValue("tariff_review_notice_days", date(1987, 12, 28), 30, "operation of DIMUTRAN: a month to prepare the study (Art. 44)"),
    DatedValue("service_start_days", date(1987, 12, 28), 60, "reading of Art. 13, III (docs/readings-registry.md)"),
    DatedValue("suspension_max_days", date(1987, 12, 28), 90, "reading of Art. 54, b: the regulation's maximum (docs/readings-enforcement.md)"),
    DatedValue("fine_group_a_brl", date(2002, 2, 19), Decimal("210.00"), "Lei 1.242/1987, Art. 55 (redação da Lei 2.593/2002)"),
    DatedValue("fine_group_b_brl", date(2002, 2, 19), Decimal("140.00"), "Lei 1.242/1987, Art. 55 (redação da Lei 2.593/2002)"),
    DatedValue("fine_group_c_brl", date(2002, 2, 19), Decimal("70.00"), "Lei 1.242/1987, Art. 55 (redação da Lei 2.593/2002)"),
)


def default_parameters() -> Parameters:
    return Parameters(DEFAULT_PARAMETERS)
