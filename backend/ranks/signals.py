"""Why a signal: the term of a contest permit is signed in the registry, the designation belongs to ranks.

Art. 3 makes the permit start with the signature of the term of commitment;
Art. 19 allocates the contest winners to the ranks of the edital and Art. 22, I
makes a private rank the one with cabs designated to it. So the winner's
designation at the rank it won starts the day the term is signed.

The term is signed by ``backend.registry.services.permits.sign_term``, which is
called from several places: the registry's API (``POST /api/permits/{id}/sign-term/``),
the ``seed_demo`` command, the test and e2e fixtures and the benchmarks. Every
one of them lives in, or only knows, the registry. ``backend.ranks`` depends
on ``backend.registry`` and never the reverse, so the registry cannot call
ranks; a ``post_save`` receiver on :class:`Permit`, connected explicitly in
:meth:`backend.ranks.apps.RanksConfig.ready`, is the one place that sees every
signature, inside ``sign_term``'s transaction (if the designation fails, the
signature is rolled back with it).
"""

from django.db.models.signals import post_save

from backend.registry.models import Permit

from .services import contests as contest_services

DISPATCH_UID = "ranks_designate_on_term"


def designate_on_term(sender, instance: Permit, created: bool, update_fields=None, **kwargs) -> None:
    """Art. 3, Art. 19, Art. 22, I: the contest winner's permit joins its private rank from the term's signature.

    Only a save that signs the term counts: a permit just created is still
    awaiting its term (Art. 3, §1), and a partial save that does not touch
    ``term_signed_on`` is some other change. The service is idempotent, so a
    full save (the admin) of an already designated permit changes nothing.
    """
    if created or instance.term_signed_on is None or instance.status != Permit.Status.ACTIVE:
        return
    if update_fields is not None and "term_signed_on" not in update_fields:
        return
    contest_services.designate_on_term(instance)


def connect() -> None:
    """Wire :func:`designate_on_term` to the registry's :class:`Permit` (called from ``RanksConfig.ready``)."""
    post_save.connect(designate_on_term, sender=Permit, dispatch_uid=DISPATCH_UID)
