"""Screen logic as plain Python (no Kivy): each view-model exposes display-ready
texts and colours and the actions of its screen; the Kivy screens only bind to
them.  Tested without a window (tests/driver_app)."""

from .base import Observable
from .cards import CardsViewModel
from .flag import DriverState, FlagViewModel
from .login import LoginViewModel, MeAnswer
from .meter import MeterViewModel
from .navigation import Navigator
from .offer import OfferViewModel
from .payment import PaymentViewModel
from .ranks import RanksViewModel
from .ride import PositionReporter, RideViewModel
from .split import SplitViewModel

__all__ = ["Observable", "CardsViewModel", "DriverState", "FlagViewModel", "LoginViewModel", "MeAnswer",
           "MeterViewModel", "Navigator", "OfferViewModel", "PaymentViewModel", "PositionReporter", "RanksViewModel",
           "RideViewModel", "SplitViewModel"]
