"""Which screen shows: an offer takes over whatever screen is showing; once answered, the driver goes to the
ride (accepted) or back to where they were.  Plain Python, so the takeover is tested without a window."""

from __future__ import annotations

from typing import Optional

SCREEN_NAMES = ("login", "cards", "flag", "ride", "meter", "offer", "split", "payment", "ranks")


class Navigator:
    def __init__(self) -> None:
        self.before_offer: Optional[str] = None  # the screen the offer took over

    def screen_for(self, current: str, offer_active: bool, ride_status: str, meter_running: bool,
                   en_route: bool = False, logged_in: bool = True) -> Optional[str]:
        """The screen to switch to now, or None to stay; ``en_route``: the cab is a caminho (an offer accepted,
        its ride perhaps not yet confirmed by the central); not ``logged_in`` (the token expired): the login,
        once the running trip has ended."""
        if current == "login":
            return None
        if not logged_in and not meter_running:
            return "login"
        if offer_active:
            if current != "offer":
                self.before_offer = current
                return "offer"
            return None
        if self.before_offer is not None and current == "offer":
            back, self.before_offer = self.before_offer, None
            if en_route or ride_status in ("accepted", "arriving"):
                return "ride"
            return back
        if current == "ride" and not ride_status and not meter_running and not en_route:
            return "flag"  # the ride ended (cancelled, given up): back to the light
        if current == "ride" and ride_status == "on_board" and meter_running:
            return "meter"
        return None
