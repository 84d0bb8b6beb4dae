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
