"""A passenger's rating of a completed ride: one per ride, 1 to 5 stars.

Ratings feed DIMUTRAN's report (backend.ratings.report); they never penalize anyone by
themselves: a penalty needs an auto de infração and its procedure (Art. 60-63), which a
complaint (backend.enforcement) starts.
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from backend.registry.models import Permit, Person
from backend.trips.models import Passenger, Ride

COMMENT_MAX = 500


class RideRating(models.Model):
    ride = models.OneToOneField(Ride, on_delete=models.PROTECT, related_name="rating", verbose_name=_("corrida"))
    passenger = models.ForeignKey(Passenger, on_delete=models.PROTECT, related_name="ratings", verbose_name=_("passageiro"))
    # Copied from the ride when rated, so the report groups by them without joining rides.
    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="ratings", verbose_name=_("permissão"))
    driver = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="ratings", verbose_name=_("motorista"))
    stars = models.PositiveSmallIntegerField(_("estrelas"), validators=[MinValueValidator(1), MaxValueValidator(5)])
    comment = models.CharField(_("comentário"), max_length=COMMENT_MAX, blank=True)
    rated_at = models.DateTimeField(_("avaliada em"), auto_now_add=True)

    class Meta:
        verbose_name = _("avaliação de corrida")
        verbose_name_plural = _("avaliações de corridas")
        ordering = ["-rated_at"]
        constraints = [models.CheckConstraint(condition=models.Q(stars__gte=1, stars__lte=5), name="stars_1_to_5")]

    def __str__(self):
        return _("Corrida %(ride)s: %(stars)s de 5") % {"ride": self.ride_id, "stars": self.stars}
