"""The scheduler's three new deadlines, each with a fixed ``now``: the tariff's half-yearly review (Art. 44), a
month's last days of absence judged after it ends and a missed run caught up (Art. 9, V), and the 10-day notice of
an appeal's judgment (Art. 63, §4)."""

from datetime import date, datetime, time, timedelta

import pytest
from django.utils import timezone

from backend.enforcement.models import Appeal
from backend.notices.models import Notice
from backend.ranks.services import ranks as rank_services
from backend.scheduler import jobs as scheduler
from backend.tariffs.models import TariffDecree
from taxilaw.flags import MURIAE_TZ

from .enforcement_helpers import decide, draw_up, infraction
from .ranks_helpers import at_rank, make_rank

pytestmark = pytest.mark.django_db


def run(day: date, name: str):
    return {r.job: r for r in scheduler.run_due(timezone.make_aware(datetime.combine(day, time(12))), only={name})}


@pytest.mark.article("Art. 44")
def test_tariff_review_told_a_month_ahead_then_overdue_once_each():
    TariffDecree.objects.all().delete()
    TariffDecree.objects.create(effective_from=date(2026, 1, 1), bandeirada="5.50", price_km_b1="2.70", price_km_b2="3.25",
                                price_hour_waiting="13.00", decree="Decreto 1/2026")
    run(date(2026, 5, 31), "tariff_review")  # due 01/07; notice from 01/06
    assert not Notice.objects.filter(code__startswith="tariff_review").exists()
    run(date(2026, 6, 1), "tariff_review")
    run(date(2026, 6, 2), "tariff_review")
    [coming] = Notice.objects.filter(code="tariff_review_coming")
    assert coming.permit is None and coming.article == "Art. 44" and "01/07/2026" in coming.message
    run(date(2026, 7, 2), "tariff_review")
    run(date(2026, 7, 3), "tariff_review")
    assert Notice.objects.filter(code="tariff_review_overdue").count() == 1


@pytest.mark.article("Art. 9, V", "Art. 10")
def test_absences_on_a_months_last_days_are_caught_after_a_missed_run(dimutran, working_cab):
    permit = working_cab(signed_on=date(2026, 9, 20))
    rank = make_rank(dimutran, "Ponto do Rosário")
    rank = rank_services.Rank.objects.get(pk=rank["id"])
    rank_services.assign_rank(permit=permit, rank=rank, since=date(2026, 10, 1))
    for day in range(1, 27):  # present 1-26 October, absent 27-31 (5 consecutive days at the month's end)
        at = datetime(2026, 10, day, 8, tzinfo=MURIAE_TZ)
        rank_services.check_out(checkin=rank_services.check_in(permit=permit, rank=rank, position=at_rank(rank), at=at),
                                at=at + timedelta(hours=4))
    run(date(2026, 10, 31), "rank_attendance")  # 27-30 October: 4 days
    assert not permit.inquiries.exists()
    # The run of 1 November was missed; the next one still judges October to its end.
    run(date(2026, 11, 3), "rank_attendance")
    assert permit.inquiries.get().ground == "absent_from_rank"
    [absence] = Notice.objects.filter(permit=permit, code="absent_from_rank")
    assert "10/2026" in absence.message
    run(date(2026, 11, 4), "rank_attendance")  # a rerun tells nothing twice
    assert permit.inquiries.count() == 1 and Notice.objects.filter(permit=permit, code="absent_from_rank").count() == 1


@pytest.mark.article("Art. 63, §4")
def test_judgment_notice_reminder_within_ten_days_then_overdue(dimutran, working_cab, user_for):
    permit = working_cab(signed_on=date(2026, 1, 10))
    auto = draw_up(dimutran, permit, ["attire"], date(2026, 3, 2))
    decision = decide(dimutran, auto["id"], "2026-03-10", [{"infraction": infraction("attire").pk, "kind": "reprimand"}],
                      involuntary=True).json()["decision"]
    dimutran.post(f"/api/autos/{auto['id']}/notify/", {"notified_on": "2026-03-10"}, format="json")
    filed = dimutran.post("/api/appeals/", {"decision": decision["id"], "instance": "comutram", "grounds": "x",
                                            "filed_on": "2026-03-11"}, format="json")
    assert filed.status_code == 201, filed.json()
    judged = dimutran.post(f"/api/appeals/{filed.json()['id']}/judge/",
                           {"judged_on": "2026-03-16", "granted": False, "judgment_text": "Mantida."}, format="json")
    assert judged.status_code == 200, judged.json()
    run(date(2026, 3, 16), "judgment_notice")  # the day of the judgment: nothing yet
    assert not Notice.objects.filter(code__startswith="judgment_notice").exists()
    run(date(2026, 3, 17), "judgment_notice")
    run(date(2026, 3, 18), "judgment_notice")
    [due] = Notice.objects.filter(code="judgment_notice_due")
    assert due.permit is None and "26/03/2026" in due.message and auto["number"] in due.message
    run(date(2026, 3, 27), "judgment_notice")
    assert Notice.objects.filter(code="judgment_notice_overdue").count() == 1
    Appeal.objects.filter(pk=filed.json()["id"]).update(judgment_notified_on=date(2026, 3, 27))
    run(date(2026, 3, 28), "judgment_notice")
    assert Notice.objects.filter(code__startswith="judgment_notice").count() == 2
