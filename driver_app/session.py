"""Wires the view-models to the clients (no Kivy): real API or demo fakes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Callable, Optional

from taxilaw.flags import local_time, municipal_holiday_dates
from taxilaw.meter_data import MeterParams
from taxilaw.split import week_start
from taxilaw.tariffs import MURIAE_DEMO_TARIFF, Tariff
from taxiwire import outbound

from .background import Background
from .clients import (
    FakeDispatch,
    FakePayments,
    FakeRanks,
    FakeRegistry,
    FakeStatements,
    FakeTrips,
    HttpPaymentsClient,
    HttpRanksClient,
    HttpRegistryClient,
    HttpStatementsClient,
    HttpTariffClient,
    demo_me,
    offline,
)
from .gps import GpsSource, PlyerGps, ReplayGps, SharedGps, demo_trace, utcnow
from .phone import AndroidPhone, DesktopPhone, Phone
from .sound import OfferSound, RecordingSound
from .storage import JsonStore
from .viewmodels import (
    CardsViewModel,
    FlagViewModel,
    LoginViewModel,
    MeAnswer,
    MeterViewModel,
    Navigator,
    OfferViewModel,
    PaymentViewModel,
    PositionReporter,
    RanksViewModel,
    RideViewModel,
    SplitViewModel,
)
from .viewmodels.pixkey import PixKeyViewModel

TARIFF_FILE = "tariff"  # the last tariff answer of the server (shown offline)


def default_app_dir() -> Path:
    explicit = os.environ.get("MURIAE_DRIVER_HOME")
    if explicit:
        return Path(explicit)
    if "ANDROID_PRIVATE" in os.environ:  # the app's private storage on the phone
        return Path(os.environ["ANDROID_PRIVATE"]) / "muriae-driver"
    return Path.home() / ".muriae-driver"


@dataclass
class Session:
    store: JsonStore
    clock: Callable[[], datetime]
    login: LoginViewModel
    cards: CardsViewModel
    flag: FlagViewModel
    meter: MeterViewModel
    offer: OfferViewModel
    split: SplitViewModel
    dispatch: object
    gps: GpsSource
    demo: bool = False
    extras: dict = field(default_factory=dict)
    ride: Optional[RideViewModel] = None
    reporter: Optional[PositionReporter] = None
    tariffs: object = None  # TariffClient (None: demo, the built-in tariff)
    navigator: Navigator = field(default_factory=Navigator)
    payment: Optional[PaymentViewModel] = None
    ranks: Optional[RanksViewModel] = None
    background: Background = field(default_factory=Background)  # the network calls' worker (inline: demo, tests)
    tariff_asked_on: Optional[date] = None  # the local day the tariff and the municipal calendar were last asked
    pix: Optional[PixKeyViewModel] = None  # the driver's own Pix key

    def today(self) -> date:
        from taxilaw.flags import local_time

        return local_time(self.clock()).date()

    def after_login(self) -> None:
        """Connect dispatch with the token and ask, all at once and off the UI thread, for the cards
        (``/api/me/``: then the flag's compliance and the split, which needs the role), the tariff, the Pix
        terms and the queued payments: none waits for another."""
        if self.login.token:
            self.dispatch.connect(self.login.token, self.on_dispatch)
        self.load_me()
        self.load_tariff()
        if self.payment is not None:
            self.payment.load_terms()
            self.payment.flush()
        if self.meter.running:
            self.flag.trip_started(self.meter.last, street=self.meter.ride_id is None)

    def load_me(self) -> None:
        """``/api/me/`` off the UI thread ("Tentar de novo" on the cards asks again)."""
        self.cards.begin_loading()
        self.login.fetch_me(self._me_answered)

    def _me_answered(self, answer: MeAnswer) -> None:
        if not self.login.logged_in:  # the token expired: the session ends here
            self.cards.load(None, self.today())
            self._leave()
            return
        me = answer.me
        self.cards.load(me, self.today(), answer.unreachable, answer.saved_at)
        self.flag.set_compliance(me.get("compliance") if me else None)
        self.split.load(self.today(), self.cards.role)

    def logout(self) -> None:
        """Out of service, the socket closed, the token forgotten (and revoked on the server, best-effort)."""
        self._leave()
        self.login.logout()

    def _session_ended(self) -> None:
        """The central closed the socket because the token ended (4401, or a refused handshake): the login screen
        asks for the password again (``Navigator``), at once or, during a trip, once the meter stops (``stop_trip``)."""
        self.login.session_ended()
        if not self.meter.running:
            self._leave()

    def _leave(self) -> None:
        self.flag.go_off_duty()
        self.dispatch.close()

    def on_dispatch(self, msg: dict) -> None:
        """A dispatch message, on the UI thread."""
        if msg.get("type") == "connection" and msg.get("reason") == "auth":
            self._session_ended()
        if self.ride is not None:
            self.ride.on_message(msg)
        if self.ranks is not None:
            self.ranks.on_message(msg)
        self.offer.on_message(msg)
        if msg.get("type") == "connection" and msg.get("online") and self.meter.queue:
            self.meter.sync(force=True)  # the network is back: send the finished trips
        if msg.get("type") == "connection" and msg.get("online") and self.payment is not None and self.payment.queue:
            self.payment.flush()

    @property
    def online(self) -> bool:
        return bool(getattr(self.dispatch, "online", True))

    def load_tariff(self) -> None:
        """The tariff in force, the meter's parameters and the municipal holidays, all the server's
        (``/api/tariffs/current/``), cached for offline use (Art. 43, Art. 45).

        Offline: the last answer received (``tariff.json``), and the meter's tariff line says so. Without
        a decree in force, or offline before any answer, the meter does not start. Asked off the UI thread:
        meanwhile the tariff line says "Carregando…" and no trip starts. The demo session keeps the built-in
        tariff."""
        if self.tariffs is None:
            return
        token = self.login.token or ""
        self.tariff_asked_on = self.today()
        self.meter.tariff_requested()
        self.background.run(lambda: self.tariffs.current(token), self._tariff_answered, self._tariff_failed)

    def _tariff_answered(self, current: dict) -> None:
        if current.get("tariff"):
            self._apply(current, "")
            self.store.save(TARIFF_FILE, {"tariff": current["tariff"], "meter": current.get("meter") or {},
                                          "taximeter": current.get("taximeter"),
                                          "at": self.clock().isoformat()})
        else:
            self.store.delete(TARIFF_FILE)
            self.meter.set_tariff(None, "Nenhuma tarifa decretada em vigor: o taxímetro não pode ser iniciado (Art. 45).")

    def _tariff_failed(self, exc: Exception) -> None:
        if not offline(exc):
            self.meter.tariff_unanswered()  # the server answered an error: keep what the meter has
            return
        cached = self.store.load(TARIFF_FILE)
        if cached and cached.get("tariff"):
            self._apply(cached, "Sem conexão: última tarifa recebida do servidor.")
        else:
            self.meter.set_tariff(None, "Sem conexão e nenhuma tarifa recebida do servidor: o taxímetro não pode "
                                        "ser iniciado (Art. 45).")

    def _apply(self, answer: dict, note: str) -> None:
        config = answer.get("meter") or {}
        params = MeterParams.from_dict(config["params"]) if config.get("params") else None
        # The calendar's horizon: past it no municipal holiday is guessed (an answer without one covers nothing),
        # and the meter gets only the dates it covers, so flag and meter read the same certain calendar.
        until = date.fromisoformat(config["holidays_until"]) if config.get("holidays_until") else date.min
        holidays = frozenset(d for d in map(date.fromisoformat, config.get("holidays", [])) if d <= until)
        self.flag.municipal_holidays, self.flag.municipal_until = holidays, until
        correction = (answer.get("taximeter") or {}).get("correction")  # the cab's taxímetro awaits its aferição
        self.meter.set_tariff(Tariff.from_dict(answer["tariff"]), note, holidays, params, correction)

    def start_trip(self) -> bool:
        """Start the meter (boarding a dispatched ride first); False when no decree is in force (Art. 45) or the
        ride's previous step still waits for the central's answer."""
        if not self.meter.can_start:
            self.meter.changed()
            return False
        ride_id = None
        if self.ride is not None and self.ride.status in ("accepted", "arriving") and not self.ride.on_board():
            return False  # the previous step still waits for the central's answer: so does the meter
        if self.ride is not None and self.ride.status == "on_board":
            ride_id = self.ride.ride_id
        self.meter.start(ride_id=ride_id)
        self.flag.trip_started(self.meter.last, street=ride_id is None)
        return True

    def stop_trip(self) -> None:
        """End the trip at once: the fare shows, the trip is queued and sent without waiting (ride_complete
        for a dispatched ride, street_trip_complete otherwise); the answer comes later (``on_trip_confirmed``)."""
        trip_id, ride_id = self.meter.trip_id, self.meter.ride_id
        reading = self.meter.stop()
        if self.payment is not None and trip_id:
            self.payment.begin(self.meter.fare_due(reading.total), trip_id, ride_id)
            self.payment.load_terms()  # a key changed elsewhere (the admin, the web) counts from this payment on
        if self.ride is not None:
            self.ride.finished()
        self.flag.trip_ended()
        if not self.login.logged_in:  # the token expired during the trip: the cab leaves service now
            self.flag.go_off_duty()

    def on_payment_answered(self) -> None:
        """A payment was recorded (or refused): the Partilha's "Você recebeu", settlement and ride lines follow.
        Before ``/api/me/`` answered (a queued payment sent at login) its answer loads the Partilha anyway."""
        if self.cards.role:
            self.split.load(self.today(), self.cards.role)

    def pay_ride(self, ride_id: int) -> bool:
        """Reopen the payment of a ride of the week's list (its screen was missed); False when it is not payable."""
        line = self.split.line_of(ride_id)
        if self.payment is None or line is None or not line.payable:
            return False
        self.payment.reopen(ride_id, line.amount)
        self.payment.load_terms()
        return True

    def on_trip_confirmed(self, trip: dict, result) -> None:
        """The central recorded a trip: this week's split now includes its fare; its payment can be sent."""
        if self.payment is not None:
            self.payment.on_trip_confirmed(trip, getattr(result, "answer", None))
        self.split.load(self.today(), self.cards.role)

    def _refresh_daily(self) -> None:
        """A new local day after login: ask the tariff and the municipal calendar again (its horizon moves on);
        a running trip keeps its own, so the question waits for the trip's end."""
        if (self.tariffs is not None and self.login.token and self.tariff_asked_on is not None
                and self.tariff_asked_on != self.today() and not self.meter.running):
            self.load_tariff()

    def tick(self) -> None:
        """Once a second (the app's clock): replayed GPS, offer countdown, positions, sync queue."""
        step = getattr(self.gps, "step", None)
        if step is not None:  # replayed GPS (desktop, tests); the phone's GPS calls back by itself
            step()
        self.offer.tick()
        self._refresh_daily()
        if self.reporter is not None:
            self.reporter.tick()
        if self.meter.queue and self.online:
            self.meter.sync()


def build_session(app_dir: Path, api: Optional[str] = None, demo: bool = False,
                  clock: Optional[Callable[[], datetime]] = None, tariff: Tariff = MURIAE_DEMO_TARIFF,
                  trace=None, post: Optional[Callable[[Callable[[], None]], None]] = None,
                  gps: Optional[GpsSource] = None, phone: Optional[Phone] = None,
                  background: Optional[Background] = None, sound: Optional[OfferSound] = None) -> Session:
    """``post`` runs a callback of the dispatch socket's thread on the UI thread (``--api`` mode): the
    dispatch messages and the answers to finished trips.  ``background`` runs every HTTP call (default: a
    worker pool posting back with ``post``; inline for the demo's in-memory fakes).  ``sound`` rings for an offer
    (the app passes ``KivySound``; by default a silent ``RecordingSound``: no Kivy in tests)."""
    clock = clock or utcnow
    store = JsonStore(app_dir)
    # The server's calendar only: until it answers (or its cached answer loads) no municipal holiday is known, and
    # none is guessed (Art. 45, II; docs/readings-tariffs.md). The demo's built-in "server" answers with the seed.
    holidays: frozenset[date] = frozenset()
    municipal_until = date.min
    dispatch = FakeDispatch()
    tariffs = None
    if demo or not api:
        holidays = municipal_holiday_dates(range(clock().year - 1, clock().year + 2))
        municipal_until = date(clock().year + 1, 12, 31)
        statements = FakeStatements()
        monday = week_start(clock())
        for weeks_ago, gross, fares in ((1, "1234.50", 61), (2, "987.30", 48), (3, "1102.75", 55)):
            statements.weeks.append({"week_start": (monday - timedelta(days=7 * weeks_ago)).isoformat(),
                                     "gross": gross, "fares": fares})
        statements.weeks.append({"week_start": monday.isoformat(), "gross": "412.60", "fares": 19})
        statements.settlement = {"transfer": "José da Silva Pereira paga R$ 209,45 a Maria Aparecida Costa", "collected": [
            {"party": "auxiliary", "method": "cash", "amount": "186.40"},
            {"party": "auxiliary", "method": "pix", "amount": "126.20"},
            {"party": "holder", "method": "pix", "amount": "100.00"}]}
        trips = FakeTrips(statements, numbers=True)
        registry = FakeRegistry(me=demo_me(local_time(clock()).date()))
        ranks = FakeRanks(demo_ranks())
        payments = FakePayments(statements=statements)
    else:
        from .ws import DispatchTripsClient, WsDispatchClient

        registry = HttpRegistryClient(api)
        statements = HttpStatementsClient(registry)
        tariffs = HttpTariffClient(registry)
        payments = HttpPaymentsClient(registry)
        ranks = HttpRanksClient(registry)
        dispatch = WsDispatchClient(api, post=post)
        trips = DispatchTripsClient(dispatch)  # a dispatched trip is completed by ride_complete
    if gps is None:
        if demo or not _on_android():
            gps = ReplayGps(trace if trace is not None else demo_trace(), clock, loop=True)
        else:  # pragma: no cover
            gps = PlyerGps(clock, post=post)
    if phone is None:
        phone = AndroidPhone() if _on_android() else DesktopPhone()
    shared = SharedGps(gps)
    if background is None:  # the demo's in-memory fakes answer at once: inline
        background = Background() if demo or not api else Background(post)
    login = LoginViewModel(store, registry, background, clock)
    flag = FlagViewModel(clock, holidays, dispatch=dispatch, municipal_until=municipal_until)
    meter = MeterViewModel(store, tariff, shared.channel(), clock, holidays, trips=trips, token=lambda: login.token,
                           post=post, background=background)
    meter.subscribe(lambda vm: flag.on_meter(vm.last) if vm.running and vm.last else None)
    sound = sound or RecordingSound()
    offer = OfferViewModel(dispatch, flag, clock, phone=phone, sound=sound)
    split = SplitViewModel(statements, token=lambda: login.token, background=background)
    ride = RideViewModel(dispatch, flag, clock, phone=phone)
    reporter = PositionReporter(dispatch, flag, shared.channel(), clock)
    rank_vm = RanksViewModel(ranks, dispatch, lambda: (reporter.last.lat, reporter.last.lon) if reporter.last else None,
                             token=lambda: login.token, background=background)
    session = Session(store, clock, login, CardsViewModel(), flag, meter, offer, split, dispatch, shared, demo,
                      {"registry": registry, "statements": statements, "trips": trips, "tariffs": tariffs, "phone": phone,
                       "sound": sound},
                      ride=ride, reporter=reporter, tariffs=tariffs,
                      payment=PaymentViewModel(store, payments, token=lambda: login.token, background=background),
                      ranks=rank_vm, background=background)
    session.extras["payments"], session.extras["ranks"] = payments, ranks
    session.pix = PixKeyViewModel(payments, token=lambda: login.token, background=background,
                                  on_changed=session.payment.load_terms)  # the new key counts at once
    session.payment.on_answered = session.on_payment_answered
    meter.on_trip_confirmed = session.on_trip_confirmed
    return session


def _on_android() -> bool:
    return "ANDROID_ARGUMENT" in os.environ or "ANDROID_PRIVATE" in os.environ


def demo_offer(clock: Callable[[], datetime], seconds: int = 20, offer_id: Optional[int] = None,
               ride_id: int = 0) -> dict:
    """The demo's ``offer`` frame, as the central would send it."""
    now = clock()
    return outbound.OFFER(offer={
        "id": offer_id or int(now.timestamp()), "ride_id": ride_id, "status": "pending", "reason": "",
        "pickup": {"address": "Rua Coronel Izalino, 120 – Centro", "reference": "em frente à matriz",
                   "lat": -21.1302, "lon": -42.3655},
        "distance_m": 850, "expires_at": (now + timedelta(seconds=seconds)).isoformat(),
        "passenger": {"name": "Maria Aparecida", "phone": "(32) 99876-5432"},
        "destination": {"address": "Hospital São Paulo", "lat": -21.1352, "lon": -42.3641}})


def demo_ranks() -> dict:
    """Muriaé's ranks seen from the demo cab (a titular of Praça João Pinheiro), with the law's real answers."""
    from taxilaw import rank_acts
    from taxilaw import ranks as law

    def row(rank_id, name, category, distance, queue, titulars, decision, titular=False):
        private = category == "privativo"
        return {"id": rank_id, "name": name, "category": category,
                "category_display": "privativo (Art. 22, I)" if private else "livre (Art. 22, II)",
                "distance_m": distance, "queue": queue, "titular": titular, "titular_count": titulars,
                "visitor_limit": law.visitor_limit(titulars) if private else None, "allowed": decision.allowed,
                "reasons": [r.as_dict() for r in decision.reasons]}

    return {"checked_in": None, "ranks": [
        row(4, "Praça João Pinheiro", "privativo", 120, 1, 12, rank_acts.may_check_in_at(120, 200), titular=True),
        row(1, "Praça Cel. Pacheco de Medeiros", "privativo", 160, 4, 6, law.visitors_allowed(6, 4, 0)),
        row(2, "Rodoviária de Muriaé", "privativo", 650, 1, 4, law.visitors_allowed(4, 1, 0)),
        row(3, "Hospital São Paulo", "livre", 1180, 0, 0, rank_acts.may_check_in_at(1180, 200)),
    ]}
