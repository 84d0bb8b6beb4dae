"""The trip record (Art. 43, Art. 66): a passenger and a ride, dispatched or hailed in the street, from the
request to the fare the meter showed. The database is the source of truth: a ride is committed before any
message announces it. Dispatch (the websocket app) writes rides; statements and enforcement read them here."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from backend.registry.models import Permit, Person


class Passenger(models.Model):
    """A passenger: only what a ride needs (a name and a phone number)."""

    name = models.CharField(_("nome"), max_length=120)
    phone = models.CharField(_("telefone"), max_length=20, db_index=True)
    token = models.CharField(_("token de acesso"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("cadastrado em"), auto_now_add=True)
    # Set when the passenger's data was erased (on request or after ``retention_passenger_days``; LGPD).
    anonymised_at = models.DateTimeField(_("dados apagados em"), null=True, blank=True)

    class Meta:
        db_table = "dispatch_passenger"  # created by dispatch before the trips app owned it (trips 0001)
        verbose_name = _("passageiro")
        verbose_name_plural = _("passageiros")

    def __str__(self):
        return f"{self.name} ({self.phone})" if self.anonymised_at is None else f"#{self.pk} ({_('dados apagados')})"

    def save(self, *args, **kwargs):
        if not self.token:
            self.token = secrets.token_urlsafe(32)
        super().save(*args, **kwargs)


class RideStatus(models.TextChoices):
    REQUESTED = "requested", _("solicitada")
    OFFERED = "offered", _("oferecida")
    ACCEPTED = "accepted", _("aceita")
    ARRIVING = "arriving", _("o táxi chegou")  # the driver tapped "Cheguei" (ride_arriving)
    ON_BOARD = "on_board", _("passageiro a bordo")
    COMPLETED = "completed", _("concluída")
    CANCELLED = "cancelled", _("cancelada")


class RideOrigin(models.TextChoices):
    """Who asked for the ride (``Ride.created_by``, ``Booking.created_by``)."""

    PASSENGER = "passenger", _("passageiro (página ou aplicativo)")
    OPERATOR = "operator", _("central (telefone)")
    STREET = "street", _("rua (passageiro acenou)")
    RANK = "rank", _("ponto de táxi")


ACTIVE_RIDE_STATUSES = (RideStatus.ACCEPTED, RideStatus.ARRIVING, RideStatus.ON_BOARD)
OPEN_RIDE_STATUSES = (RideStatus.REQUESTED, RideStatus.OFFERED, *ACTIVE_RIDE_STATUSES)


# A request no cab answered: given up with no cab, or escalated to the operators. The indicators' map of them reads
# a year of these through the partial index below (ride_no_cab_pickups), which a query uses only with this condition.
NO_CAB = Q(escalated=True) | Q(status="cancelled", cancelled_by="no_cab")


class Ride(models.Model):
    """A ride request and its life; each transition is timestamped and bumps ``version``."""

    passenger = models.ForeignKey(Passenger, null=True, blank=True, on_delete=models.PROTECT, related_name="rides", verbose_name=_("passageiro"))
    caller_name = models.CharField(_("nome de quem ligou"), max_length=120, blank=True)
    caller_phone = models.CharField(_("telefone de quem ligou"), max_length=20, blank=True)
    created_by = models.CharField(_("origem"), max_length=16, choices=RideOrigin.choices, default=RideOrigin.PASSENGER)
    pickup_lat = models.FloatField(_("latitude do embarque"))
    pickup_lon = models.FloatField(_("longitude do embarque"))
    pickup_address = models.CharField(_("endereço de embarque"), max_length=200, blank=True)
    destination_lat = models.FloatField(_("latitude do destino"), null=True, blank=True)
    destination_lon = models.FloatField(_("longitude do destino"), null=True, blank=True)
    destination_address = models.CharField(_("destino"), max_length=200, blank=True)
    status = models.CharField(_("situação"), max_length=12, choices=RideStatus.choices, default=RideStatus.REQUESTED)
    version = models.PositiveIntegerField(_("versão"), default=1)
    cab = models.ForeignKey("dispatch.Cab", null=True, blank=True, on_delete=models.PROTECT, related_name="rides", verbose_name=_("táxi"))
    permit = models.ForeignKey(Permit, null=True, blank=True, on_delete=models.PROTECT, related_name="rides", verbose_name=_("permissão"))
    driver = models.ForeignKey(Person, null=True, blank=True, on_delete=models.PROTECT, related_name="rides_driven", verbose_name=_("motorista"))
    escalated = models.BooleanField(_("sem táxi: encaminhada ao operador"), default=False)
    requested_at = models.DateTimeField(_("pedida em"), auto_now_add=True)
    offered_at = models.DateTimeField(_("oferecida em"), null=True, blank=True)
    accepted_at = models.DateTimeField(_("aceita em"), null=True, blank=True)
    arriving_at = models.DateTimeField(_("táxi chegou em"), null=True, blank=True)
    on_board_at = models.DateTimeField(_("embarque em"), null=True, blank=True)
    completed_at = models.DateTimeField(_("concluída em"), null=True, blank=True)
    cancelled_at = models.DateTimeField(_("cancelada em"), null=True, blank=True)
    cancelled_by = models.CharField(_("cancelada por"), max_length=16, blank=True)
    cancel_reason = models.CharField(_("motivo do cancelamento"), max_length=255, blank=True)
    # Art. 43: the fare is what the meter shows at the end; the server's recomputation is kept beside it.
    fare = models.DecimalField(_("tarifa (Art. 43)"), max_digits=10, decimal_places=2, null=True, blank=True)
    meter_reading = models.DecimalField(_("leitura do taxímetro"), max_digits=10, decimal_places=2, null=True, blank=True,
                                        help_text=_("Difere da tarifa só quando uma tabela de correção a converte (Art. 45, §3)."))
    correction_factor = models.DecimalField(_("fator da tabela de correção"), max_digits=8, decimal_places=4, null=True,
                                            blank=True, help_text=_("Art. 45, §3-§4"))
    server_total = models.DecimalField(_("recálculo do servidor"), max_digits=10, decimal_places=2, null=True, blank=True)
    meter_disagreement = models.BooleanField(_("divergência do taxímetro"), default=False)
    # A total beyond the dated bound of the server's figure waits for DIMUTRAN (taxilaw.meter_check.fare_hold): no statement
    # counts it until released.
    fare_held = models.BooleanField(_("tarifa retida para conferência"), default=False)
    fare_released_at = models.DateTimeField(_("tarifa liberada em"), null=True, blank=True)
    fare_released_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                         related_name="+", verbose_name=_("liberada por"))
    distance_m = models.FloatField(_("distância (m)"), null=True, blank=True)
    trace = models.JSONField(_("trajeto (GPS)"), default=list, blank=True)
    # Art. 32: the CVI and the CMT the passenger was shown, recorded when the cab accepted (for complaints and audit).
    credentials = models.JSONField(_("CVI e CMT apresentados (Art. 32)"), default=dict, blank=True)
    # What the passenger asked the vehicle to have (taxilaw.accessibility.FEATURES): offered only to cabs that have it.
    needs = models.JSONField(_("necessidades do passageiro (veículo)"), default=list, blank=True)
    # The right-cab check (docs/passenger-safety.md): shown on the passenger's and the driver's screens from the accept.
    boarding_code = models.CharField(_("código de embarque"), max_length=8, blank=True)

    class Meta:
        db_table = "dispatch_ride"  # created by dispatch before the trips app owned it (trips 0001)
        verbose_name = _("corrida")
        verbose_name_plural = _("corridas")
        ordering = ["-requested_at"]
        constraints = [
            # Exactly one active ride per cab, whatever process accepts.
            models.UniqueConstraint(fields=["cab"], condition=Q(status__in=["accepted", "arriving", "on_board"]), name="one_active_ride_per_cab"),
            # One open ride per passenger, even when two connections (or two processes) ask at once.
            models.UniqueConstraint(
                fields=["passenger"], condition=Q(status__in=["requested", "offered", "accepted", "arriving", "on_board"]),
                name="one_open_ride_per_passenger",
            ),
        ]
        # requested_at, completed_at: the indicators count the days their nightly rollup does not hold yet (today).
        indexes = [models.Index(fields=["status"]), models.Index(fields=["permit", "completed_at"]),
                   models.Index(fields=["requested_at"], name="ride_requested_at"),
                   models.Index(fields=["completed_at"], name="ride_completed_at"),
                   # Covering (every column the map's query reads) and partial (the ~6% unanswered): a year's map at
                   # 500,000 rides reads ~30,000 index entries instead of every ride of the year (docs/indicators.md).
                   models.Index(fields=["requested_at", "created_by", "pickup_lat", "pickup_lon", "escalated", "status",
                                        "cancelled_by"], condition=NO_CAB, name="ride_no_cab_pickups"),
                   # The fares held for DIMUTRAN (indicators' money.held_fares, on every page): a few rows, not the
                   # status index's every completed ride (0.2-0.4 s at 500,000 rides).
                   models.Index(fields=["completed_at", "fare"], condition=Q(status="completed", fare_held=True),
                                name="ride_held_fares")]

    def __str__(self):
        return _("Corrida nº %(id)s") % {"id": self.pk}

class DriverCancellation(models.Model):
    """A driver gave up an accepted ride before boarding, with a reason (Art. 1, X; Art. 9, VII: ``taxilaw.cancellation``).

    Kept whatever became of the ride (offered to the next cab, or ended) so DIMUTRAN sees who cancels often;
    nothing here penalises anyone.
    """

    class Reason(models.TextChoices):
        PASSENGER_ABSENT = "passenger_absent", _("Passageiro não apareceu")
        PASSENGER_ASKED = "passenger_asked", _("Passageiro pediu para cancelar (telefone)")
        VEHICLE_PROBLEM = "vehicle_problem", _("Problema no veículo")

    ride = models.ForeignKey(Ride, on_delete=models.CASCADE, related_name="driver_cancellations", verbose_name=_("corrida"))
    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="driver_cancellations",
                               verbose_name=_("permissão"))
    driver = models.ForeignKey(Person, null=True, on_delete=models.PROTECT, related_name="driver_cancellations",
                               verbose_name=_("motorista"))
    reason = models.CharField(_("motivo"), max_length=20, choices=Reason.choices)
    ride_status = models.CharField(_("situação da corrida ao cancelar"), max_length=12)
    waited_s = models.PositiveIntegerField(_("espera no local (s)"), null=True, blank=True)
    reoffered = models.BooleanField(_("oferecida ao próximo táxi"), default=False)
    at = models.DateTimeField(_("quando"), auto_now_add=True)

    class Meta:
        verbose_name = _("cancelamento pelo motorista")
        verbose_name_plural = _("cancelamentos pelos motoristas")
        ordering = ["-at"]
        indexes = [models.Index(fields=["driver", "at"])]

    def __str__(self):
        return f"{self.ride_id} {self.get_reason_display()}"
