"""How each fare was paid and who received it; the Pix key of each person who drives (docs/payments.md).

The fare is the meter's total (Art. 43); who received it decides the weekly settlement between the partners
(Art. 1, §3-§6, ``taxilaw.settlement.settle``). A payment is recorded once and never rewritten.
"""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backend.registry.models import Person
from taxilaw import pix
from taxilaw.settlement import METHOD_CARD, METHOD_CASH, METHOD_PIX, PARTY_AUXILIARY, PARTY_HOLDER


class PixKey(models.Model):
    """A person's Pix key, validated by kind (``taxilaw.pix.check_key``) and kept normalised."""

    class Kind(models.TextChoices):
        CPF = pix.KIND_CPF, _("CPF")
        CNPJ = pix.KIND_CNPJ, _("CNPJ")
        PHONE = pix.KIND_PHONE, _("celular")
        EMAIL = pix.KIND_EMAIL, _("e-mail")
        EVP = pix.KIND_EVP, _("chave aleatória")

    person = models.OneToOneField(Person, on_delete=models.CASCADE, related_name="pix_key", verbose_name=_("pessoa"))
    kind = models.CharField(_("tipo de chave"), max_length=8, choices=Kind.choices)
    key = models.CharField(_("chave Pix"), max_length=pix.KEY_MAX)
    updated_at = models.DateTimeField(_("atualizada em"), auto_now=True)

    class Meta:
        verbose_name = _("chave Pix")
        verbose_name_plural = _("chaves Pix")
        ordering = ["person__full_name"]

    def __str__(self):
        return f"{self.person} · {self.get_kind_display()}"

    def clean(self):
        check = pix.check_key(self.kind, self.key)
        if not check:
            raise ValidationError({"key": [r.render(gettext) for r in check.decision.reasons]})
        self.key = check.key


class PaymentRecorded(ValidationError):
    """A recorded payment is never rewritten."""


class RidePayment(models.Model):
    """How a completed ride's fare was paid and which partner received it (Art. 43; Art. 1, §3)."""

    class Method(models.TextChoices):
        CASH = METHOD_CASH, _("dinheiro")
        PIX = METHOD_PIX, _("Pix")
        CARD = METHOD_CARD, _("cartão")

    class Collector(models.TextChoices):
        AUXILIARY = PARTY_AUXILIARY, _("motorista auxiliar")
        HOLDER = PARTY_HOLDER, _("permissionário")

    ride = models.OneToOneField("trips.Ride", on_delete=models.PROTECT, related_name="payment",
                                verbose_name=_("corrida"))
    method = models.CharField(_("forma de pagamento"), max_length=8, choices=Method.choices)
    collector = models.CharField(_("parte que recebeu"), max_length=10, choices=Collector.choices)
    receiver = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="payments_received",
                                 verbose_name=_("quem recebeu"))
    pix_key = models.CharField(_("chave Pix que recebeu"), max_length=pix.KEY_MAX, blank=True)
    amount = models.DecimalField(_("valor (Art. 43)"), max_digits=10, decimal_places=2)
    recorded_at = models.DateTimeField(_("registrado em"))
    recorded_by = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+", verbose_name=_("registrado por"))

    class Meta:
        verbose_name = _("pagamento de corrida")
        verbose_name_plural = _("pagamentos de corridas")
        ordering = ["-recorded_at"]

    def __str__(self):
        return f"{self.ride_id} · {self.get_method_display()}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PaymentRecorded(gettext("O pagamento de uma corrida é registrado uma vez e não se altera."))
        super().save(*args, **kwargs)
