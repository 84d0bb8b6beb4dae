"""Decreed tariffs, correction tables and tariff studies (Lei 1.242/1987, Art. 42-47).

Models hold state only; writes go through ``services`` (checked by the law
core in :mod:`taxilaw.tariffs` and :mod:`taxilaw.tariff_study`), reads through
``selectors``.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from taxilaw import tariff_study as study_law
from taxilaw import tariffs as law

MONEY = dict(max_digits=10, decimal_places=2)


class TariffDecree(models.Model):
    """A tariff set by decree (Art. 44) and charged through Bandeira I/II (Art. 45).

    Immutable once in force: a new adjustment is a new decree."""

    effective_from = models.DateField(_("vigente a partir de"), unique=True)
    bandeirada = models.DecimalField(_("bandeirada (R$)"), help_text=_("Art. 1, VII"), **MONEY)
    price_km_b1 = models.DecimalField(_("quilômetro na Bandeira I (R$)"), help_text=_("Art. 45, I"), **MONEY)
    price_km_b2 = models.DecimalField(_("quilômetro na Bandeira II (R$)"), help_text=_("Art. 45, II"), **MONEY)
    price_hour_waiting = models.DecimalField(_("hora de espera (R$)"), help_text=_("Art. 42"), **MONEY)
    decree = models.CharField(_("decreto"), max_length=255, help_text=_("Ato que fixou a tarifa (Art. 44)."))
    created_at = models.DateTimeField(_("registrado em"), auto_now_add=True)

    class Meta:
        verbose_name = _("tarifa decretada")
        verbose_name_plural = _("tarifas decretadas")
        ordering = ["-effective_from"]

    def __str__(self):
        return f"{self.effective_from:%d/%m/%Y} — {self.decree}"

    def to_law(self) -> law.Tariff:
        return law.Tariff(
            effective_from=self.effective_from,
            bandeirada=self.bandeirada,
            price_km_b1=self.price_km_b1,
            price_km_b2=self.price_km_b2,
            price_hour_waiting=self.price_hour_waiting,
            decree=self.decree,
        )

    def is_in_force_or_past(self, on=None) -> bool:
        """Took effect already (so it is immutable)."""
        return self.effective_from <= (on or timezone.localdate())

    @property
    def review_due_on(self):
        return law.review_due_on(self.to_law())


class CorrectionTable(models.Model):
    """A correction table between a decree and the meters' recalibration (Art. 45, §3-§4)."""

    tariff = models.ForeignKey(
        TariffDecree, on_delete=models.PROTECT, related_name="correction_tables", verbose_name=_("tarifa decretada")
    )
    factor = models.DecimalField(_("fator de correção"), max_digits=8, decimal_places=4)
    authorization = models.CharField(_("autorização do Prefeito"), max_length=255, help_text=_("Art. 45, §3"))
    authorized_on = models.DateField(_("autorizada em"))
    valid_from = models.DateField(_("válida de"))
    valid_until = models.DateField(_("válida até"), help_text=_("No máximo 30 dias após o decreto (Art. 45, §4)."))
    created_at = models.DateTimeField(_("registrada em"), auto_now_add=True)

    class Meta:
        verbose_name = _("tabela de correção")
        verbose_name_plural = _("tabelas de correção")
        ordering = ["-valid_from"]

    def __str__(self):
        return f"{self.valid_from:%d/%m/%Y}–{self.valid_until:%d/%m/%Y} × {self.factor}"

    def to_law(self) -> law.CorrectionTable:
        return law.CorrectionTable(
            tariff=self.tariff.to_law(),
            factor=self.factor,
            authorization=self.authorization,
            authorized_on=self.authorized_on,
            valid_from=self.valid_from,
            valid_until=self.valid_until,
        )


class TariffStudy(models.Model):
    """The cost study of Art. 42 behind a tariff proposal (archived, Art. 44)."""

    reference = models.CharField(_("referência"), max_length=200)
    effective_from = models.DateField(_("vigência proposta"))
    # the standard vehicle (Art. 1, IX)
    vehicle_description = models.CharField(_("veículo padrão"), max_length=200)
    vehicle_value = models.DecimalField(_("valor do veículo padrão (R$)"), max_digits=12, decimal_places=2)
    km_per_month = models.DecimalField(_("km rodados por mês"), max_digits=10, decimal_places=2)
    paid_km_ratio = models.DecimalField(_("proporção de km com passageiro"), max_digits=5, decimal_places=4, default="0.6000")
    average_trip_km = models.DecimalField(_("viagem média (km)"), max_digits=6, decimal_places=2, default="4.00")
    # methodology (docs/readings-tariffs.md)
    bandeirada_share = models.DecimalField(_("parcela da bandeirada"), max_digits=5, decimal_places=4, default="0.2500")
    b2_ratio = models.DecimalField(_("razão Bandeira II / Bandeira I"), max_digits=5, decimal_places=4, default="1.2000")
    waiting_equivalent_kmh = models.DecimalField(_("velocidade de equivalência da espera (km/h)"), max_digits=6, decimal_places=2, default="4.80")
    # results (computed by the law core)
    cost_per_km = models.DecimalField(_("custo por km"), max_digits=12, decimal_places=4, null=True, blank=True)
    cost_per_paid_km = models.DecimalField(_("custo por km com passageiro"), max_digits=12, decimal_places=4, null=True, blank=True)
    proposed_bandeirada = models.DecimalField(_("bandeirada proposta"), null=True, blank=True, **MONEY)
    proposed_km_b1 = models.DecimalField(_("km proposto, Bandeira I"), null=True, blank=True, **MONEY)
    proposed_km_b2 = models.DecimalField(_("km proposto, Bandeira II"), null=True, blank=True, **MONEY)
    proposed_hour_waiting = models.DecimalField(_("hora de espera proposta"), null=True, blank=True, **MONEY)
    capital_capped = models.BooleanField(_("remuneração do capital limitada a 12% a.a."), default=False)
    lines = models.JSONField(_("linhas do cálculo"), default=list, blank=True)
    warnings = models.JSONField(_("avisos"), default=list, blank=True)
    created_at = models.DateTimeField(_("elaborado em"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("elaborado por")
    )

    class Meta:
        verbose_name = _("estudo tarifário")
        verbose_name_plural = _("estudos tarifários")
        ordering = ["-created_at"]

    def __str__(self):
        return self.reference

    def vehicle(self) -> study_law.StandardVehicle:
        return study_law.StandardVehicle(
            description=self.vehicle_description,
            value=self.vehicle_value,
            km_per_month=self.km_per_month,
            paid_km_ratio=self.paid_km_ratio,
            average_trip_km=self.average_trip_km,
        )


class TariffStudyItem(models.Model):
    """One cost item a)-l) of Art. 42, per month or per km."""

    class Basis(models.TextChoices):
        MONTH = "month", _("por mês")
        KM = "km", _("por km")

    study = models.ForeignKey(TariffStudy, on_delete=models.CASCADE, related_name="items", verbose_name=_("estudo"))
    item = models.CharField(_("item de custo"), max_length=1, choices=[(k, f"{k}) {v}") for k, v in study_law.COST_ITEMS.items()])
    amount = models.DecimalField(_("valor (R$)"), max_digits=12, decimal_places=4)
    basis = models.CharField(_("base"), max_length=5, choices=Basis.choices, default=Basis.MONTH)
    note = models.CharField(_("observação"), max_length=255, blank=True)

    class Meta:
        verbose_name = _("item de custo")
        verbose_name_plural = _("itens de custo (Art. 42, a–l)")
        ordering = ["item"]
        constraints = [models.UniqueConstraint(fields=["study", "item"], name="one_cost_item_per_letter")]

    def __str__(self):
        return f"{self.item}) {self.amount}"

    def to_law(self) -> study_law.CostItem:
        return study_law.CostItem(item=self.item, amount=self.amount, basis=self.basis, note=self.note)
