"""Enforcement: infraction catalogue, autos de infração, defence, penalties, appeals, payments, complaints.

Lei 1.242/1987, Cap. VIII (Art. 54-64). Models hold state only; writes go
through ``services`` (which ask :mod:`taxilaw.penalties`), reads through
``selectors``.
"""

from datetime import date

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from backend.parameters.append_only import AppendOnlyModel
from backend.registry.models import Permit, Person, RevocationInquiry, Suspension
from backend.trips.models import Passenger, Ride
from taxilaw import due_process
from taxilaw import penalties as law

MONEY = dict(max_digits=10, decimal_places=2)
#: Date from which the seeded catalogue is in force (the law's publication).
CATALOGUE_SEED_DATE = date(1987, 12, 28)

PENALTY_KINDS = [
    (law.PenaltyKind.REPRIMAND.value, _("repreensão por escrito (Art. 54, a)")),
    (law.PenaltyKind.SUSPENSION.value, _("suspensão (Art. 54, b)")),
    (law.PenaltyKind.FINE.value, _("multa (Art. 54, c)")),
    (law.PenaltyKind.REVOCATION.value, _("revogação da permissão (Art. 54, d)")),
]
FINE_GROUPS = [("A", _("Grupo A (Art. 55, I)")), ("B", _("Grupo B (Art. 55, II)")), ("C", _("Grupo C (Art. 55, III)"))]


class InfractionType(AppendOnlyModel):
    """An infraction of the catalogue the regulation defines (Art. 64), dated and append-only: a change is a new
    version from its date on; the one it supersedes is only closed (``effective_until``), so a pending auto keeps
    the group and fine of its own version."""

    closable_fields = ("effective_until",)
    act_article = "Art. 64"

    code = models.SlugField(_("código"), max_length=40)
    description = models.CharField(_("descrição"), max_length=255)
    article = models.CharField(_("artigo"), max_length=40)
    group = models.CharField(_("grupo de multa (Art. 55)"), max_length=1, choices=FINE_GROUPS, blank=True)
    fine_ufm = models.DecimalField(_("multa fixada em UFM"), max_digits=8, decimal_places=2, null=True, blank=True)
    default_penalty = models.CharField(_("penalidade padrão"), max_length=12, choices=PENALTY_KINDS)
    revocation_if_recidivist = models.BooleanField(_("revogação se reincidente (Art. 26, §1)"), default=False)
    effective_from = models.DateField(_("vigente a partir de"))
    effective_until = models.DateField(_("vigente até"), null=True, blank=True)
    source = models.CharField(_("ato normativo / fonte"), max_length=255)

    class Meta:
        verbose_name = _("tipo de infração")
        verbose_name_plural = _("catálogo de infrações")
        ordering = ["code", "-effective_from"]
        constraints = [models.UniqueConstraint(fields=["code", "effective_from"], name="one_infraction_version_per_date")]

    def __str__(self):
        return f"{self.code} — {self.description} ({self.article})"

    def in_force_on(self, on: date) -> bool:
        return self.effective_from <= on and (self.effective_until is None or on <= self.effective_until)

    def to_law(self) -> law.InfractionSpec:
        return law.InfractionSpec(
            code=self.code,
            description=self.description,
            article=self.article,
            group=law.FineGroup(self.group) if self.group else None,
            default_penalty=law.PenaltyKind(self.default_penalty),
            fine_ufm=self.fine_ufm,
            revocation_if_recidivist=self.revocation_if_recidivist,
        )


class Complaint(models.Model):
    """A passenger's complaint about their own completed ride (Art. 60, § único), with the ride's data."""

    class Status(models.TextChoices):
        RECEIVED = "received", _("recebida")
        AUTO_ISSUED = "auto_issued", _("auto de infração lavrado")
        DISMISSED = "dismissed", _("arquivada")

    passenger = models.ForeignKey(Passenger, on_delete=models.PROTECT, related_name="complaints", verbose_name=_("passageiro"))
    ride = models.ForeignKey(Ride, on_delete=models.PROTECT, related_name="complaints", verbose_name=_("corrida"))
    description = models.TextField(_("relato"))
    ride_data = models.JSONField(_("dados da corrida"), default=dict)
    filed_at = models.DateTimeField(_("recebida em"), auto_now_add=True)
    status = models.CharField(_("situação"), max_length=12, choices=Status.choices, default=Status.RECEIVED)
    triaged_on = models.DateField(_("triada em"), null=True, blank=True)
    triage_reasoning = models.TextField(_("fundamentação da triagem"), blank=True)
    triaged_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("triada por"))

    class Meta:
        verbose_name = _("reclamação de passageiro")
        verbose_name_plural = _("reclamações de passageiros")
        ordering = ["-filed_at"]

    def __str__(self):
        return f"Reclamação {self.pk} — corrida {self.ride_id}"


class AutoDeInfracao(models.Model):
    """An auto de infração, numbered per year, that starts the procedure (Art. 60-63)."""

    class Origin(models.TextChoices):
        INSPECTION = "inspection", _("constatação da fiscalização")
        COMPLAINT = "complaint", _("reclamação de passageiro (Art. 60, § único)")

    class Status(models.TextChoices):
        OPEN = "open", _("aguardando defesa/julgamento")
        DECIDED = "decided", _("penalidade imposta")
        DISMISSED = "dismissed", _("insubsistente")

    year = models.PositiveIntegerField(_("ano"))
    sequence = models.PositiveIntegerField(_("sequência"))
    origin = models.CharField(_("origem"), max_length=12, choices=Origin.choices)
    complaint = models.OneToOneField(Complaint, null=True, blank=True, on_delete=models.PROTECT, related_name="auto", verbose_name=_("reclamação"))
    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="autos", verbose_name=_("permissão"))
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="autos", verbose_name=_("infrator"))
    infractions = models.ManyToManyField(InfractionType, related_name="autos", verbose_name=_("infrações (Art. 58)"))
    committed_on = models.DateField(_("data da infração"))
    issued_on = models.DateField(_("lavrado em"))
    place = models.CharField(_("local"), max_length=200, blank=True)
    observation = models.TextField(_("descrição dos fatos"))
    inspector = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("fiscal"))
    copy_delivered_on = models.DateField(_("cópia entregue ao infrator em (Art. 62)"), null=True, blank=True)
    recorded_on = models.DateField(_("registrado na ficha cadastral em (Art. 62, § único)"), null=True, blank=True)
    status = models.CharField(_("situação"), max_length=10, choices=Status.choices, default=Status.OPEN)

    class Meta:
        verbose_name = _("auto de infração")
        verbose_name_plural = _("autos de infração")
        ordering = ["-year", "-sequence"]
        constraints = [models.UniqueConstraint(fields=["year", "sequence"], name="auto_number_unique_per_year")]

    def __str__(self):
        return f"Auto {self.number}"

    @property
    def number(self) -> str:
        return f"{self.sequence:04d}/{self.year}"


class Defence(models.Model):
    """The infractor's written defence (Art. 63, §1)."""

    auto = models.OneToOneField(AutoDeInfracao, on_delete=models.CASCADE, related_name="defence", verbose_name=_("auto de infração"))
    text = models.TextField(_("defesa escrita"))
    filed_on = models.DateField(_("apresentada em"))

    class Meta:
        verbose_name = _("defesa")
        verbose_name_plural = _("defesas")

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk}"


class PenaltyDecision(models.Model):
    """The decision on an auto: penalties imposed cumulatively (Art. 58) or the auto found insubsistent."""

    class Status(models.TextChoices):
        IN_FORCE = "in_force", _("em vigor")
        ANNULLED = "annulled", _("anulada em recurso")
        NO_PENALTY = "no_penalty", _("auto insubsistente")

    auto = models.OneToOneField(AutoDeInfracao, on_delete=models.CASCADE, related_name="decision", verbose_name=_("auto de infração"))
    decided_on = models.DateField(_("decidido em"))
    reasoning = models.TextField(_("fundamentação"))
    involuntary = models.BooleanField(_("infração involuntária (Art. 56)"), default=False)
    serious_consequences = models.BooleanField(_("consequências graves ao interesse público (Art. 56)"), default=True)
    total_fine = models.DecimalField(_("total das multas (Art. 58)"), default=0, **MONEY)
    duty_persists = models.BooleanField(_("o infrator continua obrigado (Art. 57)"), default=True)
    notified_on = models.DateField(_("infrator notificado em (Art. 63, §2)"), null=True, blank=True)
    status = models.CharField(_("situação"), max_length=12, choices=Status.choices, default=Status.IN_FORCE)
    articles = models.JSONField(_("artigos"), default=list)

    class Meta:
        verbose_name = _("decisão")
        verbose_name_plural = _("decisões")
        ordering = ["-decided_on"]

    def __str__(self):
        return f"Decisão do auto {self.auto.number}"


class Penalty(models.Model):
    """One penalty for one infraction of the auto (Art. 54, a-d)."""

    decision = models.ForeignKey(PenaltyDecision, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("decisão"))
    infraction = models.ForeignKey(InfractionType, on_delete=models.PROTECT, related_name="+", verbose_name=_("infração"))
    kind = models.CharField(_("penalidade"), max_length=12, choices=PENALTY_KINDS)
    base_amount = models.DecimalField(_("valor do grupo (Art. 55)"), null=True, blank=True, **MONEY)
    amount = models.DecimalField(_("valor da multa"), null=True, blank=True, **MONEY)
    recidivism_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("reincidência de (Art. 59)")
    )
    starts_on = models.DateField(_("suspensão: início"), null=True, blank=True)
    ends_on = models.DateField(_("suspensão: fim"), null=True, blank=True)
    suspension = models.OneToOneField(Suspension, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalty", verbose_name=_("suspensão"))
    inquiry = models.ForeignKey(RevocationInquiry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("inquérito administrativo"))
    annulled_on = models.DateField(_("anulada em"), null=True, blank=True)

    class Meta:
        verbose_name = _("penalidade")
        verbose_name_plural = _("penalidades")
        ordering = ["-decision__decided_on", "id"]

    def __str__(self):
        return f"{self.get_kind_display()} — {self.infraction.code}"


class Appeal(models.Model):
    """An appeal against the decision: COMUTRAM first, then the Mayor (Art. 63, §3-§5)."""

    class Result(models.TextChoices):
        PENDING = "pending", _("aguardando julgamento")
        UPHELD = "upheld", _("improvido: penalidade mantida")
        GRANTED = "granted", _("provido: penalidade anulada")
        PARTIAL = "partial", _("provido em parte: penalidade reduzida")

    decision = models.ForeignKey(PenaltyDecision, on_delete=models.CASCADE, related_name="appeals", verbose_name=_("decisão"))
    instance = models.CharField(
        _("instância"), max_length=10, choices=[(i.value, i.label) for i in due_process.AppealInstance]
    )
    filed_on = models.DateField(_("interposto em"))
    grounds = models.TextField(_("razões do recurso"))
    deposit_receipt = models.CharField(_("comprovante do depósito (Art. 63, §5)"), max_length=120, blank=True)
    deposit_amount = models.DecimalField(_("valor depositado"), null=True, blank=True, **MONEY)
    judged_on = models.DateField(_("julgado em"), null=True, blank=True)
    result = models.CharField(_("resultado"), max_length=10, choices=Result.choices, default=Result.PENDING)
    judgment_text = models.TextField(_("fundamentação do julgamento"), blank=True)
    judgment_notified_on = models.DateField(_("infrator cientificado em (Art. 63, §4)"), null=True, blank=True)
    archived_inquiries = models.ManyToManyField(
        RevocationInquiry, blank=True, related_name="+", verbose_name=_("inquéritos arquivados por este julgamento")
    )

    class Meta:
        verbose_name = _("recurso")
        verbose_name_plural = _("recursos")
        ordering = ["filed_on"]
        constraints = [models.UniqueConstraint(fields=["decision", "instance"], name="one_appeal_per_instance")]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk}"


class PenaltyReduction(models.Model):
    """A penalty lightened by an appeal granted in part (provimento parcial, Art. 63, §3): the infraction stands.

    The penalty itself takes the new terms; this row keeps what it was, what
    it became, the reasons and what was refunded of the deposit (Art. 63, §5).
    """

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="reductions", verbose_name=_("recurso"))
    penalty = models.ForeignKey(Penalty, on_delete=models.PROTECT, related_name="reductions", verbose_name=_("penalidade"))
    previous_kind = models.CharField(_("penalidade anterior"), max_length=12, choices=PENALTY_KINDS)
    previous_amount = models.DecimalField(_("multa anterior"), null=True, blank=True, **MONEY)
    previous_starts_on = models.DateField(_("suspensão anterior: início"), null=True, blank=True)
    previous_ends_on = models.DateField(_("suspensão anterior: fim"), null=True, blank=True)
    kind = models.CharField(_("penalidade reduzida"), max_length=12, choices=PENALTY_KINDS)
    amount = models.DecimalField(_("multa reduzida"), null=True, blank=True, **MONEY)
    starts_on = models.DateField(_("suspensão reduzida: início"), null=True, blank=True)
    ends_on = models.DateField(_("suspensão reduzida: fim"), null=True, blank=True)
    involuntary = models.BooleanField(_("infração involuntária (Art. 56)"), default=False)
    serious_consequences = models.BooleanField(_("consequências graves ao interesse público (Art. 56)"), default=True)
    reasoning = models.TextField(_("fundamentação da redução"), blank=True)
    refunded_amount = models.DecimalField(_("devolvido do depósito (Art. 63, §5)"), default=0, **MONEY)
    articles = models.JSONField(_("artigos"), default=list)

    class Meta:
        verbose_name = _("redução de penalidade em recurso")
        verbose_name_plural = _("reduções de penalidades em recurso")
        ordering = ["appeal", "id"]
        constraints = [models.UniqueConstraint(fields=["appeal", "penalty"], name="one_reduction_per_penalty_per_appeal")]

    def __str__(self):
        return f"{self.get_previous_kind_display()} → {self.get_kind_display()}"


class FinePayment(models.Model):
    """A payment of a fine, or the prior deposit of an appeal (Art. 63, §5) until refunded."""

    class Kind(models.TextChoices):
        PAYMENT = "payment", _("pagamento")
        DEPOSIT = "deposit", _("depósito prévio de recurso (Art. 63, §5)")

    penalty = models.ForeignKey(Penalty, on_delete=models.PROTECT, related_name="payments", verbose_name=_("penalidade"))
    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices, default=Kind.PAYMENT)
    paid_on = models.DateField(_("pago em"))
    amount = models.DecimalField(_("valor"), **MONEY)
    receipt = models.CharField(_("comprovante"), max_length=120)
    refunded_on = models.DateField(_("devolvido em"), null=True, blank=True)

    class Meta:
        verbose_name = _("pagamento de multa")
        verbose_name_plural = _("pagamentos de multas")
        ordering = ["-paid_on"]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk}"
