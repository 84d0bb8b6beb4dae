"""The monthly report for the Câmara and the mayor, kept as the PDF that was issued (``report.py``, ``jobs.py``)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class MonthlyReport(models.Model):
    """The month's indicators as a PDF, built once by the scheduler on the next month's first working day."""

    month = models.DateField(_("mês (primeiro dia)"), unique=True)
    generated_at = models.DateTimeField(_("gerado em"))
    pdf = models.BinaryField(_("PDF"), editable=False)

    class Meta:
        verbose_name = _("relatório mensal dos indicadores")
        verbose_name_plural = _("relatórios mensais dos indicadores")
        ordering = ["-month"]

    def __str__(self):
        return f"{self.month:%m/%Y}"

    @property
    def filename(self) -> str:
        return f"{self.month:%Y-%m}.pdf"

    @property
    def url(self) -> str:
        return f"/dimutran/relatorios/{self.filename}"


class RolledDay(models.Model):
    """A closed local day whose indicators are in the rollup (``rollup.py``): the page reads them from there."""

    day = models.DateField(_("dia"), unique=True)
    built_at = models.DateTimeField(_("consolidado em"))

    class Meta:
        verbose_name = _("dia consolidado dos indicadores")
        verbose_name_plural = _("dias consolidados dos indicadores")
        ordering = ["-day"]


class ServiceMeasures(models.Model):
    """The service measures the rollup keeps: counts, and the waits as sums (µs) and counts, so that rows add up."""

    requests = models.PositiveIntegerField(_("pedidos"), default=0)
    served = models.PositiveIntegerField(_("atendidos"), default=0)
    escalated = models.PositiveIntegerField(_("sem táxi: encaminhados"), default=0)
    unanswered = models.PositiveIntegerField(_("não atendidos"), default=0)
    cancelled_passenger = models.PositiveIntegerField(_("cancelados pelo passageiro"), default=0)
    cancelled_operator = models.PositiveIntegerField(_("cancelados pelo operador"), default=0)
    cancelled_driver = models.PositiveIntegerField(_("cancelados pelo motorista"), default=0)
    no_shows = models.PositiveIntegerField(_("passageiro não apareceu"), default=0)
    offer_wait_total = models.BigIntegerField(_("soma das esperas pela oferta (µs)"), default=0)
    offer_wait_n = models.PositiveIntegerField(_("pedidos oferecidos"), default=0)
    pickup_wait_total = models.BigIntegerField(_("soma das esperas pela chegada (µs)"), default=0)
    pickup_wait_n = models.PositiveIntegerField(_("pedidos alcançados"), default=0)

    class Meta:
        abstract = True


# Two rollups of the same measures, not one per day, hour and bairro: the page's totals, days, weeks and hours read
# 24 rows a day and its bairros a row per bairro a day, instead of every (hour, bairro) pair (~230 a day at 500,000
# rides a year): the selectors' time at a year dropped by about that factor (docs/indicators.md, benchmark).
class ServiceHourRollup(ServiceMeasures):
    """The service measures of one local day and hour of day (requested then)."""

    day = models.DateField(_("dia"))
    hour = models.PositiveSmallIntegerField(_("hora do dia"))

    class Meta:
        verbose_name = _("consolidado do serviço por dia e hora")
        verbose_name_plural = _("consolidados do serviço por dia e hora")
        constraints = [models.UniqueConstraint(fields=["day", "hour"], name="one_rollup_per_day_hour")]


class ServiceBairroRollup(ServiceMeasures):
    """The service measures of one local day and bairro of the pickup."""

    day = models.DateField(_("dia"))
    bairro = models.CharField(_("bairro do embarque"), max_length=120)

    class Meta:
        verbose_name = _("consolidado do serviço por dia e bairro")
        verbose_name_plural = _("consolidados do serviço por dia e bairro")
        constraints = [models.UniqueConstraint(fields=["day", "bairro"], name="one_rollup_per_day_bairro")]


class MoneyRollup(models.Model):
    """The completed rides of one local day (``completed_at``): fares counted, their sum, meter disagreements."""

    day = models.DateField(_("dia"), unique=True)
    rides = models.PositiveIntegerField(_("corridas com tarifa"), default=0)
    gross = models.DecimalField(_("valor bruto"), max_digits=14, decimal_places=2, default=0)
    disagreements = models.PositiveIntegerField(_("divergências do taxímetro"), default=0)

    class Meta:
        verbose_name = _("consolidado do valor bruto por dia")
        verbose_name_plural = _("consolidados do valor bruto por dia")
