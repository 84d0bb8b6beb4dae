"""The Kivy app: screens bind to the view-models of :mod:`driver_app.viewmodels`.

Nothing here decides anything: the screens copy display texts from the
view-models after each change and forward button presses to them.
"""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty
from kivy.uix.screenmanager import NoTransition

from .session import Session, demo_offer
from .streetmap import StreetMapWidget
from .work_screens import SCREENS, RootLayout

KV_DIR = Path(__file__).with_name("kv")
KV_FILES = ("base.kv", "login.kv", "cards.kv", "flag.kv", "ride.kv", "meter.kv", "offer.kv", "split.kv", "payment.kv",
            "ranks.kv", "pixkey.kv")

DAY = {"bg": (0.95, 0.95, 0.93, 1), "card": (1, 1, 1, 1), "fg": (0.08, 0.09, 0.1, 1),
       "muted": (0.38, 0.4, 0.43, 1), "accent": (0.11, 0.40, 0.85, 1)}
NIGHT = {"bg": (0.05, 0.06, 0.08, 1), "card": (0.14, 0.15, 0.18, 1), "fg": (0.93, 0.93, 0.9, 1),
         "muted": (0.62, 0.64, 0.68, 1), "accent": (0.20, 0.45, 0.80, 1)}


class DriverApp(App):
    title = "Táxi Muriaé – Motorista"
    night = BooleanProperty(False)
    full_screen = BooleanProperty(False)
    theme_bg = ListProperty(DAY["bg"])
    theme_card = ListProperty(DAY["card"])
    theme_fg = ListProperty(DAY["fg"])
    theme_muted = ListProperty(DAY["muted"])
    theme_accent = ListProperty(DAY["accent"])

    def __init__(self, session: Session, tick_s: float = 1.0, **kw):
        super().__init__(**kw)
        self.session = session
        self.tick_s = tick_s

    # -- building -----------------------------------------------------------------------

    def build(self):
        Factory.register("StreetMapWidget", cls=StreetMapWidget)
        for name in KV_FILES:
            Builder.load_file(str(KV_DIR / name))
        root = RootLayout()
        sm = root.ids.sm
        sm.transition = NoTransition()
        for name, cls in SCREENS.items():
            sm.add_widget(cls(name=name))
        s = self.session
        for vm in (s.login, s.cards, s.flag, s.meter, s.offer, s.split, s.ride, s.payment, s.ranks, s.pix):
            if vm is None:
                continue
            vm.subscribe(lambda _vm: self.refresh())
        self.root_layout = root
        if s.login.logged_in:
            s.after_login()
            sm.current = "meter" if s.meter.running else "flag"
        else:
            sm.current = "login"
        self.refresh(everything=True)
        if self.tick_s:
            Clock.schedule_interval(lambda dt: self.tick(), self.tick_s)
        return root

    @property
    def sm(self):
        return self.root_layout.ids.sm

    def refresh(self, everything: bool = False) -> None:
        """Copy the view-models' texts into the visible screen (all screens with ``everything``)."""
        if getattr(self, "root_layout", None) is None:
            return
        s = self.session
        target = s.navigator.screen_for(self.sm.current, s.offer.active, s.ride.status if s.ride else "", s.meter.running,
                                        en_route=s.flag.state.value == "a_caminho", logged_in=s.login.logged_in)
        if target is not None and target != self.sm.current:
            self._switch(target)
        for screen in (self.sm.screens if everything else [self.sm.current_screen]):
            if screen is not None:
                screen.refresh(self.session)

    def tick(self) -> None:
        """Once a second: replayed GPS (desktop), offer countdown, retry the sync queue."""
        s = self.session
        s.tick()
        if s.demo and s.flag.state.value == "livre" and not s.offer.active and not s.offer.outcome:
            s.dispatch.push(demo_offer(s.clock))
        self.refresh()

    # -- actions ------------------------------------------------------------------------------

    def go(self, name: str) -> None:
        self._switch(name)
        if name == "ranks" and self.session.ranks is not None:
            self.session.ranks.load()  # the queues change all the time: read them each time the screen opens
        if name == "pixkey" and self.session.pix is not None:
            self.session.pix.load()  # the key the server has now
        self.refresh()

    def pix_kind(self, kind: str) -> None:
        self.session.pix.choose_kind(kind)

    def pix_save(self, key: str) -> None:
        """Checked as the server checks it; sent when valid (the field is emptied once saved)."""
        if self.session.pix.save(key):
            self.sm.get_screen("pixkey").ids.key.text = ""
        self.refresh()

    def pix_back(self) -> None:
        """Back to the payment that sent the driver here (no key to receive a Pix), else to the Partilha."""
        p = self.session.payment
        self.go("payment" if p is not None and p.pending else "split")

    def pix_remove(self) -> None:
        self.session.pix.remove()
        self.refresh()

    def pay_ride(self, ride_id) -> None:
        """"Registrar pagamento" on a ride of the week's list: its payment screen, reopened."""
        if self.session.pay_ride(int(ride_id)):
            self.go("payment")

    def ranks_reload(self) -> None:
        self.session.ranks.load()

    def rank_check_in(self, rank_id) -> None:
        self.session.ranks.check_in(int(rank_id))

    def rank_check_out(self) -> None:
        self.session.ranks.check_out()

    def split_reload(self) -> None:
        self.session.split.retry(self.session.today())

    def cards_reload(self) -> None:
        self.session.load_me()

    def _switch(self, name: str) -> None:
        sm = self.sm
        if sm.transition.is_active:  # finish the previous switch first (two quick taps)
            sm.transition.stop()
        sm.current = name
        if sm.transition.is_active:
            sm.transition.stop()

    def set_theme(self, night: bool) -> None:
        self.night = night
        t = NIGHT if night else DAY
        self.theme_bg, self.theme_card, self.theme_fg = t["bg"], t["card"], t["fg"]
        self.theme_muted, self.theme_accent = t["muted"], t["accent"]

    def toggle_theme(self) -> None:
        self.set_theme(not self.night)

    def toggle_full_screen(self) -> None:
        self.session.cards.toggle_full_screen()
        self.full_screen = self.session.cards.full_screen

    def do_login(self, username: str, password: str) -> None:
        """The login runs off the UI thread ("Entrando…"); once logged in, the cards."""
        self.session.login.login(username, password, then=self._logged_in)
        self.refresh()

    def _logged_in(self) -> None:
        self.session.after_login()
        self.go("cards")

    def do_logout(self) -> None:
        self.session.logout()
        self.go("login")

    def flag_free(self) -> None:
        self.session.flag.go_free()

    def ride_step(self) -> None:
        self.go("ride")

    def ride_action(self, action: str) -> None:
        """A button of the ride screen: a step, a call, the navigation app, or the cancel with its reason."""
        r, screen = self.session.ride, self.sm.get_screen("ride")
        if action == "arriving":
            r.arriving()
        elif action == "on_board":
            self.session.start_trip()
            self.go("meter")
        elif action == "navigate":
            r.navigate()
        elif action == "call":
            r.call()
        elif action == "cancel":
            screen.choosing_reason = True
        elif action == "back":
            screen.choosing_reason = False
        elif action.startswith("cancel:"):
            r.cancel(action.split(":", 1)[1])
            screen.choosing_reason = False
        self.refresh()

    def flag_off(self) -> None:
        self.session.flag.go_off_duty()

    def meter_toggle(self) -> None:
        if self.session.meter.running:
            self.session.stop_trip()
            if self.session.payment is not None and self.session.payment.pending:
                self.go("payment")  # how the passenger pays, with the Pix QR of the fare
        else:
            self.session.start_trip()
        self.refresh()

    def pay(self, method: str) -> None:
        if self.session.payment is not None:
            self.session.payment.choose(method)
        self.refresh()

    def copy_pix(self) -> None:
        """The "Pix copia e cola" to the phone's clipboard, to paste in a message to the passenger."""
        from kivy.core.clipboard import Clipboard

        if self.session.payment is not None and self.session.payment.pix_payload:
            Clipboard.copy(self.session.payment.pix_payload)

    def payment_done(self) -> None:
        """Back where the payment was asked from: the meter (a trip ended) or the week's rides (reopened)."""
        p = self.session.payment
        back = "split" if p is not None and p.reopened else "meter"
        if p is not None:
            p.done()
        self.go(back)

    def offer_accept(self) -> None:
        self.session.offer.accept()
        self.refresh()  # the navigator goes to the ride screen

    def offer_decline(self) -> None:
        self.session.offer.decline()
        self.refresh()

    def offer_call(self) -> None:
        self.session.offer.call_passenger()

    def navigate_to_pickup(self) -> bool:
        return self.session.offer.navigate()

    def on_pause(self) -> bool:  # Android: keep the trip; the state is saved
        self.session.meter.save()
        return True

    def on_stop(self) -> None:
        self.session.meter.save()
        self.session.dispatch.close()
