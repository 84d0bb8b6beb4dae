"""Zones, ranks (pontos) and contests (Lei 1.242/1987, Art. 9, V; 15-27; 41).

Models hold state only; every write goes through ``services`` (one
transaction each, checked by the law core first) and reads through
``selectors``.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from backend.registry.models import Permit, Person, Vehicle
from taxilaw.contests import CommissionBody


class CentralZone(models.Model):
    """A dated version of the central-zone polygon (Art. 24); the current one is the latest in force."""

    geojson = models.TextField(_("polígono (GeoJSON)"))
    effective_from = models.DateField(_("vigente a partir de"))
    source = models.CharField(_("ato normativo / fonte"), max_length=255)
    uploaded_at = models.DateTimeField(_("enviado em"), auto_now_add=True)

    class Meta:
        verbose_name = _("zona central (Art. 24)")
        verbose_name_plural = _("zonas centrais (Art. 24)")
        ordering = ["-effective_from", "-uploaded_at"]

    def __str__(self):
        return f"{_('Zona central')} {self.effective_from:%d/%m/%Y} ({self.source})"


class Rank(models.Model):
    """A ponto de estacionamento (Art. 22-27)."""

    class Category(models.TextChoices):
        PRIVATE = "privativo", _("privativo (Art. 22, I)")
        FREE = "livre", _("livre (Art. 22, II)")

    class Zone(models.TextChoices):
        CENTRAL = "central", _("zona central (Art. 24)")
        PERIPHERAL = "peripheral", _("zona periférica (Art. 25)")

    name = models.CharField(_("nome"), max_length=120)
    lon = models.FloatField(_("longitude"))
    lat = models.FloatField(_("latitude"))
    category = models.CharField(_("categoria (Art. 22)"), max_length=10, choices=Category.choices)
    zone = models.CharField(_("zona (Art. 24/25)"), max_length=10, choices=Zone.choices, editable=False)
    temporary = models.BooleanField(_("provisório (Art. 23, § único)"), default=False)
    opens_on = models.DateField(_("funciona de"), null=True, blank=True)
    closes_on = models.DateField(_("funciona até"), null=True, blank=True)
    active = models.BooleanField(_("em funcionamento"), default=True)
    cancelled_on = models.DateField(_("cancelado em (Art. 27, §2)"), null=True, blank=True)
    created_at = models.DateTimeField(_("criado em"), auto_now_add=True)

    class Meta:
        verbose_name = _("ponto de táxi")
        verbose_name_plural = _("pontos de táxi")
        ordering = ["name"]

    def __str__(self):
        return self.name


class RankAssignment(models.Model):
    """A permit designated to a private rank (Art. 22, I), from ``since`` until ``ended_on``."""

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="rank_assignments", verbose_name=_("permissão"))
    rank = models.ForeignKey(Rank, on_delete=models.PROTECT, related_name="assignments", verbose_name=_("ponto"))
    since = models.DateField(_("no ponto desde"))
    ended_on = models.DateField(_("saiu em"), null=True, blank=True)

    class Meta:
        verbose_name = _("titular de ponto (Art. 22, I)")
        verbose_name_plural = _("titulares de ponto (Art. 22, I)")
        ordering = ["rank", "since"]
        constraints = [
            models.UniqueConstraint(fields=["permit"], condition=Q(ended_on__isnull=True), name="one_rank_per_permit"),
        ]

    def __str__(self):
        return f"{self.permit} @ {self.rank}"


class RankCheckIn(models.Model):
    """A cab standing at a rank (Art. 9, V; Art. 27, §3)."""

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="rank_checkins", verbose_name=_("permissão"))
    vehicle = models.ForeignKey(Vehicle, null=True, blank=True, on_delete=models.PROTECT, related_name="rank_checkins", verbose_name=_("veículo"))
    rank = models.ForeignKey(Rank, on_delete=models.PROTECT, related_name="checkins", verbose_name=_("ponto"))
    visitor = models.BooleanField(_("visitante (Art. 27, §3)"), default=False)
    checked_in_at = models.DateTimeField(_("chegada"))
    checked_out_at = models.DateTimeField(_("saída"), null=True, blank=True)
    # Art. 9, V: where the cab was when it checked in (GPS); empty when a DIMUTRAN inspector recorded it on the spot.
    lat = models.FloatField(_("latitude na chegada"), null=True, blank=True)
    lon = models.FloatField(_("longitude na chegada"), null=True, blank=True)
    # Art. 9, V: a past day recorded by DIMUTRAN only as a justified correction, kept with who recorded it (audit).
    correction_reason = models.CharField(_("justificativa da correção"), max_length=255, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                    verbose_name=_("registrada por"))

    class Meta:
        verbose_name = _("presença no ponto")
        verbose_name_plural = _("presenças no ponto")
        ordering = ["-checked_in_at"]
        constraints = [
            models.UniqueConstraint(fields=["permit"], condition=Q(checked_out_at__isnull=True), name="one_open_checkin_per_permit"),
        ]

    def __str__(self):
        return f"{self.permit} · {self.rank}"


class RankObservation(models.Model):
    """An inspection of a rank by the competent body (Art. 27, §2)."""

    rank = models.ForeignKey(Rank, on_delete=models.CASCADE, related_name="observations", verbose_name=_("ponto"))
    start = models.DateTimeField(_("início"))
    end = models.DateTimeField(_("fim"))
    empty = models.BooleanField(_("ponto desprovido de veículos"))
    notes = models.TextField(_("observações"), blank=True)

    class Meta:
        verbose_name = _("observação de ponto (Art. 27, §2)")
        verbose_name_plural = _("observações de ponto (Art. 27, §2)")
        ordering = ["rank", "start"]

    def __str__(self):
        return f"{self.rank} · {self._meta.verbose_name} nº {self.pk}"


class SwapRequest(models.Model):
    """A swap of ranks between two holders (Art. 26)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("aguardando autorização")
        AUTHORIZED = "authorized", _("autorizada")
        REFUSED = "refused", _("indeferida")

    permit_a = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="swaps_as_a", verbose_name=_("permissão A"))
    permit_b = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="swaps_as_b", verbose_name=_("permissão B"))
    rank_a = models.ForeignKey(Rank, on_delete=models.PROTECT, related_name="+", verbose_name=_("ponto de A"))
    rank_b = models.ForeignKey(Rank, on_delete=models.PROTECT, related_name="+", verbose_name=_("ponto de B"))
    requested_on = models.DateField(_("requerida em"))
    status = models.CharField(_("situação"), max_length=12, choices=Status.choices, default=Status.PENDING)
    authorized = models.BooleanField(_("autorizada (Art. 26)"), default=False)
    decided_on = models.DateField(_("decidida em"), null=True, blank=True)
    decision_text = models.TextField(_("fundamentação"), blank=True)

    class Meta:
        verbose_name = _("permuta de pontos (Art. 26)")
        verbose_name_plural = _("permutas de pontos (Art. 26)")
        ordering = ["-requested_on", "-id"]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk}"


class Contest(models.Model):
    """A contest and its edital (Art. 15-21); a promotion contest for central ranks (Art. 27)."""

    class Status(models.TextChoices):
        PUBLISHED = "published", _("edital publicado")
        CLASSIFIED = "classified", _("classificação publicada")
        GRANTED = "granted", _("resultado publicado; outorgas e designações feitas")

    title = models.CharField(_("título do edital"), max_length=200)
    publication_dates = models.JSONField(_("datas de publicação (Art. 16)"), default=list)
    contest_date = models.DateField(_("data do concurso (Art. 17)"))
    promotion = models.BooleanField(_("concurso de promoção (Art. 27)"), default=False)
    status = models.CharField(_("situação"), max_length=12, choices=Status.choices, default=Status.PUBLISHED)
    published_at = models.DateTimeField(_("cadastrado em"), auto_now_add=True)
    result_published_on = models.DateField(_("resultado publicado em"), null=True, blank=True)

    class Meta:
        verbose_name = _("concurso / edital")
        verbose_name_plural = _("concursos / editais")
        ordering = ["-contest_date", "-id"]

    def __str__(self):
        return self.title


class ContestRank(models.Model):
    """A rank of the edital and the number of permits offered for it (Art. 16)."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="vacancies", verbose_name=_("concurso"))
    rank = models.ForeignKey(Rank, on_delete=models.PROTECT, related_name="contest_vacancies", verbose_name=_("ponto"))
    permits = models.PositiveIntegerField(_("número de permissões"))
    order = models.PositiveSmallIntegerField(_("ordem no edital"), default=0)

    class Meta:
        verbose_name = _("vaga do edital (Art. 16)")
        verbose_name_plural = _("vagas do edital (Art. 16)")
        ordering = ["contest", "order", "id"]
        constraints = [models.UniqueConstraint(fields=["contest", "rank"], name="rank_once_per_contest")]

    def __str__(self):
        return f"{self.contest} · {self.rank}"


class CommissionMember(models.Model):
    """A member of the contest commission (Art. 18)."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="commission", verbose_name=_("concurso"))
    name = models.CharField(_("nome"), max_length=160)
    body = models.CharField(_("órgão (Art. 18)"), max_length=30, choices=[(b.value, b.label) for b in CommissionBody])

    class Meta:
        verbose_name = _("membro da comissão (Art. 18)")
        verbose_name_plural = _("membros da comissão (Art. 18)")
        ordering = ["contest", "id"]

    def __str__(self):
        return self.name


class Candidate(models.Model):
    """A candidate's proposal (Art. 19-21), with the scores the law core computed."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="candidates", verbose_name=_("concurso"))
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="contest_entries", verbose_name=_("candidato"))
    model_year = models.PositiveIntegerField(_("ano-modelo do veículo proposto (Art. 20, I)"))
    profession_since = models.DateField(_("na profissão desde (Art. 20, II)"), null=True, blank=True)
    no_accident_certificate = models.BooleanField(_("certidão negativa de acidentes (Art. 20, III)"), default=False)
    dependants = models.PositiveSmallIntegerField(_("dependentes (Art. 21, I)"), default=0)
    driver_since = models.DateField(_("habilitado desde (Art. 21, II)"), null=True, blank=True)
    resident_since = models.DateField(_("residente em Muriaé desde (Art. 21, III)"), null=True, blank=True)
    preferred_ranks = models.JSONField(_("pontos preferidos (Art. 19)"), default=list, blank=True)
    registered_at = models.DateTimeField(_("inscrito em"), auto_now_add=True)
    # computed by taxilaw.contests
    model_year_points = models.PositiveSmallIntegerField(_("pontos do ano-modelo (Art. 20, I)"), default=0)
    experience_points = models.PositiveSmallIntegerField(_("pontos de experiência (Art. 20, II)"), default=0)
    qualification_points = models.PositiveSmallIntegerField(_("pontos de qualificação (Art. 20, III)"), default=0)
    total_points = models.PositiveSmallIntegerField(_("total"), default=0)
    position = models.PositiveIntegerField(_("classificação"), null=True, blank=True)
    decided_by = models.CharField(_("desempate"), max_length=40, blank=True)
    needs_draw = models.BooleanField(_("sorteio pela comissão"), default=False)
    allocated_rank = models.ForeignKey(Rank, null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("ponto obtido (Art. 19)"))
    permit = models.ForeignKey(Permit, null=True, blank=True, on_delete=models.PROTECT, related_name="contest_wins",
                               verbose_name=_("permissão outorgada / promovida (Art. 3, Art. 27)"))
    excluded = models.BooleanField(_("excluído"), default=False)
    exclusion_reasons = models.JSONField(_("motivos da exclusão"), default=list, blank=True)

    class Meta:
        verbose_name = _("candidato")
        verbose_name_plural = _("candidatos")
        ordering = ["contest", "position", "id"]
        constraints = [models.UniqueConstraint(fields=["contest", "person"], name="one_entry_per_person")]

    def __str__(self):
        return f"{self.person} ({self.contest})"


class ContestDraw(models.Model):
    """A public draw by the commission for candidates tied after Art. 21, I-III (Art. 18, § único)."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="draws", verbose_name=_("concurso"))
    drawn_order = models.JSONField(_("candidatos na ordem sorteada"))
    drawn_on = models.DateField(_("sorteado em"))
    minutes_reference = models.CharField(_("ata do sorteio"), max_length=255)
    recorded_at = models.DateTimeField(_("registrado em"), auto_now_add=True)

    class Meta:
        verbose_name = _("sorteio de desempate (Art. 21)")
        verbose_name_plural = _("sorteios de desempate (Art. 21)")
        ordering = ["contest", "drawn_on", "id"]

    def __str__(self):
        return f"{self._meta.verbose_name} nº {self.pk} ({self.contest})"


class AbsenceJustification(models.Model):
    """Absences from the rank justified for force majeure before DIMUTRAN (Art. 9, V)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("aguardando análise")
        ACCEPTED = "accepted", _("aceita")
        REFUSED = "refused", _("recusada")

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="absence_justifications", verbose_name=_("permissão"))
    start = models.DateField(_("de"))
    end = models.DateField(_("até"))
    reason = models.TextField(_("motivo de força maior"))
    status = models.CharField(_("situação"), max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_on = models.DateField(_("decidida em"), null=True, blank=True)
    decision_text = models.TextField(_("fundamentação"), blank=True)
    filed_at = models.DateTimeField(_("protocolada em"), auto_now_add=True)

    class Meta:
        verbose_name = _("justificativa de ausência (Art. 9, V)")
        verbose_name_plural = _("justificativas de ausência (Art. 9, V)")
        ordering = ["permit", "-start", "-id"]
        constraints = [models.CheckConstraint(condition=Q(end__gte=models.F("start")), name="justification_end_after_start")]

    def __str__(self):
        return f"{self.permit} {self.start:%d/%m/%Y}–{self.end:%d/%m/%Y}"

    def days(self):
        from datetime import timedelta

        return [self.start + timedelta(days=i) for i in range((self.end - self.start).days + 1)]
