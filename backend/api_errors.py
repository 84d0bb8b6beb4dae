"""One shape for every API error: HTTP 400 with messages a person can act on.

A refusal by the law core becomes ``{"detail": ..., "reasons": [{article,
code, message}]}``; a serializer error keeps DRF's per-field messages. A
database constraint that a race slipped past becomes a 400 too, never a 500.
"""

from django.db import DataError, IntegrityError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from taxilaw.decision import Decision, Reason
from taxilaw.parameters import ParameterMissing


class LawViolation(Exception):
    """A service refused because the law core did; carries the decision.

    Services raise it (the admin shows its message, the API answers 400).
    """

    def __init__(self, decision: Decision, field: str | None = None):
        self.decision = decision
        self.field = field
        self.reasons = [reason.as_dict(gettext) for reason in decision.reasons]
        self.detail = "; ".join(r["message"] for r in self.reasons)
        super().__init__(self.detail)

    def __reduce__(self):  # raised in an offering worker process (dispatch.rides.offer_workers), re-raised in the serving one
        return type(self), (self.decision, self.field)

    def payload(self) -> dict:
        body: dict = {"detail": self.detail, "reasons": self.reasons}
        if self.field:
            body[self.field] = [r["message"] for r in self.reasons]
        return body


def require(decision: Decision, field: str | None = None) -> Decision:
    """Raise :class:`LawViolation` unless the decision allows."""
    if not decision.allowed:
        raise LawViolation(decision, field)
    return decision


def exception_handler(exc, context):
    if isinstance(exc, LawViolation):
        return Response(exc.payload(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ParameterMissing):
        return Response(
            {"detail": str(_("Falta um parâmetro municipal em vigor na data pedida (%(error)s); a DIMUTRAN deve cadastrá-lo.") % {"error": exc})},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, IntegrityError):
        return Response(
            {"detail": str(_("A operação conflita com um registro existente; nada foi gravado."))},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, (DataError, OverflowError)):
        # The safety net behind serializers' max_length and backend.api.params: a value the column cannot hold.
        return Response(
            {"detail": str(_("Um valor está fora do intervalo ou é longo demais para o campo; nada foi gravado."))},
            status=status.HTTP_400_BAD_REQUEST,
        )
    return drf_exception_handler(exc, context)


def decision_payload(decision: Decision) -> dict:
    """A decision as the API shows it (allowed, articles relied on, translated reasons)."""
    return {
        "allowed": decision.allowed,
        "articles": list(decision.articles),
        "reasons": [reason.as_dict(gettext) for reason in decision.reasons],
    }


def refuse(article: str, code: str, template: str, field: str | None = None, **params) -> None:
    """Raise a one-reason refusal: for a rule the backend checks itself (state, ownership) rather than the law core."""
    raise LawViolation(Decision.refuse(Reason(article, code, template, params)), field)
