"""Vehicles: Cap. V of Lei 1.242/1987 (Art. 28, 34, 35-38, 40)."""

from __future__ import annotations

import enum
from datetime import date
from decimal import Decimal
from typing import Collection, Optional

from .calendar import add_months, add_years, day_term_end
from .clock import not_in_future
from .decision import Decision, Reason, refused
from .i18n import gettext_noop
from .parameters import Parameters
from .permits import to_cents

#: Art. 28: a taxi's manufacture may not exceed 10 years.
MAX_VEHICLE_AGE_YEARS = 10
#: Art. 34, II, b: a non-contest holder may go back at most 3 model years before the year of the swap.
NON_CONTEST_MAX_YEARS_BEFORE = 3
#: Art. 35: inspection every year.
INSPECTION_INTERVAL_YEARS = 1
#: Art. 40, § único: days to pay the fee of an extraordinary inspection.
EXTRAORDINARY_FEE_DAYS = 30


def vehicle_age(model_year: int, on: date) -> int:
    """Age of a vehicle under Art. 28, § único.

    Ages are counted on 31 December: the vehicle completes its first year on
    31 December of its model year, its second on the next 31 December, and so
    on; before its first 31 December it is 0.
    """
    age = on.year - model_year + (1 if (on.month == 12 and on.day == 31) else 0)
    return age if age > 0 else 0


def _too_old(model_year: int, on: date) -> Reason:
    return Reason(
        "Art. 28",
        "vehicle_too_old",
        gettext_noop("O veículo (ano modelo {model_year}) tem {age} anos de fabricação; o máximo é 10 (Art. 28)."),
        {"model_year": model_year, "age": vehicle_age(model_year, on)},
    )


def may_admit_vehicle(model_year: int, on: date) -> Decision:
    """A vehicle is admitted to the service only up to 10 years of manufacture (Art. 28, Art. 28, § único)."""
    if vehicle_age(model_year, on) <= MAX_VEHICLE_AGE_YEARS:
        return Decision.allow("Art. 28", "Art. 28, § único")
    return Decision.refuse(_too_old(model_year, on), articles=("Art. 28, § único",))


def may_replace_vehicle(
    old_model_year: int,
    new_model_year: int,
    justified: bool,
    contest_model_year: Optional[int],
    on: date,
) -> Decision:
    """May the taxi be swapped for one of ``new_model_year`` on ``on``? (Art. 34, I, Art. 34, II, a-b)

    Art. 34, I: same or later model year. Art. 34, II: an earlier model year
    only with a justification accepted by DIMUTRAN and, a) for a holder who won
    a contest (``contest_model_year`` given), a model year not before the one
    proposed in the contest; b) otherwise, at most 3 years before the year of
    the swap. The new vehicle must always satisfy Art. 28.
    """
    admit = may_admit_vehicle(new_model_year, on)
    if new_model_year >= old_model_year:
        return Decision.all_of(Decision.allow("Art. 34, I"), admit)
    reasons = []
    if not justified:
        reasons.append(
            Reason(
                "Art. 34, II",
                "replacement_not_justified",
                gettext_noop("A troca por veículo de ano modelo anterior exige justificativa aceita pelo órgão competente (Art. 34, II)."),
            )
        )
    if contest_model_year is not None:
        if new_model_year < contest_model_year:
            reasons.append(
                Reason(
                    "Art. 34, II, a",
                    "replacement_before_contest_year",
                    gettext_noop("O novo veículo (ano modelo {new}) não pode ser anterior ao ano modelo do concurso ({contest}) (Art. 34, II, a)."),
                    {"new": new_model_year, "contest": contest_model_year},
                )
            )
        article = "Art. 34, II, a"
    else:
        floor = on.year - NON_CONTEST_MAX_YEARS_BEFORE
        if new_model_year < floor:
            reasons.append(
                Reason(
                    "Art. 34, II, b",
                    "replacement_too_old",
                    gettext_noop("O novo veículo (ano modelo {new}) não pode ser anterior a {floor}, 3 anos antes do ano da troca (Art. 34, II, b)."),
                    {"new": new_model_year, "floor": floor},
                )
            )
        article = "Art. 34, II, b"
    own = Decision.refuse(*reasons) if reasons else Decision.allow("Art. 34, II", article)
    return Decision.all_of(own, admit)


class ToleranceCase(str, enum.Enum):
    """The two tolerances of Art. 34, § único (reading in docs/readings-registry.md)."""

    NOT_OPERATING = "not_operating"  # the permit is not exercised at all: up to 1 month
    PROVISIONAL_VEHICLE = "provisional_vehicle"  # runs with a non-conforming stand-in: up to 3 months


TOLERANCE_MONTHS = {ToleranceCase.NOT_OPERATING: 1, ToleranceCase.PROVISIONAL_VEHICLE: 3}


def tolerance_ends(started_on: date, case: ToleranceCase) -> date:
    """Last day of the tolerance of Art. 34, § único: 1 month not operating, 3 months with a stand-in."""
    return add_months(started_on, TOLERANCE_MONTHS[ToleranceCase(case)])


def within_replacement_tolerance(started_on: date, case: ToleranceCase, on: date) -> Decision:
    """Is the holder still within the tolerance granted under Art. 34, § único? After it, revocation."""
    ends = tolerance_ends(started_on, case)
    if on <= ends:
        return Decision.allow("Art. 34, § único")
    return Decision.refuse(
        Reason(
            "Art. 34, § único",
            "replacement_tolerance_over",
            gettext_noop("A tolerância para a substituição do veículo terminou em {ends}; a permissão fica sujeita a revogação (Art. 34, § único)."),
            {"ends": ends},
        )
    )


def may_grant_tolerance(started_on: date, tolerance_until: Optional[date], today: date) -> Decision:
    """May DIMUTRAN grant the tolerance of Art. 34, § único from ``started_on``? It is one period of 1 or 3
    months, dated when it begins: never ahead of today (a tolerance is granted for a fact, the cab off the road),
    and not on top of one still running on that day (back-to-back tolerances would keep a non-conforming taxi
    working for good, which the article's "1 mês" and "3 meses" forbid; docs/readings-registry.md)."""
    if started_on > today:
        return not_in_future(started_on, today, "Art. 34, § único", "início da tolerância")
    if tolerance_until is not None and tolerance_until >= started_on:
        return Decision.refuse(
            Reason(
                "Art. 34, § único",
                "tolerance_running",
                gettext_noop("A permissão já está em tolerância até {until}; a tolerância não se prorroga (Art. 34, § único)."),
                {"until": tolerance_until},
            )
        )
    return Decision.allow("Art. 34, § único")


# --------------------------------------------------------------------- inspection


class InspectionResult(str, enum.Enum):
    PASSED = "passed"
    FAILED = "failed"


def inspection_due(last_passed_on: date) -> date:
    """Last day of validity of a passed annual inspection: 1 year later (Art. 35, Art. 36)."""
    return add_years(last_passed_on, INSPECTION_INTERVAL_YEARS)


def inspection_status(last_result: Optional[InspectionResult], last_inspected_on: Optional[date], on: date) -> Decision:
    """May the vehicle run, as far as inspection goes? (Art. 35, Art. 38)

    Never inspected or last passed inspection over 1 year old: overdue
    (Art. 35). Failed: it may not run until a new inspection passes (Art. 38).
    """
    if last_result is None or last_inspected_on is None:
        return Decision.refuse(
            Reason("Art. 35", "inspection_missing", gettext_noop("O veículo não tem vistoria anual registrada (Art. 35)."))
        )
    if InspectionResult(last_result) is InspectionResult.FAILED:
        return Decision.refuse(
            Reason(
                "Art. 38",
                "inspection_failed",
                gettext_noop("O veículo foi reprovado na vistoria de {on} e só volta ao serviço após nova vistoria (Art. 38)."),
                {"on": last_inspected_on},
            )
        )
    due = inspection_due(last_inspected_on)
    if on > due:
        return Decision.refuse(
            Reason(
                "Art. 35",
                "inspection_overdue",
                gettext_noop("A vistoria anual venceu em {due} (Art. 35)."),
                {"due": due},
            )
        )
    return Decision.allow("Art. 35", "Art. 38")


def may_remove_seal(next_inspection_held: bool) -> Decision:
    """The inspection seal may not be removed until the next inspection, under fine (Art. 37)."""
    if next_inspection_held:
        return Decision.allow("Art. 37")
    return Decision.refuse(
        Reason("Art. 37", "seal_must_stay", gettext_noop("O selo de vistoria não pode ser retirado até a vistoria seguinte, sob pena de multa (Art. 37)."))
    )


def inspection_fee(params: Parameters, on: date) -> Decimal:
    """Inspection fee: ``inspection_fee_upfm`` (0,30 UPFM) in R$ (Art. 40)."""
    return to_cents(Decimal(params.as_of("inspection_fee_upfm", on)) * Decimal(params.as_of("upfm_brl", on)))


def inspection_fee_due(inspected_on: date, extraordinary: bool, municipal_holidays: Collection[date] = ()) -> date:
    """Last day to pay the inspection fee (Art. 40, § único).

    Annual inspection (Art. 35): by the inspection date. Extraordinary one
    (Art. 35, § único): within 30 days of the inspection.
    """
    if extraordinary:
        return day_term_end(inspected_on, EXTRAORDINARY_FEE_DAYS, municipal_holidays)
    return inspected_on


def check_inspection_fee(
    inspected_on: date,
    extraordinary: bool,
    paid_on: Optional[date],
    on: date,
    municipal_holidays: Collection[date] = (),
) -> Decision:
    """Is the inspection fee paid, or still within its term? (Art. 40, Art. 40, § único)"""
    due = inspection_fee_due(inspected_on, extraordinary, municipal_holidays)
    if paid_on is not None and paid_on <= due:
        return Decision.allow("Art. 40", "Art. 40, § único")
    if paid_on is None and on <= due:
        return Decision.allow("Art. 40", "Art. 40, § único")
    return Decision.refuse(
        Reason(
            "Art. 40, § único",
            "inspection_fee_late",
            gettext_noop("A taxa de vistoria devia ser paga até {due} (Art. 40, § único)."),
            {"due": due},
        ),
        articles=("Art. 40",),
    )


def may_register_for_permit(model_year: int, contest_model_year: Optional[int], on: date) -> Decision:
    """The first taxi of a contest permit is of the model year proposed, or newer (Art. 20, §2), and meets Art. 28.

    The proposal's model year earned its points (Art. 20, I); registering an older car would keep
    the points without the car that won them.
    """
    admit = may_admit_vehicle(model_year, on)
    if contest_model_year is None or model_year >= contest_model_year:
        return Decision.all_of(Decision.allow("Art. 20, §2"), admit)
    own = Decision.refuse(Reason(
        "Art. 20, §2", "vehicle_older_than_proposal",
        gettext_noop("O veículo (ano modelo {model_year}) é anterior ao ano modelo declarado no concurso ({contest}) (Art. 20, §2)."),
        {"model_year": model_year, "contest": contest_model_year},
    ))
    return Decision.all_of(own, admit)


def model_year_matches(manufacture_year: int, model_year: int) -> Decision:
    """The model year is the year of manufacture or the next one (Art. 28: the age counts from the model year)."""
    if manufacture_year > model_year or model_year - manufacture_year > 1:
        return refused("Art. 28", "model_year_mismatch", gettext_noop("O ano-modelo deve ser igual ao ano de fabricação ou o seguinte."))
    return Decision.allow("Art. 28")


def one_taxi_per_permit(has_taxi_in_service: bool, number: str) -> Decision:
    """A permit has one taxi in service (Art. 1, III); another comes by replacement (Art. 34)."""
    if has_taxi_in_service:
        return refused("Art. 1, III", "one_taxi_per_permit",
                       gettext_noop("A permissão {number} já tem um táxi em serviço; use a troca de veículo (Art. 34)."),
                       number=number)
    return Decision.allow("Art. 1, III")


def seal_given(passed: bool, seal_number: str) -> Decision:
    """A vehicle that passes the vistoria receives the seal, whose number is recorded (Art. 37)."""
    if passed and not seal_number:
        return refused("Art. 37", "seal_required",
                       gettext_noop("Veículo aprovado na vistoria recebe selo: informe o número do selo (Art. 37)."))
    return Decision.allow("Art. 37")
