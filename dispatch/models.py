"""Radio-taxi dispatch state (Art. 66): the live cabs and the offers of rides to them. The database is the
source of truth: an offer is committed before any message announces it. The rides themselves live in
``backend.trips``."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from backend.registry.models import Permit, Person


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

    permit = models.OneToOneField(Permit, on_delete=models.CASCADE, related_name="cab", verbose_name=_("permissão"))
    driver = models.ForeignKey(Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("motorista"))
    status = models.CharField(_("situação"), max_length=16, choices=CabStatus.choices, default=CabStatus.OFF_DUTY)
    online = models.BooleanField(_("conectado"), default=False)
    lat = models.FloatField(_("latitude"), null=True, blank=True)
    lon = models.FloatField(_("longitude"), null=True, blank=True)
    cell = models.CharField(_("célula da grade"), max_length=24, blank=True)
    zone = models.CharField(_("zona"), max_length=12, blank=True)
    position_at = models.DateTimeField(_("posição em"), null=True, blank=True)
    # The registry's facts about this driver on this permit (taxilaw.compliance.ComplianceFacts), kept so
    # that an offer asks the law core without reading the registry again. Database triggers (migration
    # 0003) clear them and bump ``facts_epoch`` on any write to a table they come from.
    compliance_facts = models.JSONField(_("fatos do cadastro"), null=True, blank=True, editable=False)
    facts_epoch = models.PositiveBigIntegerField(_("versão dos fatos"), default=0, editable=False)

    class Meta:
        verbose_name = _("táxi em operação")
        verbose_name_plural = _("táxis em operação")
        # The nearest-cab search reads free connected cabs by cell; the position flush rewrites cells, so one
        # partial index for that and none other on cell (a cab that is not free is in no index by cell).
        indexes = [models.Index(fields=["cell"], name="free_cabs_by_cell", condition=Q(status=CabStatus.FREE, online=True))]

    def __str__(self):
        return f"{self.permit} ({self.get_status_display()})"


class OfferStatus(models.TextChoices):
    PENDING = "pending", _("aguardando resposta")
    ACCEPTED = "accepted", _("aceita")
    DECLINED = "declined", _("recusada")
    EXPIRED = "expired", _("expirada")
    WITHDRAWN = "withdrawn", _("retirada")
    CANCELLED = "cancelled", _("aceita e depois cancelada pelo motorista")


class Offer(models.Model):
    """One offer of a ride to one cab, with the audit of why that cab (candidates, distances, queue)."""

    ride = models.ForeignKey("trips.Ride", on_delete=models.CASCADE, related_name="offers", verbose_name=_("corrida"))
    cab = models.ForeignKey(Cab, on_delete=models.CASCADE, related_name="offers", verbose_name=_("táxi"))
    driver = models.ForeignKey(Person, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("motorista"))
    status = models.CharField(_("situação"), max_length=10, choices=OfferStatus.choices, default=OfferStatus.PENDING)
    created_at = models.DateTimeField(_("criada em"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expira em"))
    responded_at = models.DateTimeField(_("respondida em"), null=True, blank=True)
    reason = models.CharField(_("motivo da escolha"), max_length=255)
    candidates = models.JSONField(_("candidatos considerados"), default=list)
    distance_m = models.FloatField(_("distância (m)"), null=True, blank=True)

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

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk} ({self.cab.permit})"


class ServingProcess(models.Model):
    """A serving (Daphne) process, alive while its background tick renews ``lease_until`` (dispatch.transport.presence).

    A process that dies stops renewing: once its lease has run out its connections are gone and its cabs offline."""

    name = models.CharField(_("processo"), max_length=80, primary_key=True)
    lease_until = models.DateTimeField(_("vivo até"))

    class Meta:
        verbose_name = _("processo de atendimento")
        verbose_name_plural = _("processos de atendimento")


class CabConnection(models.Model):
    """One open driver socket: a cab is online while it has one in a live process (a phone reconnecting has two)."""

    cab = models.ForeignKey(Cab, on_delete=models.CASCADE, related_name="connections", verbose_name=_("táxi"))
    driver = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+", verbose_name=_("motorista"))
    process = models.ForeignKey(ServingProcess, on_delete=models.CASCADE, related_name="connections", verbose_name=_("processo"))
    channel_name = models.CharField(_("canal"), max_length=200, unique=True)
    opened_at = models.DateTimeField(_("aberta em"), auto_now_add=True)

    class Meta:
        verbose_name = _("conexão de táxi")
        verbose_name_plural = _("conexões de táxis")


class RideShare(models.Model):
    """A link a passenger gave someone to follow the ride (docs/passenger-safety.md): ``/acompanhar/<token>/``.

    Only the token's SHA-256 is kept: the database (a backup, a leak) cannot give the links out. Valid while the ride
    is open and the link not revoked; the page shows the cab, its driver, where it is and the ride's two ends.
    """

    ride = models.ForeignKey("trips.Ride", on_delete=models.CASCADE, related_name="shares", verbose_name=_("corrida"))
    token_hash = models.CharField(_("resumo do token (SHA-256)"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("criado em"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revogado em"), null=True, blank=True)

    class Meta:
        verbose_name = _("compartilhamento de corrida")
        verbose_name_plural = _("compartilhamentos de corridas")
        ordering = ["-created_at"]


class SosAlert(models.Model):
    """A passenger's SOS during a ride: what the central saw then, kept for DIMUTRAN (docs/passenger-safety.md).

    The ride's cab, driver and last positions are copied at the moment of the alert: what the operators acted on.
    """

    ride = models.ForeignKey("trips.Ride", on_delete=models.PROTECT, related_name="sos_alerts", verbose_name=_("corrida"))
    raised_at = models.DateTimeField(_("acionado em"), auto_now_add=True)
    ride_status = models.CharField(_("situação da corrida"), max_length=12)
    permit = models.CharField(_("permissão"), max_length=20, blank=True)
    plate = models.CharField(_("placa"), max_length=8, blank=True)
    driver_name = models.CharField(_("motorista"), max_length=200, blank=True)
    # [{"source": "passenger" | "cab", "lat", "lon", "at", "accuracy_m"?}], the latest known of each
    positions = models.JSONField(_("últimas posições"), default=list)
    acknowledged_at = models.DateTimeField(_("visto pela central em"), null=True, blank=True)
    acknowledged_by = models.CharField(_("visto por"), max_length=150, blank=True)

    class Meta:
        verbose_name = _("alerta SOS")
        verbose_name_plural = _("alertas SOS")
        ordering = ["-raised_at"]
