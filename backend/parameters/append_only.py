"""Append-only records for dated acts: a saved act is never rewritten or deleted, by any door (admin, API, code).

Only the fields a model names in ``closable_fields`` may be filled once, from empty (the "vigente até" of an
infraction type that a newer version supersedes). ``bulk_create`` (the seeds of the statute's own values) is the
one path that does not go through ``save``.
"""

from django.db import models

from backend.api_errors import require
from taxilaw.acts import may_rewrite_act


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        require(may_rewrite_act(str(self.model._meta.verbose_name), self.model.act_article))

    def delete(self):
        require(may_rewrite_act(str(self.model._meta.verbose_name), self.model.act_article))


class AppendOnlyModel(models.Model):
    """A dated act: ``save`` records a new one; an existing one changes only in ``closable_fields``, once."""

    closable_fields: tuple[str, ...] = ()
    act_article = "Art. 67"

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self._state.adding or self.pk is None:
            self.check_new_act()
        else:
            self._check_only_closing()
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        require(may_rewrite_act(self.act_name(), self.act_article))

    def act_name(self) -> str:
        return str(self._meta.verbose_name)

    def check_new_act(self) -> None:
        """Refuse (raise) a new act the law does not allow; the subclass says which."""

    def _check_only_closing(self) -> None:
        stored = type(self).objects.filter(pk=self.pk).values().first()
        if stored is None:
            return
        changed = {f.attname for f in self._meta.concrete_fields if stored[f.attname] != getattr(self, f.attname)}
        closing = all(f in self.closable_fields and stored[f] is None for f in changed)
        if changed and not closing:
            require(may_rewrite_act(self.act_name(), self.act_article))
