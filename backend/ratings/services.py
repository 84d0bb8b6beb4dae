"""Rating a ride: the passenger's own completed ride, once (the OneToOne makes the second a specific refusal)."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

from backend.trips.models import Passenger, Ride, RideStatus

from .models import RideRating


def rate_ride(*, passenger: Passenger, ride_id: int, stars: int, comment: str = "") -> RideRating:
    ride = Ride.objects.filter(pk=ride_id, passenger=passenger).first()
    if ride is None:
        raise ValidationError({"ride": [_("Esta corrida não é sua.")]})
    if ride.status != RideStatus.COMPLETED or not ride.permit_id or not ride.driver_id:
        raise ValidationError({"ride": [_("Só uma corrida concluída pode ser avaliada; para recusa ou táxi que não "
                                          "chegou, registre uma reclamação.")]})
    try:
        with transaction.atomic():
            return RideRating.objects.create(ride=ride, passenger=passenger, permit_id=ride.permit_id,
                                             driver_id=ride.driver_id, stars=stars, comment=comment.strip())
    except IntegrityError:  # two taps at once, or a second rating
        raise ValidationError({"ride": [_("Esta corrida já foi avaliada.")]}) from None
