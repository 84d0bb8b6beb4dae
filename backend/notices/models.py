"""What a deadline's consequence tells DIMUTRAN and the person concerned."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from backend.registry.models import Permit, Person


class Notice(models.Model):
    """A notice: a deadline ran out and what followed (an inquiry opened, a status changed, a duty to fulfil).

    ``key`` names the fact (``absence:TX-001:2026-11``), so a consequence is told once however often the
    scheduler looks at it."""

    key = models.CharField(_("chave"), max_length=200, unique=True)
    article = models.CharField(_("artigo"), max_length=40)
    code = models.CharField(_("código"), max_length=60)
    message = models.TextField(_("mensagem"))
    permit = models.ForeignKey(Permit, null=True, blank=True, on_delete=models.CASCADE, related_name="notices",
                               verbose_name=_("permissão"))
    person = models.ForeignKey(Person, null=True, blank=True, on_delete=models.CASCADE, related_name="notices",
                               verbose_name=_("destinatário"))
    created_on = models.DateField(_("data"))
    created_at = models.DateTimeField(_("registrado em"), auto_now_add=True)

    class Meta:
        verbose_name = _("aviso")
        verbose_name_plural = _("avisos")
        ordering = ["-created_on", "-id"]

    def __str__(self):
        return f"{self.article}: {self.message[:60]}"
