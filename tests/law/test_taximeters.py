"""The taxímetro's aferição and the tariff it charges: Art. 45, §3-§5, Art. 47."""

from datetime import date
from decimal import Decimal

import pytest

from taxilaw.tariffs import CorrectionTable, Tariff
from taxilaw.taximeters import aferition_due, may_record_aferition, meter_regime

OLD = Tariff(date(2026, 1, 1), "5.50", "2.70", "3.25", "13.00", "Decreto 1/2026")
NEW = Tariff(date(2026, 7, 1), "6.00", "3.00", "3.60", "14.40", "Decreto 9/2026")
TARIFFS = (OLD, NEW)
TABLE = CorrectionTable.between(OLD, NEW, authorization="Portaria do Prefeito 3/2026", authorized_on=date(2026, 6, 28),
                                valid_from=date(2026, 7, 1), valid_until=date(2026, 7, 30))
GRACE = 30


@pytest.mark.article("Art. 45, §5", "Art. 47, §2")
def test_art_47_a_meter_afered_for_the_tariff_in_force_charges_it_as_read():
    regime = meter_regime(TARIFFS, [TABLE], date(2026, 7, 3), date(2026, 7, 10), GRACE)
    assert regime.decision and regime.tariff == NEW and regime.correction is None
    assert regime.fare_due(Decimal("23.40")) == Decimal("23.40")
    assert aferition_due(TARIFFS, date(2026, 7, 3), date(2026, 7, 10), GRACE) is None


@pytest.mark.article("Art. 45, §3", "Art. 45, §4")
def test_art_45_par_3_a_meter_awaiting_aferition_runs_its_tariff_and_the_table_converts_it():
    regime = meter_regime(TARIFFS, [TABLE], date(2026, 1, 5), date(2026, 7, 10), GRACE)
    assert regime.decision and regime.tariff == OLD and regime.correction == TABLE
    assert "Art. 45, §3" in regime.decision.articles
    # factor 3.00 / 2.70 = 1.1111; truncated to the cent (Art. 45, §5)
    assert regime.fare_due(Decimal("21.00")) == Decimal("23.33")
    assert aferition_due(TARIFFS, date(2026, 1, 5), date(2026, 7, 10), GRACE) == date(2026, 7, 30)


@pytest.mark.article("Art. 45, §5", "Art. 47, §2")
def test_art_45_par_5_without_a_table_the_passenger_pays_the_meter_reading_in_the_grace():
    regime = meter_regime(TARIFFS, [], date(2026, 1, 5), date(2026, 7, 10), GRACE)
    assert regime.decision and regime.tariff == OLD and regime.correction is None
    assert regime.fare_due(Decimal("21.00")) == Decimal("21.00")


@pytest.mark.article("Art. 47, §2", "Art. 45, §4")
def test_art_47_par_2_a_meter_not_afered_after_the_grace_may_not_charge():
    last_day = meter_regime(TARIFFS, [TABLE], date(2026, 1, 5), date(2026, 7, 30), GRACE)
    assert last_day.decision and last_day.correction == TABLE
    refused = meter_regime(TARIFFS, [TABLE], date(2026, 1, 5), date(2026, 7, 31), GRACE)
    assert not refused.decision and refused.decision.codes == ("taximeter_aferition_overdue",)
    assert refused.tariff is None


@pytest.mark.article("Art. 47, §1", "Art. 47, §2")
def test_art_47_par_1_never_afered_or_two_tariffs_behind_is_refused():
    assert meter_regime(TARIFFS, [TABLE], None, date(2026, 7, 10), GRACE).decision.codes == ("taximeter_not_afered",)
    older = Tariff(date(2025, 7, 1), "5.00", "2.50", "3.00", "12.00", "Decreto 7/2025")
    behind = meter_regime((older, *TARIFFS), [TABLE], date(2025, 8, 1), date(2026, 7, 10), GRACE)
    assert behind.decision.codes == ("taximeter_aferition_overdue",)


@pytest.mark.article("Art. 47, §1", "Art. 47, §3")
def test_art_47_an_aferition_names_certificate_and_seal_of_an_installed_meter():
    today = date(2026, 7, 10)
    assert may_record_aferition(date(2026, 7, 3), "INMETRO 123/2026", "L-0042", date(2026, 1, 2), None, today)
    refused = may_record_aferition(date(2026, 7, 11), "", " ", date(2026, 7, 5), date(2026, 7, 8), today)
    assert set(refused.codes) == {"aferition_without_certificate", "aferition_without_seal", "aferition_in_future",
                                  "aferition_meter_not_installed"}


@pytest.mark.article("Art. 47, §3")
def test_art_47_par_3_one_taximeter_per_cab_and_one_register_entry_per_device():
    from taxilaw.taximeters import may_install

    cab, device = may_install(False, False, "Capelinha", "123")
    assert cab and device
    cab, device = may_install(True, True, "Capelinha", "123")
    assert cab.codes == ("taximeter_already_installed",) and cab.articles == ("Art. 47, §3",)
    assert device.codes == ("taximeter_serial_taken",) and "Capelinha com o número de série 123" in device.reasons[0].message


@pytest.mark.article("Art. 47, §3")
def test_art_47_par_3_a_taximeter_leaves_only_with_inmetros_permission_once_after_installation():
    from taxilaw.taximeters import may_remove

    assert all(may_remove("Of. 12/2026", False, date(2026, 1, 5), date(2026, 2, 1)))
    permission, day = may_remove("  ", True, date(2026, 1, 5), date(2026, 2, 1))
    assert permission.codes == ("taximeter_removal_without_permission",) and day.codes == ("taximeter_removal_date",)
    assert may_remove("Of. 12/2026", False, date(2026, 1, 5), date(2026, 1, 4))[1].codes == ("taximeter_removal_date",)
