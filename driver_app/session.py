"""Wires the view-models to the clients (no Kivy): real API or demo fakes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Callable, Optional

from taxilaw.flags import local_time, municipal_holiday_dates
from taxilaw.split import week_start
from taxilaw.tariffs import MURIAE_DEMO_TARIFF, Tariff

from .clients import (
    ApiError,
    FakeDispatch,
    FakeRegistry,
    FakeStatements,
    FakeTrips,
    HttpRegistryClient,
    HttpStatementsClient,
    HttpTariffClient,
    NetworkError,
    demo_me,
)
from .gps import GpsSource, PlyerGps, ReplayGps, SharedGps, demo_trace, utcnow
from .storage import JsonStore
from .viewmodels import (
    CardsViewModel,
    FlagViewModel,
    LoginViewModel,
    MeterViewModel,
    OfferViewModel,
    PositionReporter,
    RideViewModel,
    SplitViewModel,
)

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

    def today(self) -> date:
        from taxilaw.flags import local_time

        return local_time(self.clock()).date()

    def after_login(self) -> None:
        """Load the cards, apply compliance to the flag, connect dispatch, load the split."""
        me = self.login.fetch_me()
        self.load_tariff()
        self.cards.load(me, self.today())
        self.flag.set_compliance((me or {}).get("compliance") if me else None)
        if self.login.token:
            self.dispatch.connect(self.login.token, self.on_dispatch)
        self.split.load(self.today(), self.cards.role)
        if self.meter.running:
            self.flag.trip_started(self.meter.last, street=self.meter.ride_id is None)

    def on_dispatch(self, msg: dict) -> None:
        """A dispatch message, on the UI thread."""
        if self.ride is not None:
            self.ride.on_message(msg)
        self.offer.on_message(msg)
        if msg.get("type") == "connection" and msg.get("online") and self.meter.queue:
            self.meter.sync(force=True)  # the network is back: send the finished trips

    @property
    def online(self) -> bool:
        return bool(getattr(self.dispatch, "online", True))

    def load_tariff(self) -> None:
        """The tariff in force and the municipal holidays from the server (``/api/tariffs/current/``).

        Offline: the last tariff received (``tariff.json``), else the built-in demo tariff -- and the
        meter's tariff line says so.  The demo session keeps the built-in tariff."""
        if self.tariffs is None:
            return
        token = self.login.token or ""
        base = municipal_holiday_dates(range(self.today().year - 1, self.today().year + 2))
        try:
            current = self.tariffs.current(token)
            listed = self.tariffs.municipal_holidays(token)
        except NetworkError:
            cached = self.store.load(TARIFF_FILE)
            if cached and cached.get("tariff"):
                holidays = base | {date.fromisoformat(d) for d in cached.get("holidays", [])}
                self.meter.set_tariff(Tariff.from_dict(cached["tariff"]),
                                      "Sem conexão: última tarifa recebida do servidor.", holidays)
            else:
                holidays = base
                self.meter.set_tariff(MURIAE_DEMO_TARIFF, "Sem conexão: tarifa de demonstração.", holidays)
            self.flag.municipal_holidays = frozenset(holidays)
            return
        except ApiError:
            return  # the server answered an error: keep what the meter has
        extra = {date.fromisoformat(d) for d in listed} if listed is not None else set()
        flag = current.get("flag") or {}
        if flag.get("code") == "holiday" and flag.get("holiday_name"):
            # the server's calendar says today is a holiday: make it one here too (Art. 45, II)
            from taxilaw.flags import flag_for

            if flag_for(self.clock(), 0.0, base | extra).code != "holiday":
                extra.add(self.today())
        holidays = base | extra
        self.flag.municipal_holidays = frozenset(holidays)
        if current.get("tariff"):
            tariff = Tariff.from_dict(current["tariff"])
            self.meter.set_tariff(tariff, "", holidays)
            self.store.save(TARIFF_FILE, {"tariff": tariff.to_dict(), "holidays": sorted(d.isoformat() for d in extra),
                                          "at": self.clock().isoformat()})
        else:
            self.meter.set_tariff(MURIAE_DEMO_TARIFF, "Nenhuma tarifa decretada em vigor no servidor: tarifa de "
                                                      "demonstração.", holidays)

    def start_trip(self) -> None:
        ride_id = None
        if self.ride is not None and self.ride.status in ("accepted", "arriving"):
            self.ride.on_board()
        if self.ride is not None and self.ride.status == "on_board":
            ride_id = self.ride.ride_id
        self.meter.start(ride_id=ride_id)
        self.flag.trip_started(self.meter.last, street=ride_id is None)

    def stop_trip(self) -> None:
        """End the trip at once: the fare shows, the trip is queued and sent without waiting (ride_complete
        for a dispatched ride, street_trip_complete otherwise); the answer comes later (``on_trip_confirmed``)."""
        self.meter.stop()
        if self.ride is not None:
            self.ride.finished()
        self.flag.trip_ended()

    def on_trip_confirmed(self, trip: dict, result) -> None:
        """The central recorded a trip: this week's split now includes its fare."""
        self.split.load(self.today(), self.cards.role)

    def tick(self) -> None:
        """Once a second (the app's clock): replayed GPS, offer countdown, positions, sync queue."""
        step = getattr(self.gps, "step", None)
        if step is not None:  # replayed GPS (desktop, tests); the phone's GPS calls back by itself
            step()
        self.offer.tick()
        if self.reporter is not None:
            self.reporter.tick()
        if self.meter.queue and self.online:
            self.meter.sync()


def build_session(app_dir: Path, api: Optional[str] = None, demo: bool = False,
                  clock: Optional[Callable[[], datetime]] = None, tariff: Tariff = MURIAE_DEMO_TARIFF,
                  trace=None, post: Optional[Callable[[Callable[[], None]], None]] = None,
                  gps: Optional[GpsSource] = None) -> Session:
    """``post`` runs a callback of the dispatch socket's thread on the UI thread (``--api`` mode): the
    dispatch messages and the answers to finished trips."""
    clock = clock or utcnow
    store = JsonStore(app_dir)
    holidays = municipal_holiday_dates(range(clock().year - 1, clock().year + 2))
    dispatch = FakeDispatch()
    tariffs = None
    if demo or not api:
        statements = FakeStatements()
        monday = week_start(clock())
        for weeks_ago, gross, fares in ((1, "1234.50", 61), (2, "987.30", 48), (3, "1102.75", 55)):
            statements.weeks.append({"week_start": (monday - timedelta(days=7 * weeks_ago)).isoformat(),
                                     "gross": gross, "fares": fares})
        statements.weeks.append({"week_start": monday.isoformat(), "gross": "412.60", "fares": 19})
        trips = FakeTrips(statements)
        registry = FakeRegistry(me=demo_me(local_time(clock()).date()))
    else:
        from .ws import DispatchTripsClient, WsDispatchClient

        registry = HttpRegistryClient(api)
        statements = HttpStatementsClient(registry)
        tariffs = HttpTariffClient(registry)
        dispatch = WsDispatchClient(api, post=post)
        trips = DispatchTripsClient(dispatch)  # a dispatched trip is completed by ride_complete
    if gps is None:
        if demo or not _on_android():
            gps = ReplayGps(trace if trace is not None else demo_trace(), clock, loop=True)
        else:  # pragma: no cover
            gps = PlyerGps(clock)
    shared = SharedGps(gps)
    login = LoginViewModel(store, registry)
    flag = FlagViewModel(clock, holidays, dispatch=dispatch)
    meter = MeterViewModel(store, tariff, shared.channel(), clock, holidays, trips=trips, token=lambda: login.token,
                           post=post)
    meter.subscribe(lambda vm: flag.on_meter(vm.last) if vm.running and vm.last else None)
    offer = OfferViewModel(dispatch, flag, clock)
    split = SplitViewModel(statements, token=lambda: login.token)
    ride = RideViewModel(dispatch, flag, clock)
    reporter = PositionReporter(dispatch, flag, shared.channel(), clock)
    session = Session(store, clock, login, CardsViewModel(), flag, meter, offer, split, dispatch, shared, demo,
                      {"registry": registry, "statements": statements, "trips": trips, "tariffs": tariffs},
                      ride=ride, reporter=reporter, tariffs=tariffs)
    meter.on_trip_confirmed = session.on_trip_confirmed
    return session


def _on_android() -> bool:
    return "ANDROID_ARGUMENT" in os.environ or "ANDROID_PRIVATE" in os.environ


def demo_offer(clock: Callable[[], datetime], seconds: int = 20) -> dict:
    now = clock()
    return {"type": "offer", "offer_id": f"demo-{int(now.timestamp())}",
            "pickup": {"address": "Rua Coronel Izalino, 120 – Centro", "reference": "em frente à matriz",
                       "lat": -21.1302, "lon": -42.3655},
            "distance_m": 850, "expires_at": (now + timedelta(seconds=seconds)).isoformat()}
