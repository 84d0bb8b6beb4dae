"""The cabs in the registry: vehicles and their inspections (Cap. V, Art. 32-39), taxímetros and their INMETRO
aferições (Art. 45-47). Split from ``permits`` only by size; ``backend.registry.models`` re-exports both."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .permits import Permit


class Vehicle(models.Model):
    """A taxi (Art. 1, I; Art. 28-40); one in service per permit (Art. 1, III)."""

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="vehicles", verbose_name=_("permissão"))
    plate = models.CharField(_("placa"), max_length=7)
    renavam = models.CharField(_("RENAVAM"), max_length=11)
    make = models.CharField(_("marca"), max_length=40)
    model = models.CharField(_("modelo"), max_length=60)
    model_year = models.PositiveIntegerField(_("ano-modelo"))
    manufacture_year = models.PositiveIntegerField(_("ano de fabricação"))
    colour = models.CharField(_("cor"), max_length=30)
    owner_count = models.PositiveSmallIntegerField(_("número de proprietários (Art. 14)"), default=1)
    in_service = models.BooleanField(_("em serviço"), default=True)
    in_service_since = models.DateField(_("em serviço desde"))
    removed_on = models.DateField(_("retirado em"), null=True, blank=True)
    # What a passenger may ask for (taxilaw.accessibility: Lei 13.146/2015, art. 51): dispatch offers such a ride
    # only to a cab whose vehicle in service has it.
    wheelchair_accessible = models.BooleanField(_("acessível para cadeira de rodas"), default=False)
    child_seat = models.BooleanField(_("cadeirinha infantil"), default=False)

    class Meta:
        verbose_name = _("veículo")
        verbose_name_plural = _("veículos")
        ordering = ["plate"]
        constraints = [
            models.UniqueConstraint(fields=["permit"], condition=Q(in_service=True), name="one_taxi_per_permit"),
            models.UniqueConstraint(fields=["plate"], condition=Q(in_service=True), name="plate_in_service_once"),
            models.UniqueConstraint(fields=["renavam"], condition=Q(in_service=True), name="renavam_in_service_once"),
        ]

    def __str__(self):
        return f"{self.plate} ({self.make} {self.model} {self.model_year})"


class Inspection(models.Model):
    """A vistoria (Art. 35-40) and its seal (Art. 37)."""

    class Kind(models.TextChoices):
        ANNUAL = "annual", _("anual (Art. 35)")
        EXTRAORDINARY = "extraordinary", _("extraordinária (Art. 35, § único)")

    class Result(models.TextChoices):
        PASSED = "passed", _("aprovado")
        FAILED = "failed", _("reprovado")

    vehicle = models.ForeignKey(Vehicle, on_delete=models.CASCADE, related_name="inspections", verbose_name=_("veículo"))
    kind = models.CharField(_("tipo"), max_length=15, choices=Kind.choices, default=Kind.ANNUAL)
    inspected_on = models.DateField(_("data da vistoria"))
    result = models.CharField(_("resultado"), max_length=10, choices=Result.choices)
    seal_number = models.CharField(_("selo (Art. 37)"), max_length=30, blank=True)
    valid_until = models.DateField(_("selo válido até"), null=True, blank=True)
    fee_brl = models.DecimalField(_("taxa de fiscalização (Art. 40)"), max_digits=10, decimal_places=2)
    fee_due_on = models.DateField(_("vencimento da taxa (Art. 40, § único)"))
    fee_paid_on = models.DateField(_("taxa paga em"), null=True, blank=True)
    notes = models.TextField(_("observações"), blank=True)
    # The planilha (Art. 36: roof light Art. 29, visual communication Art. 31/33, ...) and the documents presented
    # (Art. 39), each {code: passed/presented} of taxilaw.inspection_items.
    checklist = models.JSONField(_("planilha da vistoria (Art. 36)"), default=dict, blank=True)
    documents = models.JSONField(_("documentos apresentados (Art. 39)"), default=dict, blank=True)

    class Meta:
        verbose_name = _("vistoria")
        verbose_name_plural = _("vistorias")
        ordering = ["-inspected_on", "-id"]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk} ({self.vehicle})"


class Taximeter(models.Model):
    """A taxímetro installed in a cab (Art. 47): identified by its serial and sealed by INMETRO (Art. 47, §3)."""

    vehicle = models.ForeignKey(Vehicle, on_delete=models.PROTECT, related_name="taximeters", verbose_name=_("veículo"))
    serial = models.CharField(_("número de série"), max_length=40)
    make = models.CharField(_("marca"), max_length=60)
    model = models.CharField(_("modelo"), max_length=60)
    installer = models.CharField(_("instalado por"), max_length=120, blank=True,
                                 help_text=_("Pessoa ou empresa que instalou o taxímetro (Art. 47)."))
    installed_on = models.DateField(_("instalado em"))
    removed_on = models.DateField(_("retirado em"), null=True, blank=True,
                                  help_text=_("Só com permissão do INMETRO (Art. 47, §3)."))

    class Meta:
        verbose_name = _("taxímetro")
        verbose_name_plural = _("taxímetros")
        ordering = ["-installed_on"]
        constraints = [models.UniqueConstraint(fields=["make", "serial"], name="one_taximeter_per_serial")]

    def __str__(self):
        return f"{self.make} {self.model} nº {self.serial}"


class TaximeterAferition(models.Model):
    """An INMETRO aferição of a taxímetro (Art. 47, §1), obligatory at every tariff change (Art. 47, §2)."""

    taximeter = models.ForeignKey(Taximeter, on_delete=models.PROTECT, related_name="aferitions", verbose_name=_("taxímetro"))
    afered_on = models.DateField(_("aferido em"))
    certificate = models.CharField(_("certificado de aferição"), max_length=60)
    seal = models.CharField(_("lacre"), max_length=40)
    recorded_at = models.DateTimeField(_("registrada em"), auto_now_add=True)

    class Meta:
        verbose_name = _("aferição do taxímetro")
        verbose_name_plural = _("aferições dos taxímetros")
        ordering = ["-afered_on"]

    def __str__(self):
        return f"{self.taximeter} — {self.afered_on:%d/%m/%Y} ({self.certificate})"
