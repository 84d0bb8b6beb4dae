"""The dispatched ride after the offer (accepted -> arriving -> on board), the rank queue, the
connection to the central, and the positions sent to it.  Plain Python: messages arrive already on
the UI thread (the dispatch client marshals them)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Optional

from taxilaw.meter import Fix

from ..clients import DispatchClient
from .base import Observable
from .flag import DriverState, FlagViewModel

RIDE_LABELS = {"accepted": "Corrida aceita: a caminho do passageiro", "arriving": "No local: aguardando o passageiro",
               "on_board": "Passageiro a bordo"}


class RideViewModel(Observable):
    arriving_text = "Cheguei ao passageiro"
    on_board_text = "Passageiro a bordo"

    def __init__(self, dispatch: DispatchClient, flag: FlagViewModel, clock: Callable[[], datetime]):
        super().__init__()
        self.dispatch = dispatch
        self.flag = flag
        self.clock = clock
        self.ride_id: Optional[int] = None
        self.status = ""  # accepted | arriving | on_board
        self.pickup: dict[str, Any] = {}
        self.online: Optional[bool] = None  # None: no dispatch socket (demo)
        self.message = ""
        self.rank: Optional[dict[str, Any]] = None  # {rank_id, rank, queue_position, visitor}
        self.last_offer: Optional[dict[str, Any]] = None

    # -- from the server -----------------------------------------------------------------------

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        handler = getattr(self, "_on_" + str(kind), None)
        if handler is not None:
            handler(msg)
            self.changed()

    def _on_connection(self, msg):
        self.online = bool(msg.get("online"))
        reason = msg.get("reason")
        if self.online:
            if self.message.startswith("Sem conexão"):
                self.message = ""
        elif reason == "auth":
            self.message = "Sessão expirada: entre novamente."
        elif reason == "policy":
            self.message = "A central encerrou a conexão."
        else:
            self.message = "Sem conexão com a central: reconectando…"

    def _on_snapshot(self, msg):
        ride = msg.get("ride")
        if ride:
            self.ride_id, self.status = ride["id"], ride["status"]
            self.pickup = ride.get("pickup") or {}
            self.flag.restore(DriverState.OCUPADO if self.status == "on_board" else DriverState.A_CAMINHO)
        elif self.ride_id is not None and self.status in ("accepted", "arriving"):
            self._clear("A corrida foi cancelada enquanto o aplicativo estava sem conexão.")
            self.flag.trip_ended()

    def _on_offer(self, msg):
        self.last_offer = msg

    def _on_offer_accepted(self, msg):
        self.ride_id, self.status, self.message = msg["ride_id"], "accepted", ""
        if msg.get("ride"):  # protocol 1.2: the ride itself
            self.pickup = msg["ride"].get("pickup") or {}
        elif self.last_offer and self.last_offer.get("ride_id") == msg["ride_id"]:
            self.pickup = self.last_offer.get("pickup") or {}
        self.rank = None  # accepting takes the cab out of the rank queue

    def _on_ride_updated(self, msg):
        """The server's answer to ``ride_arriving`` / ``ride_on_board`` (protocol 1.2): the ride as it now is."""
        ride = msg.get("ride") or {}
        if ride.get("id") == self.ride_id and ride.get("status") in RIDE_LABELS:
            self.status = ride["status"]

    def _on_ride_cancelled(self, msg):
        if msg.get("ride_id") == self.ride_id:
            self._clear("Corrida cancelada.")
            self.flag.trip_ended()

    def _on_rank_checked_in(self, msg):
        self.rank = {k: msg.get(k) for k in ("rank_id", "rank", "queue_position", "visitor")}

    def _on_rank_checked_out(self, msg):
        self.rank = None

    def _on_broadcast(self, msg):
        self.message = "Central: " + str(msg.get("text", ""))

    def _on_suspended(self, msg):
        self.flag.set_compliance({"allowed": False, "reasons": msg.get("reasons", [])})
        self.message = "Suspenso: " + "; ".join(r.get("message", "") for r in msg.get("reasons", []))

    def _on_error(self, msg):
        code = msg.get("code")
        if code == "offer_gone" and self.ride_id is None and self.flag.state == DriverState.A_CAMINHO:
            self.flag.restore(DriverState.LIVRE)
            self.message = "A chamada não está mais disponível."
        else:
            self.message = str(msg.get("message") or code)

    # -- driver's actions ----------------------------------------------------------------------

    def arriving(self) -> bool:
        if self.ride_id is None or self.status != "accepted":
            return False
        self.dispatch.send({"type": "ride_arriving", "ride_id": self.ride_id})
        self.status = "arriving"
        self.changed()
        return True

    def on_board(self) -> bool:
        if self.ride_id is None or self.status not in ("accepted", "arriving"):
            return False
        self.dispatch.send({"type": "ride_on_board", "ride_id": self.ride_id})
        self.status = "on_board"
        self.changed()
        return True

    def finished(self) -> None:
        """The meter stopped: the ride is completed by the trip upload (ride_complete)."""
        self._clear("")

    def check_in(self, rank_id: int) -> None:
        self.dispatch.send({"type": "rank_check_in", "rank_id": int(rank_id)})

    def check_out(self) -> None:
        self.dispatch.send({"type": "rank_check_out"})

    def _clear(self, message: str) -> None:
        self.ride_id, self.status, self.pickup, self.message = None, "", {}, message

    # -- display -------------------------------------------------------------------------------

    @property
    def active(self) -> bool:
        return self.ride_id is not None

    @property
    def ride_text(self) -> str:
        if self.ride_id is None:
            return ""
        address = self.pickup.get("address", "")
        return f"{RIDE_LABELS.get(self.status, self.status)}" + (f" – {address}" if address else "")

    @property
    def rank_text(self) -> str:
        if not self.rank:
            return ""
        return f"{self.rank.get('rank')}: {self.rank.get('queue_position')}º na fila"

    @property
    def connection_text(self) -> str:
        if self.online is None:
            return ""
        return "Central conectada" if self.online else "Sem conexão com a central"


class PositionReporter:
    """Sends the phone's position every ``every_s`` while livre, a caminho or ocupado."""

    ACTIVE = (DriverState.LIVRE, DriverState.A_CAMINHO, DriverState.OCUPADO)

    def __init__(self, dispatch: DispatchClient, flag: FlagViewModel, gps, clock: Callable[[], datetime],
                 every_s: float = 5.0, max_age_s: float = 60.0):
        self.dispatch, self.flag, self.gps, self.clock = dispatch, flag, gps, clock
        self.every_s, self.max_age_s = every_s, max_age_s
        self.last: Optional[Fix] = None
        self.sent_at: Optional[datetime] = None
        self.sent = 0
        self.listening = False

    def on_fix(self, fix: Fix) -> None:
        self.last = fix

    def tick(self) -> None:
        active = self.flag.state in self.ACTIVE
        if active and not self.listening:
            self.gps.start(self.on_fix)
            self.listening = True
        elif not active and self.listening:
            self.gps.stop()
            self.listening = False
        if not active or self.last is None:
            return
        now = self.clock()
        if (now - self.last.t).total_seconds() > self.max_age_s:
            return
        if self.sent_at is None or (now - self.sent_at).total_seconds() >= self.every_s:
            self.dispatch.send({"type": "position", "lat": self.last.lat, "lon": self.last.lon,
                                "accuracy_m": self.last.accuracy_m, "at": self.last.t.isoformat()})
            self.sent_at = now
            self.sent += 1
