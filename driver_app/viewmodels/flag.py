"""The cab's status light: Livre / Bandeira I / Bandeira II / a caminho /
ocupado / fora de serviço, with the reason of the flag from
:mod:`taxilaw.flags` (Art. 45, I and Art. 45, II)."""

from __future__ import annotations

from datetime import date, datetime
from enum import Enum
from typing import Any, Callable, Collection, Optional

from taxilaw.flags import DEFAULT_FLAG_PARAMS, Flag, FlagParams, flag_for, local_time, municipal_calendar_known
from taxilaw.meter_data import MeterReading
from taxiwire import inbound

from ..clients import DispatchClient
from .base import Observable


class DriverState(str, Enum):
    LIVRE = "livre"
    A_CAMINHO = "a_caminho"
    OCUPADO = "ocupado"
    FORA_DE_SERVICO = "fora_de_servico"


#: display states -> (label, RGBA).  Bandeira I/II are "ocupado" with the meter running.
DISPLAY: dict[str, tuple[str, tuple[float, float, float, float]]] = {
    "livre": ("Livre", (0.10, 0.62, 0.24, 1.0)),            # green
    "bandeira_1": ("Bandeira I", (0.11, 0.40, 0.85, 1.0)),  # blue
    "bandeira_2": ("Bandeira II", (0.80, 0.12, 0.12, 1.0)),  # red
    "a_caminho": ("A caminho", (0.96, 0.62, 0.04, 1.0)),    # amber
    "ocupado": ("Ocupado", (0.55, 0.20, 0.60, 1.0)),        # purple
    "fora_de_servico": ("Fora de serviço", (0.42, 0.45, 0.50, 1.0)),  # grey
}


def colour_255(display_state: str) -> tuple[int, int, int]:
    r, g, b, _a = DISPLAY[display_state][1]
    return round(r * 255), round(g * 255), round(b * 255)


class FlagViewModel(Observable):
    def __init__(self, clock: Callable[[], datetime], municipal_holidays: Collection[date] = (),
                 params: FlagParams = DEFAULT_FLAG_PARAMS, dispatch: Optional[DispatchClient] = None,
                 municipal_until: Optional[date] = None):
        super().__init__()
        self.clock = clock
        self.municipal_holidays = frozenset(municipal_holidays)
        # The municipal calendar's horizon (the server's ``holidays_until``; ``date.min``: none received yet;
        # None: the holidays given cover every day). Past it the flag guesses no municipal holiday.
        self.municipal_until = municipal_until
        self.params = params
        self.dispatch = dispatch
        self.state = DriverState.FORA_DE_SERVICO
        self.reading: Optional[MeterReading] = None
        self.allowed = True
        self.blocked_reasons: list[str] = []
        self.message = ""

    # -- compliance --------------------------------------------------------------------

    def set_compliance(self, compliance: Optional[dict[str, Any]]) -> None:
        """``/api/me/`` compliance: a driver who may not work stays out of service.  It may answer during a trip
        (it is read off the UI thread): the passenger aboard is driven to the end, then the cab goes out of
        service (:meth:`trip_ended`)."""
        if compliance is None:
            self.allowed, self.blocked_reasons = False, ["Sem permissão vinculada."]
        else:
            self.allowed = bool(compliance.get("allowed"))
            self.blocked_reasons = [r.get("message", "") for r in compliance.get("reasons", [])]
        if not self.allowed and self.state not in (DriverState.FORA_DE_SERVICO, DriverState.OCUPADO):
            self._set(DriverState.FORA_DE_SERVICO)
        self.changed()

    # -- transitions -------------------------------------------------------------------

    def _set(self, state: DriverState, street: bool = False) -> None:
        self.state = state
        if state != DriverState.OCUPADO:
            self.reading = None
        # a_caminho and a dispatched ride's ocupado are set by the central itself (offer_accept, ride_on_board);
        # a street or ponto passenger is not its ride: then "ocupado" keeps offers away until the trip ends
        told = state in (DriverState.LIVRE, DriverState.FORA_DE_SERVICO) or (state == DriverState.OCUPADO and street)
        if self.dispatch is not None and told:
            self.dispatch.send(inbound.STATUS(status=state.value))

    def restore(self, state: DriverState) -> None:
        """Take the state the server reports (snapshot after a reconnection) without announcing it."""
        if state != self.state:
            self.state = state
            if state != DriverState.OCUPADO:
                self.reading = None
            self.changed()

    def go_free(self) -> bool:
        if self.state in (DriverState.A_CAMINHO, DriverState.OCUPADO):
            return False  # the ride's steps free the cab (Cheguei, a bordo, cancel), not this button
        if not self.allowed:
            self.message = "Impedido de trabalhar: " + "; ".join(self.blocked_reasons)
            self.changed()
            return False
        self.message = ""
        self._set(DriverState.LIVRE)
        self.changed()
        return True

    def go_off_duty(self) -> None:
        if not self.can_go_off_duty:
            return
        self.message = ""
        self._set(DriverState.FORA_DE_SERVICO)
        self.changed()

    def to_pickup(self) -> None:
        self._set(DriverState.A_CAMINHO)
        self.changed()

    def trip_started(self, reading: Optional[MeterReading] = None, street: bool = False) -> None:
        """The meter runs (Art. 45); ``street``: a passenger taken in the street or at the ponto, not dispatched."""
        self.state = DriverState.OCUPADO
        self.reading = reading
        self._set(DriverState.OCUPADO, street=street)
        self.changed()

    def on_meter(self, reading: MeterReading) -> None:
        """Follow the running meter: Bandeira I/II and its reason."""
        self.reading = reading if reading.running else None
        self.changed()

    def trip_ended(self) -> None:
        if self.allowed:
            self._set(DriverState.LIVRE)
        else:
            self._set(DriverState.FORA_DE_SERVICO)
        self.changed()

    # -- display -----------------------------------------------------------------------

    @property
    def display_state(self) -> str:
        if self.state == DriverState.OCUPADO and self.reading is not None:
            return "bandeira_2" if self.reading.flag == Flag.II else "bandeira_1"
        return self.state.value

    @property
    def label(self) -> str:
        return DISPLAY[self.display_state][0]

    @property
    def colour(self) -> tuple[float, float, float, float]:
        return DISPLAY[self.display_state][1]

    def flag_now(self):
        """The flag a trip starting now would get (Art. 45, I and Art. 45, II)."""
        return flag_for(self.clock(), 0.0, self.municipal_holidays, self.params, municipal_until=self.municipal_until)

    @property
    def calendar_notice(self) -> str:
        """Told to the driver when today is past the municipal calendar's horizon (Art. 45, II)."""
        if municipal_calendar_known(local_time(self.clock()).date(), self.municipal_until):
            return ""
        return ("Calendário de feriados municipais desatualizado: conecte-se para atualizar. "
                "Até lá, feriado municipal não muda a bandeira.")

    @property
    def reason(self) -> str:
        """"10º km", "22:00–06:00", "domingo", "feriado: Tiradentes"...; while free, the flag a trip
        would start with."""
        if self.reading is not None:
            label = self.reading.flag_label
            return label
        if self.state in (DriverState.LIVRE, DriverState.A_CAMINHO):
            d = self.flag_now()
            name = "Bandeira II" if d.flag == Flag.II else "Bandeira I"
            label = f"{d.label}: {d.holiday_name}" if d.holiday_name else d.label
            notice = self.calendar_notice
            return f"Corrida agora: {name} ({label})" + (f" {notice}" if notice else "")
        if self.state == DriverState.FORA_DE_SERVICO and not self.allowed:
            return "Impedido: " + "; ".join(self.blocked_reasons)
        return ""

    @property
    def can_go_free(self) -> bool:
        """Only from out of service: during a ride (a caminho) or a trip (ocupado) the ride's own steps free the cab."""
        return self.allowed and self.state == DriverState.FORA_DE_SERVICO

    @property
    def can_go_off_duty(self) -> bool:
        return self.state in (DriverState.LIVRE, DriverState.FORA_DE_SERVICO)
