"""The driver's own Pix key: register, change or remove it (kind + key) from the app.

The key is checked on the phone with ``taxilaw.pix.check_key`` -- the very function the server's
``backend.payments.services.register_pix_key`` uses -- so a mistyped key is refused at once, in the same pt-BR
words, without a round trip; the server checks it again and its refusal is shown as it comes. The calls run off
the UI thread (``Background``). After a change the Pix terms (``/api/me/pix-terms/``, what the payment screen's QR
code is built on) are asked again at once (``on_changed``): the new key is used from the next payment on, with
no new login.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from taxilaw import pix

from ..background import Background
from ..clients import RejectedError, offline
from .base import Observable

KIND_LABELS = {pix.KIND_PHONE: "Celular", pix.KIND_CPF: "CPF", pix.KIND_CNPJ: "CNPJ", pix.KIND_EMAIL: "E-mail",
               pix.KIND_EVP: "Chave aleatória"}
KIND_HINTS = {pix.KIND_PHONE: "+55 32 99999-1234", pix.KIND_CPF: "000.000.000-00", pix.KIND_CNPJ: "00.000.000/0000-00",
              pix.KIND_EMAIL: "nome@exemplo.com.br", pix.KIND_EVP: "123e4567-e89b-12d3-a456-426614174000"}
OFFLINE_TEXT = "Sem conexão com o servidor: a chave não foi alterada. Tente de novo."


class PixKeyViewModel(Observable):
    title = "Minha chave Pix"

    def __init__(self, payments, token: Callable[[], Optional[str]] = lambda: None,
                 background: Optional[Background] = None, on_changed: Callable[[], None] = lambda: None):
        super().__init__()
        self.payments = payments  # PaymentsClient: my_key / save_key / remove_key
        self.token = token
        self.background = background or Background()
        self.on_changed = on_changed
        self.current: Optional[dict[str, Any]] = None  # the key the server has: {kind, key}
        self.kind = pix.KIND_PHONE  # the kind chosen on the form
        self.error = ""  # why the typed key (or the server) refused
        self.message = ""  # what happened: saved, removed, offline
        self.busy = False
        self.loading = False

    # -- reading ----------------------------------------------------------------------------------

    def load(self) -> None:
        """The key the server has now, asked off the UI thread each time the screen opens."""
        self.loading, self.error, self.message = True, "", ""
        self.changed()
        token = self.token() or ""
        self.background.run(lambda: self.payments.my_key(token), self._loaded, self._load_failed)

    def _loaded(self, key: Optional[dict[str, Any]]) -> None:
        self.loading, self.current = False, key or None
        if self.current:
            self.kind = self.current.get("kind", self.kind)
        self.changed()

    def _load_failed(self, exc: Exception) -> None:
        self.loading = False
        self.message = ("Sem conexão com o servidor: chave atual indisponível." if offline(exc)
                        else "A central não respondeu: chave atual indisponível.")
        self.changed()

    # -- changing ---------------------------------------------------------------------------------

    def choose_kind(self, kind: str) -> None:
        if kind in KIND_LABELS:
            self.kind, self.error = kind, ""
            self.changed()

    def save(self, key: str) -> bool:
        """Check the key as the server does; valid, send it (normalised). False when refused here."""
        check = pix.check_key(self.kind, key)
        if not check:
            self.error, self.message = check.decision.reasons[0].message, ""
            self.changed()
            return False
        self._send(lambda token: self.payments.save_key(token, self.kind, check.key), "Chave Pix salva")
        return True

    def remove(self) -> None:
        if self.current is None:
            return
        self._send(lambda token: self.payments.remove_key(token), "Chave Pix removida")

    def _send(self, call: Callable[[str], Any], done: str) -> None:
        self.busy, self.error, self.message = True, "", "Enviando à central…"
        self.changed()
        token = self.token() or ""
        self.background.run(lambda: call(token), lambda answer: self._saved(answer, done), self._refused)

    def _saved(self, answer: Optional[dict[str, Any]], done: str) -> None:
        self.busy, self.current = False, answer or None
        self.message = (f"{done}: {self.key_text}. Vale já para a próxima corrida." if self.current
                        else f"{done}. Sem chave, o passageiro paga em dinheiro ou cartão.")
        self.changed()
        self.on_changed()  # the payment screen's terms, asked again now: no new login

    def _refused(self, exc: Exception) -> None:
        self.busy, self.message = False, ""
        if isinstance(exc, RejectedError):
            self.error = exc.message or exc.code
        else:
            self.message = OFFLINE_TEXT if offline(exc) else "A central não respondeu: a chave não foi alterada."
        self.changed()

    # -- display ----------------------------------------------------------------------------------

    @property
    def key_text(self) -> str:
        if not self.current:
            return ""
        return f"{KIND_LABELS.get(self.current.get('kind', ''), '')} {self.current.get('key', '')}".strip()

    @property
    def current_text(self) -> str:
        if self.loading:
            return "Carregando a chave Pix…"
        return f"Chave atual: {self.key_text}" if self.current else "Nenhuma chave Pix cadastrada."

    @property
    def hint(self) -> str:
        return f"Ex.: {KIND_HINTS[self.kind]}"

    @property
    def kinds(self) -> list[tuple[str, str, bool]]:
        """(kind, label, chosen) for the kind buttons."""
        return [(kind, label, kind == self.kind) for kind, label in KIND_LABELS.items()]
