"""The taximeter screen: :class:`taxilaw.meter.Meter` fed by the GPS facade.

The meter state (``Meter.to_dict``) and the trip's trace are saved in
``meter.json`` so a restart mid-trip resumes where it was; finished trips go
to ``sync_queue.json`` and are uploaded when the network allows (Art. 43: the
server recomputes the fare from the trace).

Ending a trip never waits for the network: :meth:`MeterViewModel.stop` closes
the trip and shows the fare at once (the meter's total, Art. 43), then hands
the trip to the trips client, whose ``submit`` returns at once; its answer
arrives later on another thread and ``post`` (``Clock.schedule_once`` in the
Kivy app, a queue in tests) brings it back to the UI thread: confirmed, kept
in the queue for later, or refused with the server's message.  A client with
only a blocking ``upload`` is called through ``Background`` (a worker), never
on the UI thread.
"""

from __future__ import annotations

import threading
import uuid
from datetime import date, datetime, timedelta
from typing import Any, Callable, Collection, Optional

from taxilaw.brazil import brl
from taxilaw.brazil import km_truncated as km  # the meter never runs ahead of itself
from taxilaw.flags import Flag
from taxilaw.meter import Meter
from taxilaw.meter_data import DEFAULT_METER_PARAMS, Fix, MeterParams, MeterReading
from taxilaw.tariffs import Tariff, apply_correction

from ..background import Background
from ..clients import TripResult, TripsClient, upload_result
from ..formatting import hms
from ..gps import GpsSource
from ..storage import JsonStore
from .base import Observable

STATE_FILE = "meter"


class NoTariffInForce(RuntimeError):
    """The meter does not run without a decreed tariff from the server (Art. 43, Art. 45)."""

QUEUE_FILE = "sync_queue"
REJECTED_FILE = "sync_rejected"

Post = Callable[[Callable[[], None]], None]


class MeterViewModel(Observable):
    start_text = "Iniciar corrida"
    stop_text = "Encerrar corrida"

    def __init__(self, store: JsonStore, tariff: Tariff, gps: GpsSource, clock: Callable[[], datetime],
                 municipal_holidays: Collection[date] = (), params: MeterParams = DEFAULT_METER_PARAMS,
                 trips: Optional[TripsClient] = None, token: Callable[[], Optional[str]] = lambda: None,
                 save_every_s: float = 5.0, post: Optional[Post] = None, background: Optional[Background] = None):
        super().__init__()
        self.store = store
        self.tariff = tariff
        self.gps = gps
        self.clock = clock
        self.municipal_holidays = frozenset(municipal_holidays)
        self.params = params
        self.trips = trips
        self.token = token
        self.save_every_s = save_every_s
        self.meter: Optional[Meter] = None
        self.trip_id: Optional[str] = None
        self.ride_id: Optional[int] = None  # the dispatched ride this trip completes (None: street hail)
        self.correction: Optional[dict[str, Any]] = None  # the cab's correction table (Art. 45, §3), for the next trips
        self.trip_correction: Optional[dict[str, Any]] = None  # the one the running (or last) trip is paid under
        self.tariff_note = ""  # where the tariff came from when it is not the server's ("sem conexão...")
        self.tariff_loading = False  # the server's tariff is being asked: no trip starts on the one held before
        self.sync_message = ""  # the last answer worth telling: a trip refused for good, a street trip recorded
        self.retry_note = ""  # why the queue waits although the central answered ("not allowed now"...)
        self.sending: Optional[str] = None  # trip_id handed to the trips client, its answer not back yet
        self.post: Post = post or (lambda fn: fn())  # runs an answer on the UI thread (Kivy: Clock)
        self.background = background or Background()
        self.on_trip_confirmed: Optional[Callable[[dict[str, Any], TripResult], None]] = None
        self._retry_at: Optional[datetime] = None
        self.trace: list[dict[str, Any]] = []
        self.last: Optional[MeterReading] = None  # last reading (also after the stop: the fare)
        self.queue: list[dict[str, Any]] = list(store.load(QUEUE_FILE, []) or [])
        self._saved_at: Optional[datetime] = None
        self.restored = self._restore()

    # -- persistence ----------------------------------------------------------------------

    def _restore(self) -> bool:
        data = self.store.load(STATE_FILE)
        if not data:
            return False
        try:
            self.meter = Meter.from_dict(data["meter"])
            self.trip_id = data["trip_id"]
            self.ride_id = data.get("ride_id")
            self.trip_correction = data.get("correction")
            self.trace = list(data.get("trace", []))
            self.last = self.meter.reading()
        except (KeyError, TypeError, ValueError):
            self.meter, self.trip_id, self.trace = None, None, []
            self.store.delete(STATE_FILE)
            return False
        self.gps.start(self.on_fix)  # the trip goes on
        return True

    def save(self) -> None:
        if self.meter is None:
            self.store.delete(STATE_FILE)
            return
        self.store.save(STATE_FILE, {"trip_id": self.trip_id, "ride_id": self.ride_id, "meter": self.meter.to_dict(),
                                     "correction": self.trip_correction, "trace": self.trace})
        self._saved_at = self.clock()

    # -- trip ---------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.meter is not None and self.meter.stopped_ts is None

    def set_tariff(self, tariff: Optional[Tariff], note: str = "", municipal_holidays: Optional[Collection[date]] = None,
                   params: Optional[MeterParams] = None, correction: Optional[dict[str, Any]] = None) -> None:
        """The server's tariff, holidays and meter parameters for the next trips; a running trip keeps its own (Art. 45).
        ``None``: no decree in force is known, and the meter does not start (Art. 43, Art. 45). ``correction``: the
        table (``factor``, ``authorization``, ``valid_until``) that converts the reading of a taxímetro not yet afered
        for the tariff in force (Art. 45, §3)."""
        self.tariff, self.tariff_note, self.correction = tariff, note, correction
        self.tariff_loading = False
        if municipal_holidays is not None:
            self.municipal_holidays = frozenset(municipal_holidays)
        if params is not None:
            self.params = params
        self.changed()

    def tariff_requested(self) -> None:
        """The server's tariff was asked (``Session.load_tariff``): the tariff line says so until it answers."""
        self.tariff_loading = True
        self.changed()

    def tariff_unanswered(self) -> None:
        """The server answered the tariff with an error: the meter keeps the tariff it has."""
        self.tariff_loading = False
        self.changed()

    @property
    def can_start(self) -> bool:
        return self.tariff is not None and not self.running and not self.tariff_loading

    def start(self, ride_id: Optional[int] = None) -> MeterReading:
        """Start the trip: the bandeirada is registered at once (Art. 1, VII); never without a decreed tariff (Art. 45)."""
        if self.running:
            raise RuntimeError("a trip is already running")
        if self.tariff is None:
            raise NoTariffInForce(self.tariff_note)
        self.meter = Meter(self.tariff, self.municipal_holidays, self.params)
        self.trip_id = uuid.uuid4().hex
        self.ride_id = ride_id
        self.trip_correction = self.correction
        self.sync_message = ""
        self.trace = []
        self.last = self.meter.start(self.clock())
        self.save()
        self.gps.start(self.on_fix)
        self.changed()
        return self.last

    def on_fix(self, fix: Fix) -> None:
        if not self.running:
            return
        self.trace.append(fix.to_dict())
        self.last = self.meter.feed(fix)
        now = self.clock()
        if self._saved_at is None or (now - self._saved_at).total_seconds() >= self.save_every_s:
            self.save()
        self.changed()

    def fare_due(self, total: Any) -> Any:
        """What the passenger pays for the trip's reading: the reading (Art. 45, §5) or, under a correction table,
        the reading converted by it (Art. 45, §3), as the server converts it."""
        table = self.trip_correction
        return apply_correction(total, table["factor"]) if table else total

    def stop(self) -> MeterReading:
        """End the trip: what is shown is the fare (Art. 43, Art. 45, §5); queue it for upload."""
        if not self.running:
            raise RuntimeError("no trip running")
        self.gps.stop()
        at = self.clock()
        reading = self.meter.stop(at)
        started = datetime.fromtimestamp(self.meter.started_ts, at.tzinfo)
        trip = {
            "trip_id": self.trip_id,
            "ride_id": self.ride_id,
            "started_at": started.isoformat(),
            "stopped_at": datetime.fromtimestamp(self.meter.stopped_ts, at.tzinfo).isoformat(),
            "total": str(reading.total),
            "reading": reading.to_dict(),
            "tariff": self.tariff.to_dict(),
            "params": self.params.to_dict(),
            "trace": self.trace,
        }
        self.queue.append(trip)
        self.store.save(QUEUE_FILE, self.queue)
        self.last = reading
        self.meter, self.trip_id, self.ride_id, self.trace = None, None, None, []
        self.store.delete(STATE_FILE)
        self.changed()
        self.sync()
        return reading

    def sync(self, force: bool = False) -> int:
        """Send the queued trips in order without blocking; returns how many were confirmed at once.

        One trip is in flight at a time (``sending``); its answer (:meth:`_answered`) sends the next one.
        A trip the central answered without recording waits ``retry_in`` seconds unless ``force``
        (the connection came back)."""
        if self.trips is None or not self.queue or self.sending is not None:
            return 0
        if not force and self._retry_at is not None and self.clock() < self._retry_at:
            return 0
        self._retry_at = None
        confirmed = 0
        while self.queue and self.sending is None:
            trip = self.queue[0]
            self.sending = trip["trip_id"]
            result = self._submit(trip)
            if result is None:  # in flight: the answer comes through post
                break
            confirmed += result.outcome == TripResult.CONFIRMED
            if not self._apply(trip["trip_id"], result):
                break
        self.changed()
        return confirmed

    def _submit(self, trip: dict[str, Any]) -> Optional[TripResult]:
        """Hand the trip to the client: its result if known at once (offline, an in-memory client), else None."""
        token = self.token() or ""
        submit = getattr(self.trips, "submit", None)
        caller, at_once, box = threading.get_ident(), [True], []

        def done(result: TripResult) -> None:
            if at_once[0] and threading.get_ident() == caller:
                box.append(result)  # answered inside submit, on this thread
            else:
                self.post(lambda: self._answered(trip["trip_id"], result))

        def failed(exc: Exception) -> None:  # the upload raised what upload_result does not turn into a result
            done(TripResult.rejected("invalid", str(exc)) if isinstance(exc, (KeyError, TypeError, ValueError))
                 else TripResult.queued("error"))

        try:
            if submit is None:  # a blocking upload: on a worker (inline with the demo's in-memory fakes)
                self.background.run(lambda: upload_result(self.trips, token, trip), done, failed)
            else:
                submit(token, trip, done)
        except (KeyError, TypeError, ValueError) as exc:  # a queue item the client cannot even encode
            return TripResult.rejected("invalid", str(exc))
        finally:
            at_once[0] = False
        return box[0] if box else None

    def _answered(self, trip_id: str, result: TripResult) -> None:
        """The answer to a trip in flight, on the UI thread."""
        if self.sending != trip_id:
            return  # this trip is not in flight any more
        go_on = self._apply(trip_id, result)
        self.changed()
        if go_on:
            self.sync()

    def _apply(self, trip_id: str, result: TripResult) -> bool:
        """Update the queue with one answer; True when the next trip may be sent."""
        self.sending = None
        index = next((i for i, t in enumerate(self.queue) if t["trip_id"] == trip_id), None)
        if index is None:
            return True
        trip = self.queue[index]
        if result.outcome == TripResult.QUEUED:
            self.retry_note = result.message
            if result.retry_in:
                self._retry_at = self.clock() + timedelta(seconds=result.retry_in)
            return False
        self.queue.pop(index)
        self.store.save(QUEUE_FILE, self.queue)
        self.retry_note = ""
        street = trip.get("ride_id") is None
        if result.outcome == TripResult.REJECTED:
            rejected = list(self.store.load(REJECTED_FILE, []) or [])
            rejected.append(dict(trip, rejected=result.code, rejected_message=result.message))
            self.store.save(REJECTED_FILE, rejected)
            reason = result.message or result.code
            self.sync_message = (f"Corrida de rua recusada pela central: {reason}" if street else
                                 f"Corrida #{trip['ride_id']} descartada: não está mais em andamento na central"
                                 f" ({reason}).")
            return True
        ride_id = result.answer.get("ride_id")
        self.sync_message = (f"Corrida de rua registrada na central (nº {ride_id})." if street and ride_id else "")
        if self.on_trip_confirmed is not None:
            self.on_trip_confirmed(trip, result)
        return True

    # -- display ------------------------------------------------------------------------------

    @property
    def total_text(self) -> str:
        return brl(self.last.total if self.last else self.tariff.bandeirada)

    @property
    def distance_text(self) -> str:
        return km(self.last.distance_m if self.last else 0.0)

    @property
    def waiting_text(self) -> str:
        return hms(self.last.waiting_s if self.last else 0.0)

    @property
    def flag_text(self) -> str:
        if self.last is None:
            return ""
        return "Bandeira II" if self.last.flag == Flag.II else "Bandeira I"

    @property
    def flag_state(self) -> Optional[str]:
        """``bandeira_1`` / ``bandeira_2`` of the running (or just ended) trip, None before any trip."""
        if self.last is None:
            return None
        return "bandeira_2" if self.last.flag == Flag.II else "bandeira_1"

    @property
    def flag_reason(self) -> str:
        return self.last.flag_label if self.last else ""

    @property
    def status_text(self) -> str:
        if self.running:
            return "Corrida em andamento"
        if self.last is not None:
            due = self.fare_due(self.last.total)
            if due != self.last.total:
                return f"Corrida encerrada: taxímetro {brl(self.last.total)}, cobrar {brl(due)} pela tabela de correção (Art. 45, §3)"
            return f"Corrida encerrada: cobrar {brl(due)}"
        return "Taxímetro livre"

    @property
    def sync_text(self) -> str:
        n = len(self.queue)
        if self.sending is not None:
            more = n - 1
            return "Enviando à central: aguardando confirmação…" + (f" (+{more} na fila)" if more > 0 else "")
        if n == 0:
            return self.sync_message or "Corridas sincronizadas"
        waiting = f"{n} corrida{'s' if n > 1 else ''} aguardando"
        return f"{waiting}: {self.retry_note}" if self.retry_note else f"{waiting} conexão"

    @property
    def tariff_text(self) -> str:
        if self.tariff_loading:
            return "Carregando a tarifa em vigor…"
        t = self.tariff
        if t is None:
            return self.tariff_note
        line = (f"Bandeirada {brl(t.bandeirada)} · km BI {brl(t.price_km_b1)} · km BII {brl(t.price_km_b2)}"
                f" · hora {brl(t.price_hour_waiting)}")
        if self.correction:
            line += (f"\nTabela de correção ({self.correction['authorization']}): o passageiro paga o valor do taxímetro"
                     f" × {self.correction['factor'].replace('.', ',')} (Art. 45, §3)")
        return f"{line}\n{self.tariff_note}" if self.tariff_note else line
