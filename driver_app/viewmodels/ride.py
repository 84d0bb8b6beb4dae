"""The dispatched ride after the offer (accepted -> arriving -> on board), the rank queue, the
connection to the central, and the positions sent to it.  Plain Python: messages arrive already on
the UI thread (the dispatch client marshals them)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Optional

from taxilaw.brazil import phone as phone_display
from taxilaw.cancellation import REASON_LABELS, CancelReason
from taxilaw.meter_data import Fix
from taxiwire import inbound

from ..clients import DispatchClient
from ..formatting import mmss
from ..phone import DesktopPhone, Phone
from .base import Observable
from .flag import DriverState, FlagViewModel

REASONS = {r.value for r in CancelReason}
RIDE_LABELS = {"accepted": "Corrida aceita: a caminho do passageiro", "arriving": "No local: aguardando o passageiro",
               "on_board": "Passageiro a bordo"}
#: what the driver may do in each state of the ride (in this order on the screen)
ACTIONS = {"accepted": ("arriving", "navigate", "call", "cancel"), "arriving": ("on_board", "call", "cancel"),
           "on_board": ()}
ACTION_LABELS = {"arriving": "Cheguei", "on_board": "Passageiro a bordo", "navigate": "Navegar até o passageiro",
                 "call": "Ligar para o passageiro", "cancel": "Cancelar corrida"}
CANCELLED_TEXTS = {"reoffer": "Corrida repassada ao próximo táxi.", "end": "Corrida encerrada: {reason}."}
#: the central's own view of the cab (protocol 1.5 ``presence``), beyond the socket being open
NOT_RECEIVING = ("Você não está recebendo corridas: a central está refazendo o seu registro. Aguarde com o aplicativo "
                 "aberto; se continuar assim por mais de um minuto, feche e abra o aplicativo.")
RECEIVING_AGAIN = "Registro na central refeito: você voltou a receber corridas."


class RideViewModel(Observable):
    arriving_text = "Cheguei ao passageiro"
    on_board_text = "Passageiro a bordo"

    def __init__(self, dispatch: DispatchClient, flag: FlagViewModel, clock: Callable[[], datetime],
                 phone: Optional[Phone] = None):
        super().__init__()
        self.dispatch = dispatch
        self.flag = flag
        self.clock = clock
        self.phone = phone or DesktopPhone()
        self.ride_id: Optional[int] = None
        self.status = ""  # accepted | arriving | on_board
        self.pending = ""  # the step sent and not yet answered: arriving | on_board | cancel
        self.refused = ""  # the central's pt-BR refusal of the last step ("Cheguei" far from the pickup): shown until it passes
        self.pickup: dict[str, Any] = {}
        self.destination: dict[str, Any] = {}
        self.passenger: dict[str, Any] = {}  # {name, phone}
        self.no_show_at: Optional[datetime] = None
        self.boarding_code = ""  # protocol 1.6: the passenger's page shows the same; the driver says it before boarding
        self.online: Optional[bool] = None  # None: no dispatch socket (demo)
        self.receiving: Optional[bool] = None  # whether the central counts the cab online (snapshot, ``presence``)
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
        self.receiving = None  # the snapshot of the next connection says
        reason = msg.get("reason")
        if self.online:
            if self.message.startswith("Sem conexão"):
                self.message = ""
        elif reason == "auth":
            self.message = "Sessão expirada: entre novamente."
        elif reason == "policy":  # the central's reason, when it gave one, stays on screen
            self.message = msg.get("message") or "A central encerrou a conexão."
        else:
            self.message = "Sem conexão com a central: reconectando…"

    def _on_presence(self, msg):
        """The central stopped (or resumed) counting the cab online while the socket stayed open (protocol 1.5)."""
        was, self.receiving = self.receiving, bool(msg.get("online"))
        if not self.receiving:
            self.message = NOT_RECEIVING
        elif was is False:
            self.message = RECEIVING_AGAIN

    def _on_snapshot(self, msg):
        self.receiving = bool((msg.get("cab") or {}).get("online", True))
        if self.message == NOT_RECEIVING and self.receiving:
            self.message = ""
        if msg.get("offer"):
            self.last_offer = msg["offer"]
        ride = msg.get("ride")
        if ride:
            self.ride_id, self.pending = ride["id"], ""
            self._follow(ride)
            self.flag.restore(DriverState.OCUPADO if self.status == "on_board" else DriverState.A_CAMINHO)
        elif self.ride_id is not None and self.status in ("accepted", "arriving"):
            self._clear("A corrida foi cancelada enquanto o aplicativo estava sem conexão.")
            self.flag.trip_ended()

    def _on_offer(self, msg):
        self.last_offer = msg["offer"]

    def _on_offer_accepted(self, msg):
        self.ride_id, self.status, self.message, self.pending = msg["ride_id"], "accepted", "", ""
        offer = self.last_offer if self.last_offer and self.last_offer.get("ride_id") == msg["ride_id"] else {}
        self.pickup = offer.get("pickup") or {}
        self.destination = offer.get("destination") or {}
        self.passenger = dict(offer.get("passenger") or {})
        if msg.get("ride"):  # protocol 1.2: the ride itself
            self._follow(msg["ride"])
        self.rank = None  # accepting takes the cab out of the rank queue

    def _follow(self, ride: dict[str, Any]) -> None:
        """The ride as the server sent it (1.4 adds the passenger's phone and the no-show time)."""
        if ride.get("status") in RIDE_LABELS:
            self.status = ride["status"]
        self.pickup = ride.get("pickup") or self.pickup
        self.destination = ride.get("destination") or self.destination
        if ride.get("passenger"):
            self.passenger["name"] = ride["passenger"]
        if ride.get("passenger_phone"):
            self.passenger["phone"] = ride["passenger_phone"]
        self.no_show_at = datetime.fromisoformat(ride["no_show_at"]) if ride.get("no_show_at") else None
        self.boarding_code = ride.get("boarding_code") or self.boarding_code

    def _on_ride_updated(self, msg):
        """The server's answer to ``ride_arriving`` / ``ride_on_board`` (protocol 1.2): the ride as it now is."""
        ride = msg.get("ride") or {}
        if ride.get("id") == self.ride_id:
            if self.pending and self.message == self.refused:  # the step tried again went through: its refusal is old
                self.message = ""
            self.pending = ""
            self._follow(ride)

    def _on_ride_cancelled(self, msg):
        if msg.get("ride_id") != self.ride_id:
            return
        if msg.get("next"):  # the answer to this driver's own cancel (1.4)
            label = REASON_LABELS.get(CancelReason(msg["reason"]), "") if msg.get("reason") in REASONS else ""
            self._clear(CANCELLED_TEXTS[msg["next"]].format(reason=label.lower()) if msg["next"] in CANCELLED_TEXTS else "")
        else:
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
        self.refused = self.message if self.pending else ""
        self.pending = ""  # a refusal answers the step that was waiting

    # -- driver's actions ----------------------------------------------------------------------

    def arriving(self) -> bool:
        """"Cheguei": sent, and shown once the central answers (``ride_updated``)."""
        if self.ride_id is None or self.status != "accepted" or self.pending:
            return False
        self.dispatch.send(inbound.RIDE_ARRIVING(ride_id=self.ride_id))
        self.pending = "arriving"
        self.changed()
        return True

    def on_board(self) -> bool:
        """"Passageiro a bordo": the meter starts at once (Art. 45); the central's answer confirms the ride."""
        if self.ride_id is None or self.status not in ("accepted", "arriving") or self.pending:
            return False
        self.dispatch.send(inbound.RIDE_ON_BOARD(ride_id=self.ride_id))
        self.pending, self.status = "on_board", "on_board"
        self.changed()
        return True

    def cancel(self, reason: str) -> bool:
        """Give the ride up before boarding (protocol 1.3); the central checks the reason (taxilaw.cancellation)."""
        if self.ride_id is None or reason not in dict(self.cancel_reasons) or self.pending:
            return False
        if not dict((code, ok) for code, _label, ok in self.cancel_options())[reason]:
            return False
        self.dispatch.send(inbound.DRIVER_RIDE_CANCEL(ride_id=self.ride_id, reason=reason))
        self.pending = "cancel"
        self.changed()
        return True

    def navigate(self) -> bool:
        """Hand the pickup to the phone's navigation app (``geo:``)."""
        if self.pickup.get("lat") is None:
            return False
        self.phone.navigate(float(self.pickup["lat"]), float(self.pickup["lon"]), self.pickup.get("address", ""))
        return True

    def call(self) -> bool:
        if not self.passenger.get("phone"):
            return False
        self.phone.call(self.passenger["phone"])
        return True

    def finished(self) -> None:
        """The meter stopped: the ride is completed by the trip upload (ride_complete)."""
        self._clear("")

    def _clear(self, message: str) -> None:
        self.ride_id, self.status, self.pickup, self.message, self.pending = None, "", {}, message, ""
        self.destination, self.passenger, self.no_show_at, self.boarding_code = {}, {}, None, ""

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

    cancel_reasons = [(r.value, REASON_LABELS[r]) for r in CancelReason]

    def cancel_options(self) -> list[tuple[str, str, bool]]:
        """(reason, label, enabled): the no-show only once the central's waiting time has passed."""
        options = []
        for code, label in self.cancel_reasons:
            enabled = self.status in ("accepted", "arriving")
            if code == CancelReason.PASSENGER_ABSENT.value:
                enabled = self.status == "arriving" and self.no_show_at is not None and self.clock() >= self.no_show_at
                if self.status == "arriving" and not enabled and self.no_show_at is not None:
                    label = f"{label} (em {mmss((self.no_show_at - self.clock()).total_seconds())})"
            options.append((code, label, enabled))
        return options

    @property
    def actions(self) -> list[tuple[str, str, bool]]:
        """(action, label, enabled) for the ride's state; nothing while a step waits for the central."""
        out = []
        for action in ACTIONS.get(self.status, ()):
            enabled = not self.pending
            if action == "call":
                enabled = bool(self.passenger.get("phone"))
            elif action == "navigate":
                enabled = self.pickup.get("lat") is not None
            out.append((action, ACTION_LABELS[action], enabled))
        return out

    @property
    def passenger_text(self) -> str:
        name, number = self.passenger.get("name"), self.passenger.get("phone")
        return " · ".join(t for t in (name, phone_display(number) if number else "") if t)  # +5532... -> (32) 9...

    @property
    def destination_text(self) -> str:
        return f"Destino: {self.destination['address']}" if self.destination.get("address") else ""

    @property
    def boarding_code_text(self) -> str:
        """Until the passenger is on board: the code to say, which the passenger's page shows beside the plate."""
        if not self.boarding_code or self.status not in ("accepted", "arriving"):
            return ""
        return f"Código de embarque: {self.boarding_code}. Diga-o ao passageiro antes que ele entre."

    @property
    def pending_text(self) -> str:
        return "Aguardando a central confirmar…" if self.pending else ""

    @property
    def no_show_text(self) -> str:
        if self.status != "arriving" or self.no_show_at is None:
            return ""
        left = (self.no_show_at - self.clock()).total_seconds()
        if left > 0:
            return f"Aguardando o passageiro: ausência pode ser registrada em {mmss(left)}"
        return "O tempo de espera passou: você pode registrar que o passageiro não apareceu."

    @property
    def rank_text(self) -> str:
        if not self.rank:
            return ""
        return f"{self.rank.get('rank')}: {self.rank.get('queue_position')}º na fila"

    @property
    def connection_text(self) -> str:
        if self.online is None:
            return ""
        if not self.online:
            return "Sem conexão com a central"
        return "Central conectada, mas sem receber corridas" if self.receiving is False else "Central conectada"


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
            self.dispatch.send(inbound.POSITION(lat=self.last.lat, lon=self.last.lon, accuracy=self.last.accuracy_m))
            self.sent_at = now
            self.sent += 1
