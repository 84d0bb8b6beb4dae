"""The guard row that makes each job run once per slot, whatever the number of scheduler processes."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class JobRun(models.Model):
    """One run of a job for one slot (``2026-12-01#0``: the day's first period); unique, so a second process
    inserting the same row fails and skips the job (SQLite and PostgreSQL alike)."""

    job = models.CharField(_("tarefa"), max_length=64)
    slot = models.CharField(_("período"), max_length=32)
    started_at = models.DateTimeField(_("início"))
    finished_at = models.DateTimeField(_("fim"), null=True, blank=True)
    summary = models.TextField(_("resultado"), blank=True)

    class Meta:
        verbose_name = _("execução de tarefa agendada")
        verbose_name_plural = _("execuções de tarefas agendadas")
        ordering = ["-started_at"]
        constraints = [models.UniqueConstraint(fields=["job", "slot"], name="one_run_per_job_and_slot")]

    def __str__(self):
        return f"{self.job} {self.slot}"


class Heartbeat(models.Model):
    """The last check of a scheduler process (``backend.scheduler.heartbeat``): readiness reads the newest."""

    name = models.CharField(_("processo"), max_length=120, primary_key=True)
    beat_at = models.DateTimeField(_("última verificação"))

    class Meta:
        verbose_name = _("sinal do agendador")
        verbose_name_plural = _("sinais do agendador")
