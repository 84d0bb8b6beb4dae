"""The acts on a request to renew the alvará (Art. 4, §1, Art. 5): one request at a time, decided once, naming
only the documents of Art. 5, I-V. The terms and the fine of a renewal are in :mod:`taxilaw.permits`.
Nothing here imports Django.
"""

from __future__ import annotations

from typing import Collection

from .decision import Decision, refused
from .i18n import gettext_noop
from .permits import RENEWAL_DOCUMENTS


def no_renewal_open(open_request: bool) -> Decision:
    """One renewal request at a time (Art. 4, §1)."""
    if open_request:
        return refused("Art. 4, §1", "renewal_open", gettext_noop("Já existe um pedido de renovação em análise para esta permissão."))
    return Decision.allow("Art. 4, §1")


def renewal_still_open(is_open: bool) -> Decision:
    """A decided renewal request takes no more documents (Art. 5)."""
    if not is_open:
        return refused("Art. 5", "renewal_closed", gettext_noop("Este pedido de renovação já foi decidido."))
    return Decision.allow("Art. 5")


def known_documents(codes: Collection[str]) -> Decision:
    """A renewal names only the documents of Art. 5, I-V."""
    unknown = set(codes) - {d.code for d in RENEWAL_DOCUMENTS}
    if unknown:
        return refused("Art. 5", "unknown_document", gettext_noop("Documento desconhecido: {codes}."), codes=", ".join(sorted(unknown)))
    return Decision.allow("Art. 5")
