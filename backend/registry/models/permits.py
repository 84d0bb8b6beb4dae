"""The registry's people and permits (Lei 1.242/1987, Caps. I, II, VII): permits, alvarás, renewals, CMTs, auxiliares,
transfers, revocation inquiries, suspensions.

Models hold state only; every write goes through ``services`` (one
transaction each, checked by the law core) and reads go through
``selectors``.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from taxilaw.revocation import RevocationGround
from taxilaw.settlement import PIX_TO_DRIVER, PIX_TO_HOLDER
from taxilaw.split import REGIME_DATUM, check_regime


class Person(models.Model):
    """A permit holder or an auxiliary driver: an autonomous professional (Art. 1, III-IV)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="person",
        verbose_name=_("usuário do sistema"),
    )
    full_name = models.CharField(_("nome completo"), max_length=160)
    cpf = models.CharField(_("CPF"), max_length=11, unique=True)
    cnh = models.CharField(_("CNH"), max_length=11, unique=True)
    cnh_expires_on = models.DateField(_("validade da CNH"), null=True, blank=True)
    phone = models.CharField(_("telefone"), max_length=20, blank=True)
    is_autonomous_professional = models.BooleanField(_("profissional autônomo"), default=True)
    social_security_registered = models.BooleanField(_("inscrito na Previdência Social (Art. 49)"), default=True)

    class Meta:
        verbose_name = _("pessoa")
        verbose_name_plural = _("pessoas")
        ordering = ["full_name"]

    def __str__(self):
        return self.full_name


class Permit(models.Model):
    """A permissão (Art. 1, II; Art. 2-14) and its life."""

    class Status(models.TextChoices):
        AWAITING_TERM = "awaiting_term", _("aguardando termo de compromisso")
        ACTIVE = "active", _("ativa")
        LOST = "lost", _("direito perdido (termo não assinado)")
        EXTINCT = "extinct", _("extinta (alvará não renovado)")
        REVOKED = "revoked", _("revogada")
        WITHDRAWN = "withdrawn", _("desistência")

    class Origin(models.TextChoices):
        CONTEST = "contest", _("concurso público")
        TRANSFER = "transfer", _("transferência")
        GRANDFATHERED = "grandfathered", _("anterior à lei")

    number = models.CharField(_("número"), max_length=20, unique=True)
    holder = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="permits", verbose_name=_("permissionário")
    )
    status = models.CharField(_("situação"), max_length=20, choices=Status.choices, default=Status.AWAITING_TERM)
    origin = models.CharField(_("origem"), max_length=20, choices=Origin.choices, default=Origin.CONTEST)
    result_published_on = models.DateField(_("publicação do resultado (Art. 3, §1)"))
    term_signed_on = models.DateField(_("assinatura do termo (Art. 3)"), null=True, blank=True)
    held_since = models.DateField(_("titular desde"), null=True, blank=True)
    service_started_on = models.DateField(_("início do serviço (Art. 13, III)"), null=True, blank=True, editable=False)
    contest_model_year = models.PositiveIntegerField(_("ano-modelo do concurso (Art. 34, II, a)"), null=True, blank=True)
    co_owned_grandfathered = models.BooleanField(_("co-propriedade anterior à lei (Art. 14)"), default=False)
    ended_on = models.DateField(_("encerrada em"), null=True, blank=True)
    vehicle_tolerance_until = models.DateField(
        _("tolerância para a troca do veículo até (Art. 34, § único)"), null=True, blank=True)
    judicial_loss_final_on = models.DateField(
        _("trânsito em julgado da perda do veículo (Art. 11, § único)"), null=True, blank=True)
    created_at = models.DateTimeField(_("registrada em"), auto_now_add=True)

    class Meta:
        verbose_name = _("permissão")
        verbose_name_plural = _("permissões")
        ordering = ["number"]
        constraints = [
            # Art. 2, § único: one permit per professional.
            models.UniqueConstraint(
                fields=["holder"],
                condition=Q(status__in=["awaiting_term", "active"]),
                name="one_live_permit_per_holder",
            ),
        ]

    def __str__(self):
        return self.number


class Alvara(models.Model):
    """The alvará: issued on the term's signature (Art. 3, §2), valid 1 year (Art. 4)."""

    class Kind(models.TextChoices):
        INITIAL = "initial", _("inicial")
        RENEWAL = "renewal", _("renovação")
        TRANSFER = "transfer", _("transferência")

    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="alvaras", verbose_name=_("permissão"))
    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices)
    issued_on = models.DateField(_("expedido em"))
    expires_on = models.DateField(_("válido até"))

    class Meta:
        verbose_name = _("alvará")
        verbose_name_plural = _("alvarás")
        ordering = ["permit", "-expires_on"]

    def __str__(self):
        return f"{self.permit} · {self.issued_on:%d/%m/%Y}–{self.expires_on:%d/%m/%Y}"


class Renewal(models.Model):
    """A request to renew the alvará (Art. 4, §1-3) with the Art. 5 checklist."""

    class Status(models.TextChoices):
        OPEN = "open", _("em análise")
        GRANTED = "granted", _("deferida")
        REFUSED = "refused", _("indeferida")

    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="renewals", verbose_name=_("permissão"))
    requested_on = models.DateField(_("requerida em"))
    timing = models.CharField(_("prazo"), max_length=10)
    late_fine_brl = models.DecimalField(_("multa por atraso (Art. 4, §2)"), max_digits=10, decimal_places=2, default=0)
    late_fine_paid_on = models.DateField(_("multa paga em"), null=True, blank=True)
    status = models.CharField(_("situação"), max_length=10, choices=Status.choices, default=Status.OPEN)
    alvara = models.OneToOneField(Alvara, null=True, blank=True, on_delete=models.SET_NULL, related_name="renewal", verbose_name=_("alvará"))

    class Meta:
        verbose_name = _("renovação de alvará")
        verbose_name_plural = _("renovações de alvará")
        ordering = ["-requested_on"]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk} ({self.permit})"


class RenewalDocument(models.Model):
    """One item of Art. 5, I-V and its state."""

    renewal = models.ForeignKey(Renewal, on_delete=models.CASCADE, related_name="documents", verbose_name=_("renovação"))
    code = models.CharField(_("documento"), max_length=40)
    presented = models.BooleanField(_("apresentado"), default=False)

    class Meta:
        verbose_name = _("documento de renovação (Art. 5)")
        verbose_name_plural = _("documentos de renovação (Art. 5)")
        constraints = [models.UniqueConstraint(fields=["renewal", "code"], name="one_state_per_document")]

    def __str__(self):
        return f"{self.code} ({self.renewal})"


class Cmt(models.Model):
    """The CMT (Carteira de Motorista de Táxi) the municipality issues (Art. 51)."""

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="cmts", verbose_name=_("motorista"))
    number = models.CharField(_("número"), max_length=20, unique=True)
    issued_on = models.DateField(_("emitida em"))
    expires_on = models.DateField(_("válida até"))

    class Meta:
        verbose_name = _("CMT")
        verbose_name_plural = _("CMTs")
        ordering = ["-expires_on"]

    def __str__(self):
        return self.number


class Auxiliary(models.Model):
    """An auxiliary driver's authorization on a permit (Art. 1, IV, §1-6; Art. 48-52)."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("ativa")
        CANCELLED = "cancelled", _("cancelada")

    class SplitRegime(models.TextChoices):
        """Art. 1, §3 and §6: partnership 25/75, written contract with another share, or employment (CTPS)."""

        LAW = "law", _("parceria da lei: 25% auxiliar / 75% permissionário (Art. 1, §3)")
        CONTRACT = "contract", _("contrato escrito com duas testemunhas (Art. 1, §6)")
        CTPS = "ctps", _("emprego com registro em CTPS: sem partilha (Art. 1, §6)")

    class PixReceiver(models.TextChoices):
        DRIVER = PIX_TO_DRIVER, _("a do motorista auxiliar")
        HOLDER = PIX_TO_HOLDER, _("sempre a do permissionário")

    #: The model field of each datum of ``taxilaw.split.check_regime``.
    REGIME_FIELDS = {
        "kind": "split_regime", "auxiliary_percent": "contract_auxiliary_percent", "signed_on": "contract_signed_on",
        "witness_1": "contract_witness_1", "witness_2": "contract_witness_2",
        "ctps_number": "ctps_number", "ctps_series": "ctps_series",
    }

    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="auxiliaries", verbose_name=_("permissão"))
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="auxiliary_roles", verbose_name=_("pessoa"))
    authorized_on = models.DateField(_("autorizado em"))
    status = models.CharField(_("situação"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    cancelled_on = models.DateField(_("cancelado em"), null=True, blank=True)
    cancel_reason = models.CharField(_("motivo do cancelamento"), max_length=255, blank=True)
    # Art. 1, §6: a written contract may replace the 25/75 split, or the CTPS an employment.
    split_regime = models.CharField(
        _("regime da partilha (Art. 1, §3 e §6)"), max_length=10, choices=SplitRegime.choices, default=SplitRegime.LAW
    )
    contract_auxiliary_percent = models.DecimalField(
        _("percentual do auxiliar em contrato (Art. 1, §6)"), max_digits=5, decimal_places=2, null=True, blank=True
    )
    contract_reference = models.CharField(_("contrato escrito (Art. 1, §6)"), max_length=255, blank=True)
    contract_signed_on = models.DateField(_("data do contrato escrito (Art. 1, §6)"), null=True, blank=True)
    contract_witness_1 = models.CharField(_("1ª testemunha do contrato (Art. 1, §6)"), max_length=160, blank=True)
    contract_witness_2 = models.CharField(_("2ª testemunha do contrato (Art. 1, §6)"), max_length=160, blank=True)
    ctps_number = models.CharField(_("número da CTPS (Art. 1, §6)"), max_length=20, blank=True)
    ctps_series = models.CharField(_("série da CTPS (Art. 1, §6)"), max_length=10, blank=True)
    # A term of the authorization like the §6 regime: whose Pix key receives the fares this auxiliary drives
    # (docs/payments.md); the settlement of the week follows who received each fare (Art. 1, §3).
    pix_receiver = models.CharField(
        _("chave Pix que recebe as corridas"), max_length=8, choices=PixReceiver.choices, default=PixReceiver.DRIVER
    )

    class Meta:
        verbose_name = _("motorista auxiliar")
        verbose_name_plural = _("motoristas auxiliares")
        ordering = ["permit", "authorized_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["person"], condition=Q(status="active"), name="auxiliary_on_one_permit"
            ),
        ]

    def __str__(self):
        return f"{self.person} ({self.permit})"

    @property
    def regime(self) -> str:
        """The regime in force (Art. 1, §3 and §6): ``split_regime``, except that a §6 percentage registered
        without it (``authorize_auxiliary`` records only the percentage and the contract's reference) is a
        written contract."""
        if self.split_regime == self.SplitRegime.LAW and self.contract_auxiliary_percent is not None:
            return self.SplitRegime.CONTRACT
        return self.split_regime

    def clean(self):
        """The regime's data, per regime, with a message on each wrong field (Art. 1, §6; ``check_regime``).

        An authorization whose regime data is not being changed is not judged again: a percentage registered
        with only its contract's reference (``authorize_auxiliary``) keeps the permit's other admin edits open."""
        super().clean()
        names = list(self.REGIME_FIELDS.values())
        stored = type(self).objects.filter(pk=self.pk).values(*names).first() if self.pk is not None else None
        if stored is not None and all(stored[name] == getattr(self, name) for name in names):
            return
        decision = check_regime(
            self.split_regime, auxiliary_percent=self.contract_auxiliary_percent, signed_on=self.contract_signed_on,
            witnesses=(self.contract_witness_1, self.contract_witness_2),
            ctps_number=self.ctps_number, ctps_series=self.ctps_series,
        )
        if not decision:
            errors: dict[str, list[str]] = {}
            for reason in decision.reasons:
                field = self.REGIME_FIELDS[REGIME_DATUM.get(reason.code, "kind")]
                errors.setdefault(field, []).append(reason.render(gettext))
            raise ValidationError(errors)


class SocialSecurityProof(models.Model):
    """The quarterly proof of social-security contribution (Art. 1, §5)."""

    auxiliary = models.ForeignKey(Auxiliary, on_delete=models.CASCADE, related_name="social_security_proofs", verbose_name=_("auxiliar"))
    quarter_end = models.DateField(_("fim do trimestre"))
    presented_on = models.DateField(_("apresentado em"))

    class Meta:
        verbose_name = _("comprovante previdenciário")
        verbose_name_plural = _("comprovantes previdenciários")
        ordering = ["-quarter_end"]
        constraints = [models.UniqueConstraint(fields=["auxiliary", "quarter_end"], name="one_proof_per_quarter")]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk}"


class Transfer(models.Model):
    """A transfer of a permit (Art. 6, 7, 65)."""

    class Status(models.TextChoices):
        AWAITING_FEE = "awaiting_fee", _("aguardando pagamento da taxa (Art. 6, §5)")
        COMPLETED = "completed", _("concluída")

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="transfers", verbose_name=_("permissão"))
    cedent = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="transfers_out", verbose_name=_("cedente"))
    transferee = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="transfers_in", verbose_name=_("cessionário"))
    kind = models.CharField(_("hipótese (Art. 6)"), max_length=20)
    beneficiary = models.CharField(_("beneficiário (Art. 6, II)"), max_length=20, blank=True)
    requested_on = models.DateField(_("requerida em"))
    death_date = models.DateField(_("data do falecimento"), null=True, blank=True)
    fee_brl = models.DecimalField(_("taxa de transferência (Art. 6, §3)"), max_digits=10, decimal_places=2)
    fee_paid_on = models.DateField(_("taxa paga em"), null=True, blank=True)
    status = models.CharField(_("situação"), max_length=15, choices=Status.choices)
    completed_on = models.DateField(_("concluída em"), null=True, blank=True)
    transferee_vehicle = models.JSONField(_("veículo do cessionário (Art. 6, I)"), default=dict, blank=True)

    class Meta:
        verbose_name = _("transferência")
        verbose_name_plural = _("transferências")
        ordering = ["-requested_on"]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk} ({self.permit})"


class RevocationInquiry(models.Model):
    """The administrative inquiry that precedes a revocation (Art. 9-10)."""

    class Outcome(models.TextChoices):
        PENDING = "pending", _("em andamento")
        REVOKED = "revoked", _("permissão revogada")
        DISMISSED = "dismissed", _("arquivado")

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="inquiries", verbose_name=_("permissão"))
    ground = models.CharField(_("fundamento (Art. 9)"), max_length=20, choices=[(g.value, g.label) for g in RevocationGround])
    facts = models.TextField(_("fatos"))
    opened_on = models.DateField(_("instaurado em"))
    summoned_on = models.DateField(_("intimação em"), null=True, blank=True,
                                   help_text=_("Data em que o permissionário foi intimado; o prazo de defesa corre dela (Art. 10, §1)."))
    summons_record = models.CharField(_("registro da intimação"), max_length=255, blank=True,
                                      help_text=_("Como foi intimado: ciência pessoal, AR, edital (Art. 10, §1)."))
    defence_filed_on = models.DateField(_("defesa apresentada em"), null=True, blank=True)
    defence = models.TextField(_("defesa"), blank=True)
    decided_on = models.DateField(_("decidido em"), null=True, blank=True)
    outcome = models.CharField(_("resultado"), max_length=10, choices=Outcome.choices, default=Outcome.PENDING)
    decision_text = models.TextField(_("fundamentação da decisão"), blank=True)

    class Meta:
        verbose_name = _("inquérito administrativo")
        verbose_name_plural = _("inquéritos administrativos")
        ordering = ["-opened_on"]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk} ({self.permit})"


class Suspension(models.Model):
    """A suspension of the permit (Art. 54, b): no service while it runs."""

    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="suspensions", verbose_name=_("permissão"))
    starts_on = models.DateField(_("início"))
    ends_on = models.DateField(_("fim"))
    reason = models.CharField(_("motivo"), max_length=255)

    class Meta:
        verbose_name = _("suspensão")
        verbose_name_plural = _("suspensões")
        ordering = ["-starts_on"]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk} ({self.permit})"
