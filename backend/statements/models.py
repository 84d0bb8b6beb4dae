"""Weekly statements of the split of the gross (Lei 1.242/1987, Art. 1, §2-§6).

A statement is written once, when its week is closed, and never rewritten:
``save`` refuses to update a stored row and ``delete`` refuses to remove it.
"""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from backend.registry.models import Permit, Person
from taxilaw.split import PERMIT_HOLDER_EXPENSES_NOTE


class StatementImmutable(ValidationError):
    """A closed statement (or week) cannot be changed (Art. 1, §3: the week's gross is settled at its end)."""


class WeekClosure(models.Model):
    """The record that a week (Monday to Sunday, America/Sao_Paulo) was closed (Art. 1, §3)."""

    week_start = models.DateField(_("início da semana (segunda-feira)"), unique=True)
    week_end = models.DateField(_("fim da semana (domingo)"))
    closed_at = models.DateTimeField(_("fechada em"))
    statements = models.PositiveIntegerField(_("extratos emitidos"), default=0)

    class Meta:
        verbose_name = _("fechamento semanal")
        verbose_name_plural = _("fechamentos semanais")
        ordering = ["-week_start"]

    def __str__(self):
        return f"{self.week_start:%d/%m/%Y}–{self.week_end:%d/%m/%Y}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise StatementImmutable(_("Uma semana fechada não pode ser alterada."))
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise StatementImmutable(_("Uma semana fechada não pode ser apagada."))


class WeeklyStatement(models.Model):
    """One driver's week on one permit and its split (Art. 1, §3; Art. 1, §6; note of Art. 1, §2)."""

    class Role(models.TextChoices):
        HOLDER = "permissionario", _("permissionário")
        AUXILIARY = "auxiliar", _("auxiliar")

    class Agreement(models.TextChoices):
        LAW = "law", _("lei: 25% auxiliar / 75% permissionário (Art. 1, §3)")
        CONTRACT = "contract", _("contrato escrito (Art. 1, §6)")
        OWN = "own", _("condução do próprio permissionário: sem partilha")

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="weekly_statements", verbose_name=_("permissão"))
    driver = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="weekly_statements", verbose_name=_("motorista"))
    holder = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="holder_statements", verbose_name=_("permissionário")
    )
    role = models.CharField(_("papel"), max_length=16, choices=Role.choices)
    week_start = models.DateField(_("início da semana (segunda-feira)"))
    week_end = models.DateField(_("fim da semana (domingo)"))
    gross = models.DecimalField(_("valor bruto"), max_digits=12, decimal_places=2)
    auxiliary_part = models.DecimalField(_("parte do auxiliar"), max_digits=12, decimal_places=2)
    holder_part = models.DecimalField(_("parte do permissionário"), max_digits=12, decimal_places=2)
    auxiliary_percent = models.DecimalField(_("percentual do auxiliar"), max_digits=5, decimal_places=2)
    agreement = models.CharField(_("forma de partilha"), max_length=10, choices=Agreement.choices)
    contract_reference = models.CharField(_("contrato (Art. 1, §6)"), max_length=255, blank=True)
    rides = models.PositiveIntegerField(_("corridas"))
    closure = models.ForeignKey(WeekClosure, null=True, blank=True, on_delete=models.PROTECT, related_name="statement_rows")
    closed_at = models.DateTimeField(_("fechado em"), null=True, blank=True)

    class Meta:
        verbose_name = _("extrato semanal")
        verbose_name_plural = _("extratos semanais")
        ordering = ["-week_start", "permit__number", "role", "driver__full_name"]
        constraints = [
            models.UniqueConstraint(fields=["permit", "driver", "week_start"], name="one_statement_per_driver_week"),
        ]

    def __str__(self):
        return f"{self.permit} · {self.driver} · {self.week_start:%d/%m/%Y}"

    expenses_note = PERMIT_HOLDER_EXPENSES_NOTE  # Art. 1, §2: shown on every statement

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def driver_part(self):
        """What the driver keeps: the auxiliary's part, or the whole gross for the holder's own driving."""
        return self.holder_part if self.role == self.Role.HOLDER else self.auxiliary_part

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise StatementImmutable(_("Um extrato fechado nunca é reescrito."))
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise StatementImmutable(_("Um extrato fechado não pode ser apagado."))
