"""Weekly statements of the split of the gross (Lei 1.242/1987, Art. 1, §2-§6).

A statement is written once, when its week is closed, and never rewritten:
``save`` refuses to update a stored row and ``delete`` refuses to remove it.
Each completed ride is counted by exactly one statement (``StatementRide``):
its own week's, or, when it was recorded after its week was closed, a later
statement as an adjustment line naming the original week
(``StatementAdjustment``). See docs/readings-statements.md.
"""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from backend.registry.models import Permit, Person
from taxilaw.settlement import (
    METHOD_CARD,
    METHOD_CASH,
    METHOD_PIX,
    METHOD_UNRECORDED,
    PARTY_AUXILIARY,
    PARTY_HOLDER,
    Payment,
    Settlement,
    settle,
)
from taxilaw.split import PERMIT_HOLDER_EXPENSES_NOTE

ZERO = Decimal("0.00")


class StatementImmutable(ValidationError):
    """A closed statement (or week) cannot be changed (Art. 1, §3: the week's gross is settled at its end)."""


class WrittenOnce:
    """A closed week, its statements and what they counted: written once, never rewritten nor deleted."""

    rewrite_refused = _("Um extrato fechado nunca é reescrito.")
    delete_refused = _("Um extrato fechado não pode ser apagado.")

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise StatementImmutable(self.rewrite_refused)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise StatementImmutable(self.delete_refused)


class WeekClosure(WrittenOnce, models.Model):
    """The record that a week (Monday to Sunday, America/Sao_Paulo) was closed (Art. 1, §3)."""

    week_start = models.DateField(_("início da semana (segunda-feira)"), unique=True)
    week_end = models.DateField(_("fim da semana (domingo)"))
    closed_at = models.DateTimeField(_("fechada em"))
    statements = models.PositiveIntegerField(_("extratos emitidos"), default=0)
    late_rides = models.PositiveIntegerField(_("corridas de semanas já fechadas lançadas como ajuste"), default=0)

    class Meta:
        verbose_name = _("fechamento semanal")
        verbose_name_plural = _("fechamentos semanais")
        ordering = ["-week_start"]

    rewrite_refused = _("Uma semana fechada não pode ser alterada.")
    delete_refused = _("Uma semana fechada não pode ser apagada.")

    def __str__(self):
        return f"{self.week_start:%d/%m/%Y}–{self.week_end:%d/%m/%Y}"


class WeeklyStatement(WrittenOnce, models.Model):
    """One driver's week on one permit and its split (Art. 1, §3; Art. 1, §6; note of Art. 1, §2)."""

    class Role(models.TextChoices):
        HOLDER = "permissionario", _("permissionário")
        AUXILIARY = "auxiliar", _("auxiliar")

    class Agreement(models.TextChoices):
        LAW = "law", _("lei: 25% auxiliar / 75% permissionário (Art. 1, §3)")
        CONTRACT = "contract", _("contrato escrito (Art. 1, §6)")
        OWN = "own", _("condução do próprio permissionário: sem partilha")
        CTPS = "ctps", _("emprego com CTPS (Art. 1, §6): sem partilha")

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
    contract_signed_on = models.DateField(_("data do contrato (Art. 1, §6)"), null=True, blank=True)
    contract_witnesses = models.JSONField(_("testemunhas do contrato (Art. 1, §6)"), default=list, blank=True)
    ctps_number = models.CharField(_("número da CTPS (Art. 1, §6)"), max_length=20, blank=True)
    ctps_series = models.CharField(_("série da CTPS (Art. 1, §6)"), max_length=10, blank=True)
    rides = models.PositiveIntegerField(_("corridas"))
    closure = models.ForeignKey(WeekClosure, null=True, blank=True, on_delete=models.PROTECT, related_name="statement_rows", verbose_name=_("fechamento semanal"))
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

    @property
    def no_split(self) -> bool:
        """No partnership split: the holder's own driving, or an auxiliary employed under the CTPS (Art. 1, §6)."""
        return self.role == self.Role.HOLDER or self.agreement == self.Agreement.CTPS

    @property
    def adjustment_lines(self) -> list["StatementAdjustment"]:
        """Late rides of closed weeks carried here (Art. 1, §3); for a running week, those pending for the next closing."""
        if self.pk is None:
            return list(getattr(self, "pending_adjustments", []))
        return list(self.adjustments.all())

    @property
    def late_gross(self):
        return sum((a.gross for a in self.adjustment_lines), ZERO)

    @property
    def total_gross(self):
        """The week's own gross plus the late rides carried here."""
        return self.gross + self.late_gross

    @property
    def total_auxiliary_part(self):
        return self.auxiliary_part + sum((a.auxiliary_part for a in self.adjustment_lines), ZERO)

    @property
    def total_holder_part(self):
        return self.holder_part + sum((a.holder_part for a in self.adjustment_lines), ZERO)

    @property
    def ride_lines(self) -> list["StatementRide"]:
        """Every ride this statement counts, its own week's and the late ones, in time order (stored, or so far)."""
        if self.pk is None:
            lines = list(getattr(self, "pending_entries", []))
            lines += [r for a in self.adjustment_lines for r in a.ride_list]
            return sorted(lines, key=lambda r: (r.completed_at, r.ride_id))
        return list(self.ride_entries.order_by("completed_at", "ride_id"))

    @property
    def settlement(self) -> Settlement | None:
        """Who received what and the one transfer between the partners (Art. 1, §3-§6); none for the holder's own
        driving. Computed from the counted rides, stored at closing, so a closed statement's never changes."""
        if self.role == self.Role.HOLDER:
            return None
        payments = [Payment(r.fare, r.method or METHOD_UNRECORDED, r.collector or PARTY_AUXILIARY)
                    for r in self.ride_lines]
        return settle(payments, self.total_auxiliary_part, self.total_holder_part)

    @property
    def carried_later_lines(self) -> list["StatementAdjustment"]:
        """Rides of this (closed) week recorded after its closing and carried into later statements."""
        if self.pk is None:
            return []
        return list(self.carried_later.all())


class StatementAdjustment(WrittenOnce, models.Model):
    """Rides of a closed week recorded after its closing, carried into a later statement (Art. 1, §3).

    The closed statement of the original week is never rewritten. This line,
    in the statement of the week being closed when the late rides are found,
    names the original week (and its closed statement, if any) and splits the
    late gross with the original week's terms so that everything settled for
    that week adds up to one split of its whole gross
    (``taxilaw.split.split_late_rides``; ``settled_gross`` is what had been
    split for that week before this line).
    """

    statement = models.ForeignKey(WeeklyStatement, on_delete=models.PROTECT, related_name="adjustments",
                                  verbose_name=_("extrato em que é lançado"))
    original_week_start = models.DateField(_("semana original: início"))
    original_week_end = models.DateField(_("semana original: fim"))
    original_statement = models.ForeignKey(
        WeeklyStatement, null=True, blank=True, on_delete=models.PROTECT, related_name="carried_later",
        verbose_name=_("extrato fechado da semana original"),
    )
    holder = models.ForeignKey(Person, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                               verbose_name=_("permissionário da semana original"))
    role = models.CharField(_("papel"), max_length=16, choices=WeeklyStatement.Role.choices)
    agreement = models.CharField(_("forma de partilha"), max_length=10, choices=WeeklyStatement.Agreement.choices)
    auxiliary_percent = models.DecimalField(_("percentual do auxiliar"), max_digits=5, decimal_places=2)
    settled_gross = models.DecimalField(_("bruto da semana original já partilhado"), max_digits=12, decimal_places=2)
    rides = models.PositiveIntegerField(_("corridas"))
    gross = models.DecimalField(_("valor bruto"), max_digits=12, decimal_places=2)
    auxiliary_part = models.DecimalField(_("parte do auxiliar"), max_digits=12, decimal_places=2)
    holder_part = models.DecimalField(_("parte do permissionário"), max_digits=12, decimal_places=2)

    class Meta:
        verbose_name = _("ajuste de corridas registradas após o fechamento")
        verbose_name_plural = _("ajustes de corridas registradas após o fechamento")
        ordering = ["statement", "original_week_start"]
        constraints = [
            models.UniqueConstraint(fields=["statement", "original_week_start"], name="one_adjustment_per_original_week"),
        ]

    def __str__(self):
        return f"{self.statement} · {self.original_week_start:%d/%m/%Y}"

    @property
    def ride_list(self) -> list["StatementRide"]:
        """The late rides of this line (stored, or pending for a running week)."""
        if self.pk is None:
            return list(getattr(self, "pending_rides", []))
        return list(self.ride_entries.all())


class StatementRide(WrittenOnce, models.Model):
    """The one statement that counted a completed ride (Art. 1, §3): its own week's, or a later one as a late ride.

    ``fare`` and ``completed_at`` are the values counted, kept as they were.
    A ride with ``adjustment`` set was recorded after its week was closed.
    """

    class Method(models.TextChoices):
        CASH = METHOD_CASH, _("dinheiro")
        PIX = METHOD_PIX, _("Pix")
        CARD = METHOD_CARD, _("cartão")
        UNRECORDED = METHOD_UNRECORDED, _("não informado")

    class Collector(models.TextChoices):
        AUXILIARY = PARTY_AUXILIARY, _("auxiliar")
        HOLDER = PARTY_HOLDER, _("permissionário")

    class Origin(models.TextChoices):
        DISPATCHED = "dispatched", _("central")
        STREET = "street", _("rua")
        RANK = "rank", _("ponto")

    ride = models.OneToOneField("trips.Ride", on_delete=models.PROTECT, related_name="statement_entry",
                                verbose_name=_("corrida"))
    statement = models.ForeignKey(WeeklyStatement, on_delete=models.PROTECT, related_name="ride_entries",
                                  verbose_name=_("extrato"))
    adjustment = models.ForeignKey(StatementAdjustment, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="ride_entries", verbose_name=_("ajuste (corrida registrada após o fechamento)"))
    fare = models.DecimalField(_("tarifa contada"), max_digits=10, decimal_places=2)
    completed_at = models.DateTimeField(_("concluída em"))
    # As counted at closing, so the closed statement's lines and settlement never change (docs/payments.md).
    # Database defaults: a line written without them (statements 0002's ledger fill) reads "não informado".
    method = models.CharField(_("forma de pagamento"), max_length=10, choices=Method.choices,
                              default=METHOD_UNRECORDED, db_default=METHOD_UNRECORDED)
    collector = models.CharField(_("parte que recebeu"), max_length=10, choices=Collector.choices, blank=True,
                                 default="", db_default="")
    origin = models.CharField(_("origem"), max_length=10, choices=Origin.choices, blank=True, default="",
                              db_default="")
    server_total = models.DecimalField(_("total recalculado pelo servidor (Art. 43)"), max_digits=10,
                                       decimal_places=2, null=True, blank=True)
    meter_disagreement = models.BooleanField(_("taxímetro diverge do recálculo"), default=False, db_default=False)

    class Meta:
        verbose_name = _("corrida contada em extrato")
        verbose_name_plural = _("corridas contadas em extratos")
        ordering = ["completed_at", "ride"]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk}"

    @property
    def late(self) -> bool:
        return self.adjustment_id is not None or getattr(self, "pending", False)
