"""The work screens of the Kivy app (login, cards, flag, ride, meter, offer, ranks) and the table of every screen;
the money screens are :mod:`driver_app.money_screens`. Each copies display texts from its view-model in ``refresh``
and decides nothing."""

from __future__ import annotations

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from .money_screens import PaymentScreen, PixKeyScreen, SplitScreen
from .session import Session
from .viewmodels.flag import DISPLAY


class RootLayout(BoxLayout):
    pass


class LoginScreen(Screen):
    username_hint = StringProperty("Usuário")
    password_hint = StringProperty("Senha")
    button_text = StringProperty("Entrar")
    username = StringProperty("")
    error = StringProperty("")
    busy = BooleanProperty(False)

    def refresh(self, s: Session) -> None:
        self.username = s.login.username
        self.error, self.busy, self.button_text = s.login.error, s.login.busy, s.login.button_text


class CardsScreen(Screen):
    cmt_title = StringProperty("")
    cvi_title = StringProperty("")
    person_name = StringProperty("")
    initials = StringProperty("")
    role_label = StringProperty("")
    cmt_number = StringProperty("")
    cmt_valid_until = StringProperty("")
    cmt_permit = StringProperty("")
    plate = StringProperty("")
    model_text = StringProperty("")
    colour = StringProperty("")
    cvi_permit = StringProperty("")
    rank_text = StringProperty("")
    seal_number = StringProperty("")
    seal_valid_until = StringProperty("")
    warnings = StringProperty("")
    compliance = StringProperty("")
    status = StringProperty("")
    can_retry = BooleanProperty(False)

    def refresh(self, s: Session) -> None:
        c = s.cards
        self.status, self.can_retry = c.status_text, c.can_retry
        for attr in ("cmt_title", "cvi_title", "initials", "role_label", "cmt_number", "cmt_valid_until",
                     "cmt_permit", "plate", "model_text", "colour", "cvi_permit", "rank_text", "seal_number",
                     "seal_valid_until"):
            setattr(self, attr, str(getattr(c, attr)))
        self.person_name = c.name
        self.warnings = "\n".join(c.warning_texts)
        self.compliance = c.compliance_text


class FlagScreen(Screen):
    label = StringProperty("")
    reason = StringProperty("")
    message = StringProperty("")
    colour = ListProperty([0.5, 0.5, 0.5, 1])
    can_go_free = BooleanProperty(False)

    can_go_off_duty = BooleanProperty(True)
    ride = StringProperty("")
    ride_action = StringProperty("")

    def refresh(self, s: Session) -> None:
        f = s.flag
        self.label, self.reason, self.message = f.label, f.reason, f.message
        r = s.ride
        if r is not None:
            extra = [t for t in (r.ride_text, r.rank_text, r.message, r.connection_text) if t]
            self.ride = "\n".join(extra)
            self.ride_action = "Ver corrida" if r.status in ("accepted", "arriving") else ""
        self.colour = list(f.colour)
        self.can_go_free, self.can_go_off_duty = f.can_go_free, f.can_go_off_duty


class RideScreen(Screen):
    """The dispatched ride: a caminho -> Cheguei -> Passageiro a bordo, with only the actions of its state."""

    title = StringProperty("")
    pickup = StringProperty("")
    destination = StringProperty("")
    passenger = StringProperty("")
    waiting = StringProperty("")
    message = StringProperty("")
    choosing_reason = BooleanProperty(False)

    def refresh(self, s: Session) -> None:
        r = s.ride
        self.title = r.ride_text.split(" – ")[0] if r.active else "Nenhuma corrida"
        self.pickup = r.pickup.get("address", "")
        self.destination, self.passenger = r.destination_text, r.passenger_text
        self.waiting = " ".join(t for t in (r.boarding_code_text, r.pending_text, r.no_show_text) if t)
        self.message = r.message
        box = self.ids.actions
        box.clear_widgets()
        if self.choosing_reason:
            for code, label, enabled in r.cancel_options():
                box.add_widget(RideActionButton(text=label, disabled=not enabled, action="cancel:" + code))
            box.add_widget(RideActionButton(text="Voltar", action="back"))
            return
        for action, label, enabled in r.actions:
            box.add_widget(RideActionButton(text=label, disabled=not enabled, action=action))


class RideActionButton(Button):
    action = StringProperty("")
    tint = ListProperty([0, 0, 0])


class MeterScreen(Screen):
    start_text = StringProperty("Iniciar corrida")
    stop_text = StringProperty("Encerrar corrida")
    total = StringProperty("")
    distance = StringProperty("")
    waiting = StringProperty("")
    flag_text = StringProperty("")
    flag_reason = StringProperty("")
    flag_colour = ListProperty([0.5, 0.5, 0.5, 1])
    status = StringProperty("")
    sync = StringProperty("")
    tariff = StringProperty("")
    running = BooleanProperty(False)

    def refresh(self, s: Session) -> None:
        m = s.meter
        self.total, self.distance, self.waiting = m.total_text, m.distance_text, m.waiting_text
        self.flag_text, self.flag_reason = m.flag_text, m.flag_reason
        self.flag_colour = list(DISPLAY[m.flag_state or "fora_de_servico"][1])
        self.status, self.sync, self.tariff, self.running = m.status_text, m.sync_text, m.tariff_text, m.running


class OfferScreen(Screen):
    active = BooleanProperty(False)
    pickup = StringProperty("")
    pickup_lat = NumericProperty(0.0)
    pickup_lon = NumericProperty(0.0)
    can_navigate = BooleanProperty(False)
    distance = StringProperty("")
    countdown = StringProperty("")
    progress = NumericProperty(0)
    outcome = StringProperty("")
    passenger = StringProperty("")
    destination = StringProperty("")
    can_call = BooleanProperty(False)

    OUTCOMES = {"accepted": "Chamada aceita: siga para o embarque", "declined": "Chamada recusada",
                "expired": "Tempo esgotado: chamada recusada", "cancelled": "Chamada cancelada pela central",
                "": "Aguardando chamadas da central"}

    def refresh(self, s: Session) -> None:
        o = s.offer
        self.active, self.pickup, self.distance = o.active, o.pickup_text, o.distance_text
        self.countdown, self.progress = o.countdown_text, o.progress
        self.passenger, self.destination, self.can_call = o.passenger_text, o.destination_text, o.can_call
        point = o.pickup_point
        self.can_navigate = point is not None
        self.pickup_lat, self.pickup_lon = (point[0], point[1]) if point else (0.0, 0.0)
        self.outcome = "" if o.active else self.OUTCOMES.get(o.outcome, "")


class RankRowView(BoxLayout):
    rank_id = NumericProperty(0)
    title = StringProperty("")
    detail = StringProperty("")
    verdict = StringProperty("")
    allowed = BooleanProperty(False)
    here = BooleanProperty(False)
    busy = BooleanProperty(False)


class RanksScreen(Screen):
    """The ranks near the cab, their queues and the law's answer for this cab; check in / check out."""

    here = StringProperty("")
    message = StringProperty("")
    status = StringProperty("")
    empty = StringProperty("")
    loading = BooleanProperty(False)
    checked_in = BooleanProperty(False)
    busy = BooleanProperty(False)

    def refresh(self, s: Session) -> None:
        v = s.ranks
        if v is None:
            return
        self.here, self.message, self.status, self.empty = v.here_text, v.message, v.status_text, v.empty_text
        self.loading, self.checked_in, self.busy = v.loading, v.checked_in is not None, bool(v.pending)
        box = self.ids.rows
        box.clear_widgets()
        for row in v.rows:
            box.add_widget(RankRowView(rank_id=row.rank_id, title=row.title, detail=row.detail, verdict=row.verdict,
                                       allowed=row.allowed, here=row.here, busy=bool(v.pending)))


SCREENS = {"login": LoginScreen, "cards": CardsScreen, "flag": FlagScreen, "ride": RideScreen, "meter": MeterScreen,
           "offer": OfferScreen, "split": SplitScreen, "payment": PaymentScreen, "ranks": RanksScreen,
           "pixkey": PixKeyScreen}
