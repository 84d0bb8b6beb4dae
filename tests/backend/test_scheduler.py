"""The scheduler runs every time-driven rule once, with a fake clock, and each consequence is seen (Art. 1 §3,
3 §1, 4 §3, 9 V, 11 § único I, 27 §2, 34 § único, 40, 50)."""

from datetime import date, datetime, time, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.utils import timezone

from backend.notices.models import Notice
from backend.ranks.services import ranks as rank_services
from backend.registry.models import Inspection, RevocationInquiry
from backend.registry.services import auxiliaries, permits, revocation, vehicles
from backend.scheduler import jobs as scheduler
from backend.scheduler.models import JobRun
from taxilaw.flags import MURIAE_TZ

from .ranks_helpers import at_rank, make_rank

pytestmark = pytest.mark.django_db


def noon(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(12)))


def run(day: date, *names):
    return {r.job: r for r in scheduler.run_due(noon(day), only=set(names))}


def test_a_job_runs_once_per_period_and_a_failure_is_retried(monkeypatch):
    calls = []

    @scheduler.job("test_probe", every=timedelta(hours=6))
    def probe(now):
        calls.append(now)
        if len(calls) == 1:
            raise RuntimeError("first run fails")
        return "ok"

    try:
        day = date(2026, 11, 2)
        assert run(day, "test_probe") == {}  # failed: nothing recorded, retried at the next tick
        assert not JobRun.objects.filter(job="test_probe").exists()
        assert run(day, "test_probe")["test_probe"].summary == "ok"
        assert run(day, "test_probe") == {}  # same period: already done (by this or another process)
        assert len(calls) == 2
        later = timezone.make_aware(datetime.combine(day, time(18, 1)))
        assert [r.slot for r in scheduler.run_due(later, only={"test_probe"})] == ["2026-11-02#3"]
    finally:
        scheduler._JOBS.pop("test_probe")


def test_a_period_claimed_by_another_process_is_skipped():
    calls = []
    scheduler.job("test_claimed")(lambda now: calls.append(now) or "ran")
    try:
        day = date(2026, 11, 2)
        JobRun.objects.create(job="test_claimed", slot=f"{day}#0", started_at=timezone.now())
        assert run(day, "test_claimed") == {} and calls == []
    finally:
        scheduler._JOBS.pop("test_claimed")


def test_the_command_runs_a_bounded_loop_and_lists_the_jobs(capsys):
    call_command("scheduler", "--once")
    out = capsys.readouterr().out
    for name in ("registry_sweep", "close_weeks", "rank_attendance", "rank_staffing", "inspection_fees",
                 "vehicle_tolerance", "judicial_loss", "auxiliary_enrolment"):
        assert name in out


def _notices(permit, code):
    return list(Notice.objects.filter(permit=permit, code=code))


@pytest.mark.article("Art. 4, §3", "Art. 3, §1")
def test_registry_sweep_extinguishes_and_tells_the_holder_and_dimutran(working_cab, make_person, user_for, dimutran):
    signed = date(2025, 1, 10)
    permit = working_cab(signed_on=signed)
    waiting = permits.grant_permit(person=make_person(), number="TX-LOST", result_published_on=date(2026, 1, 5), on=date(2026, 1, 5))
    day = date(2026, 4, 1)  # the alvará expired on 10/01/2026; 60 days later the permit is extinct
    assert "extintas 1" in run(day, "registry_sweep")["registry_sweep"].summary
    permit.refresh_from_db()
    waiting.refresh_from_db()
    assert (permit.status, waiting.status) == ("extinct", "lost")
    [notice] = _notices(permit, "permit_extinct")
    assert notice.person == permit.holder and "Art. 4, §3" in notice.message
    assert _notices(waiting, "permit_lost")
    run(day + timedelta(days=1), "registry_sweep")  # the next day: nothing is told twice
    assert len(_notices(permit, "permit_extinct")) == 1
    holder = user_for(permit.holder)
    assert [n["code"] for n in holder.get("/api/notices/").json()["results"]] == ["permit_extinct"]
    assert {n["code"] for n in dimutran.get("/api/notices/").json()["results"]} >= {"permit_extinct", "permit_lost"}
    admin = Client()
    admin.force_login(get_user_model().objects.create_superuser("chefe", "c@example.com", "x"))
    assert permit.number in admin.get("/admin/notices/notice/").content.decode()


@pytest.mark.article("Art. 40, § único")
def test_an_unpaid_inspection_fee_is_required_of_the_holder(working_cab):
    permit = working_cab(signed_on=date(2026, 9, 1))
    inspection = Inspection.objects.get(vehicle__permit=permit)
    run(date(2026, 9, 1), "inspection_fees")
    assert not _notices(permit, "inspection_fee_late")  # due the day of the inspection itself
    run(date(2026, 9, 2), "inspection_fees")
    [notice] = _notices(permit, "inspection_fee_late")
    assert "01/09/2026" in notice.message
    vehicles.pay_inspection_fee(inspection=inspection, paid_on=date(2026, 9, 3))
    run(date(2026, 9, 4), "inspection_fees")
    assert len(_notices(permit, "inspection_fee_late")) == 1


@pytest.mark.article("Art. 34, § único")
def test_a_tolerance_that_runs_out_opens_the_revocation_inquiry(working_cab):
    permit = working_cab(signed_on=date(2026, 6, 1))
    vehicles.tolerate_vehicle(permit=permit, case="not_operating", started_on=date(2026, 10, 5))
    permit.refresh_from_db()
    assert permit.vehicle_tolerance_until == date(2026, 11, 5)
    run(date(2026, 11, 5), "vehicle_tolerance")
    assert not permit.inquiries.exists()
    run(date(2026, 11, 6), "vehicle_tolerance")
    inquiry = permit.inquiries.get()
    assert inquiry.ground == "tolerance_over" and "05/11/2026" in inquiry.facts
    assert inquiry.summoned_on is None  # opened, not yet summoned: no defence term runs (Art. 10, §1)
    assert _notices(permit, "inquiry_opened")
    run(date(2026, 11, 7), "vehicle_tolerance")
    assert permit.inquiries.count() == 1


@pytest.mark.article("Art. 11, § único, I")
def test_no_substitution_30_days_after_the_judgment_opens_the_revocation(working_cab):
    permit = working_cab(signed_on=date(2026, 6, 1))
    revocation.record_judicial_loss(permit=permit, judgment_final_on=date(2026, 9, 1))
    run(date(2026, 10, 1), "judicial_loss")  # 30th day: still in time
    assert not permit.inquiries.exists()
    run(date(2026, 10, 2), "judicial_loss")
    assert permit.inquiries.get().ground == "judicial_loss_late"
    assert RevocationInquiry.objects.get(permit=permit).outcome == "pending"


@pytest.mark.article("Art. 50", "Art. 52")
def test_an_auxiliary_without_matricula_past_the_term_is_notified_and_the_permit_inquired(working_cab, make_person):
    permit = working_cab(signed_on=date(2026, 6, 1))
    enrolled, missing = make_person(), make_person()
    for person in (enrolled, missing):
        auxiliaries.authorize_auxiliary(permit=permit, person=person, on=date(2026, 9, 1))
    auxiliaries.issue_cmt(person=enrolled, number="CMT-OK", issued_on=date(2026, 9, 2), expires_on=date(2028, 9, 2))
    run(date(2026, 10, 1), "auxiliary_enrolment")  # 30 days: in time
    assert not Notice.objects.filter(code="auxiliary_not_enrolled").exists()
    run(date(2026, 10, 2), "auxiliary_enrolment")
    assert list(Notice.objects.filter(code="auxiliary_not_enrolled").values_list("person", flat=True)) == [missing.pk]
    assert permit.inquiries.get().ground == "aux_not_enrolled"


def _titular(dimutran, working_cab, since):
    permit = working_cab(signed_on=since - timedelta(days=10))
    rank = make_rank(dimutran, "Ponto do Rosário")
    rank_services.assign_rank(permit=permit, rank=rank_services.Rank.objects.get(pk=rank["id"]), since=since)
    return permit, rank_services.Rank.objects.get(pk=rank["id"])


@pytest.mark.article("Art. 9, V", "Art. 10")
def test_five_days_away_from_the_rank_notify_and_open_the_inquiry(dimutran, working_cab):
    permit, rank = _titular(dimutran, working_cab, date(2026, 11, 1))
    for day in (1, 2):
        at = datetime(2026, 11, day, 8, tzinfo=MURIAE_TZ)
        rank_services.check_out(checkin=rank_services.check_in(permit=permit, rank=rank, position=at_rank(rank), at=at), at=at + timedelta(hours=4))
    run(date(2026, 11, 7), "rank_attendance")  # absent 3-6 November: 4 days
    assert not permit.inquiries.exists()
    run(date(2026, 11, 8), "rank_attendance")  # 3-7 November: 5 consecutive days
    assert permit.inquiries.get().ground == "absent_from_rank"
    [absence] = _notices(permit, "absent_from_rank")
    assert absence.person == permit.holder and "Art. 9, V" in absence.article
    run(date(2026, 11, 9), "rank_attendance")
    assert permit.inquiries.count() == 1


@pytest.mark.article("Art. 27, §2", "Art. 10")
def test_a_rank_found_empty_three_times_tells_dimutran_and_the_titulars(dimutran, working_cab):
    permit, rank = _titular(dimutran, working_cab, date(2026, 10, 1))
    for day in (2, 3, 4):
        start = datetime(2026, 11, day, 9, tzinfo=MURIAE_TZ)
        rank_services.record_observation(rank=rank, start=start, end=start + timedelta(hours=3), empty=True)
    run(date(2026, 11, 4), "rank_staffing")
    to_dimutran = Notice.objects.get(code="rank_unprovided", permit=None)
    assert to_dimutran.person is None
    assert Notice.objects.get(code="rank_unprovided", permit=permit).person == permit.holder
    assert permit.inquiries.get().ground == "rank_unstaffed"
    run(date(2026, 11, 5), "rank_staffing")
    assert Notice.objects.filter(code="rank_unprovided").count() == 2


@pytest.mark.article("Art. 1, §3")
def test_close_weeks_runs_hourly_and_closes_an_ended_week(working_cab):
    from backend.statements.models import WeekClosure
    from tests.backend.enforcement_helpers import make_ride

    permit = working_cab(signed_on=date(2026, 10, 1))
    make_ride(permit, at=datetime(2026, 11, 4, 10, tzinfo=MURIAE_TZ))  # Wednesday
    run(date(2026, 11, 8), "close_weeks")  # Sunday: the week has not ended
    assert not WeekClosure.objects.exists()
    monday = datetime(2026, 11, 9, 0, 15, tzinfo=MURIAE_TZ)
    assert [r.job for r in scheduler.run_due(monday, only={"close_weeks"})] == ["close_weeks"]
    assert WeekClosure.objects.get().week_start == date(2026, 11, 2)
    assert permit.weekly_statements.get().gross == Decimal("23.40")


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs concurrent connections (PostgreSQL); CI runs it there")
def test_racing_schedulers_run_a_job_once():
    import threading
    import time as clock

    from django.db import connections

    ran = []

    @scheduler.job("test_race")
    def slow(now):
        ran.append(now)
        clock.sleep(0.3)  # a duration, not a wait: the other scheduler tries while this run's row is not committed
        return "ok"

    try:
        barrier = threading.Barrier(4)

        def tick():
            try:
                barrier.wait()
                scheduler.run_due(noon(date(2026, 11, 2)), only={"test_race"})
            finally:
                connections.close_all()

        threads = [threading.Thread(target=tick) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert len(ran) == 1 and JobRun.objects.filter(job="test_race").count() == 1
    finally:
        scheduler._JOBS.pop("test_race")


@pytest.mark.django_db(transaction=True)
def test_a_job_in_steps_leaves_the_database_free_for_the_dispatcher_while_it_runs():
    """A long job in steps (the first night's rollup of a year) holds no transaction around itself: on the embedded
    SQLite, where one writer at a time holds the file, the dispatcher's tick writes while it runs. Around one
    transaction, the other writer below waited out SQLite's timeout and failed ("database is locked")."""
    import threading

    from django.db import connections
    from django.db.utils import OperationalError

    written = []

    def other_writer(now):
        try:
            JobRun.objects.create(job="test_other_writer", slot="x", started_at=now)  # as the dispatcher's tick writes
            written.append("ok")
        except OperationalError as locked:
            written.append(str(locked))
        finally:
            connections.close_all()

    @scheduler.job("test_in_steps", in_steps=True)
    def long_job(now):
        writer = threading.Thread(target=other_writer, args=(now,))
        writer.start()
        writer.join(60)
        return "passos feitos"

    try:
        done = run(date(2026, 11, 2), "test_in_steps")
        assert written == ["ok"]
        assert done["test_in_steps"].summary == "passos feitos" and done["test_in_steps"].finished_at is not None
        assert run(date(2026, 11, 2), "test_in_steps") == {}  # recorded: once per period, as any job
    finally:
        scheduler._JOBS.pop("test_in_steps")


def test_a_job_in_steps_that_fails_is_run_again_at_the_next_tick():
    calls = []

    @scheduler.job("test_in_steps_fails", in_steps=True)
    def flaky(now):
        calls.append(now)
        if len(calls) == 1:
            raise RuntimeError("first run fails")
        return "ok"

    try:
        day = date(2026, 11, 2)
        assert run(day, "test_in_steps_fails") == {}
        assert not JobRun.objects.filter(job="test_in_steps_fails").exists()
        assert run(day, "test_in_steps_fails")["test_in_steps_fails"].summary == "ok"
    finally:
        scheduler._JOBS.pop("test_in_steps_fails")
