"""Dated parameters and municipal holidays, as DIMUTRAN edits them."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from backend.api_errors import require
from taxilaw.acts import statute_allows

from .append_only import AppendOnlyModel


class DatedParameter(AppendOnlyModel):
    """A value set by law, decree, regulation or census, in force from a date: an append-only act (a correction is
    a new act; the statute's own amounts change only by law, Art. 4, §2, Art. 55; the deposit of Art. 63, §5 never
    comes back)."""

    name = models.CharField(_("parâmetro"), max_length=64, db_index=True)
    effective_from = models.DateField(_("vigente a partir de"))
    value = models.DecimalField(_("valor"), max_digits=14, decimal_places=4)
    source = models.CharField(_("ato normativo / fonte"), max_length=255)

    class Meta:
        verbose_name = _("parâmetro datado")
        verbose_name_plural = _("parâmetros datados")
        ordering = ["name", "effective_from"]
        constraints = [models.UniqueConstraint(fields=["name", "effective_from"], name="one_value_per_date")]

    def __str__(self):
        return f"{self.name} = {self.value} ({self.effective_from:%d/%m/%Y})"

    def act_name(self) -> str:
        return self.name

    def check_new_act(self) -> None:
        require(statute_allows(self.name, self.effective_from, self.value, self.source), "value")


class MunicipalHoliday(models.Model):
    """A municipal holiday of Muriaé (Art. 45, II; working days of Art. 10, §1): one date, or (``every_year``)
    the same day every year from that date on, such as 29 June."""

    date = models.DateField(_("data"), unique=True)
    name = models.CharField(_("nome"), max_length=120)
    source = models.CharField(_("ato normativo / fonte"), max_length=255, blank=True)
    every_year = models.BooleanField(_("repete-se todo ano a partir desta data"), default=False)

    class Meta:
        verbose_name = _("feriado municipal")
        verbose_name_plural = _("feriados municipais")
        ordering = ["date"]

    def __str__(self):
        return f"{self.date:%d/%m/%Y} {self.name}"
