"""A ride booked for later (Art. 66): by a passenger on the page or by an operator taking a phone call.

It becomes a dispatched :class:`~backend.trips.models.Ride` at ``dispatch_at`` (the pickup time minus the
dated lead time), claimed once across processes by a conditional UPDATE (backend.bookings.services).
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from backend.trips.models import ACTIVE_RIDE_STATUSES, Passenger, Ride, RideOrigin, RideStatus


class BookingStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("agendada")
    DISPATCHED = "dispatched", _("despachada")
    CANCELLED = "cancelled", _("cancelada")
    FAILED = "failed", _("não despachada")


class Booking(models.Model):
    passenger = models.ForeignKey(Passenger, null=True, blank=True, on_delete=models.PROTECT, related_name="bookings",
                                  verbose_name=_("passageiro"))
    caller_name = models.CharField(_("nome de quem ligou"), max_length=120, blank=True)
    caller_phone = models.CharField(_("telefone de quem ligou"), max_length=20, blank=True)
    created_by = models.CharField(_("origem"), max_length=16, choices=RideOrigin.choices[:2], default=RideOrigin.PASSENGER)
    pickup_lat = models.FloatField(_("latitude do embarque"))
    pickup_lon = models.FloatField(_("longitude do embarque"))
    pickup_address = models.CharField(_("endereço de embarque"), max_length=200, blank=True)
    destination_lat = models.FloatField(_("latitude do destino"), null=True, blank=True)
    destination_lon = models.FloatField(_("longitude do destino"), null=True, blank=True)
    destination_address = models.CharField(_("destino"), max_length=200, blank=True)
    pickup_at = models.DateTimeField(_("embarque agendado para"))
    dispatch_at = models.DateTimeField(_("despacho a partir de"))
    status = models.CharField(_("situação"), max_length=12, choices=BookingStatus.choices, default=BookingStatus.SCHEDULED)
    ride = models.OneToOneField(Ride, null=True, blank=True, on_delete=models.PROTECT, related_name="booking",
                                verbose_name=_("corrida"))
    note = models.CharField(_("observação"), max_length=255, blank=True)
    created_at = models.DateTimeField(_("agendada em"), auto_now_add=True)
    dispatched_at = models.DateTimeField(_("despachada em"), null=True, blank=True)
    cancelled_at = models.DateTimeField(_("cancelada em"), null=True, blank=True)

    class Meta:
        verbose_name = _("agendamento")
        verbose_name_plural = _("agendamentos")
        ordering = ["pickup_at"]
        indexes = [models.Index(fields=["status", "dispatch_at"])]

    def __str__(self):
        return _("Agendamento %(id)s para %(when)s") % {"id": self.pk, "when": f"{timezone.localtime(self.pickup_at):%d/%m/%Y %H:%M}"}

    def situation(self) -> str:
        """The booking's state as the passenger and the operators read it: once dispatched, its ride's, so that a
        booking whose ride no cab took does not just say "despachada" (read it with ``select_related("ride")``)."""
        ride = self.ride if self.status == BookingStatus.DISPATCHED else None
        if ride is None:
            return str(self.get_status_display())
        if ride.status == RideStatus.REQUESTED:
            return str(_("despachada: nenhum táxi livre ainda; a central foi avisada e a corrida vai ao primeiro táxi "
                         "que ficar livre") if ride.escalated else _("despachada: procurando táxi"))
        if ride.status == RideStatus.OFFERED:
            return str(_("despachada: oferecida a um táxi, aguardando o motorista"))
        if ride.status in ACTIVE_RIDE_STATUSES or ride.status == RideStatus.COMPLETED:
            return str(_("despachada: corrida %(status)s") % {"status": ride.get_status_display()})
        return str(_("despachada: corrida cancelada (%(reason)s)") % {"reason": ride.cancel_reason or ride.cancelled_by or "—"})
    situation.short_description = _("situação")
