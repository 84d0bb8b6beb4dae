"""Radio-taxi dispatch state (Art. 66). The database is the source of truth:
a ride or offer is committed before any message announces it."""

import secrets

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from backend.registry.models import Permit, Person


class Passenger(models.Model):
    """A passenger: only what a ride needs (a name and a phone number)."""

    name = models.CharField(_("nome"), max_length=120)
    phone = models.CharField(_("telefone"), max_length=20, db_index=True)
    token = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("passageiro")
        verbose_name_plural = _("passageiros")

    def save(self, *args, **kwargs):
        if not self.token:
            self.token = secrets.token_urlsafe(32)
        super().save(*args, **kwargs)

    def __str__(self):
        return f"{self.name} ({self.phone})"


class CabStatus(models.TextChoices):
    FREE = "livre", _("livre")
    EN_ROUTE = "a_caminho", _("a caminho")
    BUSY = "ocupado", _("ocupado")
    OFF_DUTY = "fora_de_servico", _("fora de serviço")


class Cab(models.Model):
    """The live state of a permit's taxi: who drives it now, where, and whether it is free.

    Positions are written in batches (not per message); ``cell`` is the
    spatial-grid cell of the last position, indexed for the nearest-cab search.
    """

    permit = models.OneToOneField(Permit, on_delete=models.CASCADE, related_name="cab")
    driver = models.ForeignKey(Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(_("situação"), max_length=16, choices=CabStatus.choices, default=CabStatus.OFF_DUTY)
    online = models.BooleanField(_("conectado"), default=False)
    lat = models.FloatField(null=True, blank=True)
    lon = models.FloatField(null=True, blank=True)
    cell = models.CharField(max_length=24, blank=True, db_index=True)
    zone = models.CharField(max_length=12, blank=True)
    position_at = models.DateTimeField(null=True, blank=True)
    # The registry's facts about this driver on this permit (taxilaw.compliance.ComplianceFacts), kept so
    # that an offer asks the law core without reading the registry again. Database triggers (migration
    # 0003) clear them and bump ``facts_epoch`` on any write to a table they come from.
    compliance_facts = models.JSONField(null=True, blank=True, editable=False)
    facts_epoch = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("táxi em operação")
        verbose_name_plural = _("táxis em operação")
        indexes = [models.Index(fields=["status", "online", "cell"])]

    def __str__(self):
        return f"{self.permit} ({self.get_status_display()})"


class RideStatus(models.TextChoices):
    REQUESTED = "requested", _("solicitada")
    OFFERED = "offered", _("oferecida")
    ACCEPTED = "accepted", _("aceita")
    ARRIVING = "arriving", _("táxi a caminho")
    ON_BOARD = "on_board", _("passageiro a bordo")
    COMPLETED = "completed", _("concluída")
    CANCELLED = "cancelled", _("cancelada")


ACTIVE_RIDE_STATUSES = (RideStatus.ACCEPTED, RideStatus.ARRIVING, RideStatus.ON_BOARD)
OPEN_RIDE_STATUSES = (RideStatus.REQUESTED, RideStatus.OFFERED, *ACTIVE_RIDE_STATUSES)


class Ride(models.Model):
    """A ride request and its life; each transition is timestamped and bumps ``version``."""

    passenger = models.ForeignKey(Passenger, null=True, blank=True, on_delete=models.PROTECT, related_name="rides")
    caller_name = models.CharField(_("nome de quem ligou"), max_length=120, blank=True)
    caller_phone = models.CharField(_("telefone de quem ligou"), max_length=20, blank=True)
    created_by = models.CharField(_("origem"), max_length=16, default="passenger")  # passenger | operator
    pickup_lat = models.FloatField()
    pickup_lon = models.FloatField()
    pickup_address = models.CharField(_("endereço de embarque"), max_length=200, blank=True)
    destination_lat = models.FloatField(null=True, blank=True)
    destination_lon = models.FloatField(null=True, blank=True)
    destination_address = models.CharField(_("destino"), max_length=200, blank=True)
    status = models.CharField(_("situação"), max_length=12, choices=RideStatus.choices, default=RideStatus.REQUESTED)
    version = models.PositiveIntegerField(default=1)
    cab = models.ForeignKey(Cab, null=True, blank=True, on_delete=models.PROTECT, related_name="rides")
    permit = models.ForeignKey(Permit, null=True, blank=True, on_delete=models.PROTECT, related_name="rides")
    driver = models.ForeignKey(Person, null=True, blank=True, on_delete=models.PROTECT, related_name="rides_driven")
    escalated = models.BooleanField(_("sem táxi: encaminhada ao operador"), default=False)
    requested_at = models.DateTimeField(auto_now_add=True)
    offered_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    arriving_at = models.DateTimeField(null=True, blank=True)
    on_board_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.CharField(max_length=16, blank=True)
    cancel_reason = models.CharField(max_length=255, blank=True)
    # Art. 43: the fare is what the meter shows at the end; the server's recomputation is kept beside it.
    fare = models.DecimalField(_("tarifa (Art. 43)"), max_digits=10, decimal_places=2, null=True, blank=True)
    server_total = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    meter_disagreement = models.BooleanField(default=False)
    distance_m = models.FloatField(null=True, blank=True)
    trace = models.JSONField(default=list, blank=True)
    # Art. 32: the CVI and the CMT the passenger was shown, recorded when the cab accepted (for complaints and audit).
    credentials = models.JSONField(_("CVI e CMT apresentados (Art. 32)"), default=dict, blank=True)

    class Meta:
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
        indexes = [models.Index(fields=["status"]), models.Index(fields=["permit", "completed_at"])]


class OfferStatus(models.TextChoices):
    PENDING = "pending", _("aguardando resposta")
    ACCEPTED = "accepted", _("aceita")
    DECLINED = "declined", _("recusada")
    EXPIRED = "expired", _("expirada")
    WITHDRAWN = "withdrawn", _("retirada")


class Offer(models.Model):
    """One offer of a ride to one cab, with the audit of why that cab (candidates, distances, queue)."""

    ride = models.ForeignKey(Ride, on_delete=models.CASCADE, related_name="offers")
    cab = models.ForeignKey(Cab, on_delete=models.CASCADE, related_name="offers")
    driver = models.ForeignKey(Person, null=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=10, choices=OfferStatus.choices, default=OfferStatus.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    responded_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(_("motivo da escolha"), max_length=255)
    candidates = models.JSONField(_("candidatos considerados"), default=list)
    distance_m = models.FloatField(null=True, blank=True)

    class Meta:
        verbose_name = _("oferta")
        verbose_name_plural = _("ofertas")
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["ride", "cab"], name="never_the_same_ride_twice"),
            models.UniqueConstraint(fields=["ride"], condition=Q(status="pending"), name="one_pending_offer_per_ride"),
            # A cab considers one offer at a time: two rides chosen at once in two processes cannot both wait on it.
            models.UniqueConstraint(fields=["cab"], condition=Q(status="pending"), name="one_pending_offer_per_cab"),
        ]
        indexes = [models.Index(fields=["status", "expires_at"])]
