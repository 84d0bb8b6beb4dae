"""Login: the token is kept on the device (``token.json`` in the app dir).

Every registry call runs off the UI thread (``Background``): the login ("Entrando…", the button disabled),
``/api/me/`` (its answer, or offline the copy saved in ``me.json`` with when it was saved) and the server's
logout (best-effort: the token is forgotten here at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Optional

from ..background import Background
from ..clients import AuthError, RegistryClient, offline
from ..gps import utcnow
from ..storage import JsonStore
from .base import Observable

ME_FILE = "me"  # {"me": the last /api/me/ answer, "saved_at": ISO time}: the cards shown offline


@dataclass(frozen=True)
class MeAnswer:
    """What ``/api/me/`` gave: ``me`` fresh (``unreachable`` empty), or the saved copy (None without one) with
    why the server's was not had ("Sem conexão" / "A central não respondeu") and when the copy was saved."""

    me: Optional[dict[str, Any]]
    unreachable: str = ""
    saved_at: Optional[datetime] = None


class LoginViewModel(Observable):
    title = "Entrar"
    username_hint = "Usuário"
    password_hint = "Senha"  # noqa: S105 (the field's label, not a password)

    def __init__(self, store: JsonStore, registry: RegistryClient, background: Optional[Background] = None,
                 clock: Callable[[], datetime] = utcnow):
        super().__init__()
        self.store = store
        self.registry = registry
        self.background = background or Background()
        self.clock = clock
        saved = store.load("token") or {}
        self.token: Optional[str] = saved.get("token")
        self.username: str = saved.get("username", "")
        self.error = ""
        self.busy = False  # a login is in flight

    @property
    def logged_in(self) -> bool:
        return bool(self.token)

    @property
    def button_text(self) -> str:
        return "Entrando…" if self.busy else "Entrar"

    def login(self, username: str, password: str, then: Callable[[], None] = lambda: None) -> None:
        """Ask for a token off the UI thread; ``then()`` runs on the UI thread once logged in (at once with the
        demo's inline background). A refusal or no network leaves the message and the button for another try."""
        if self.busy:
            return
        username = (username or "").strip()
        self.error = ""
        if not username or not password:
            self.error = "Informe usuário e senha."
            self.changed()
            return
        self.busy = True
        self.changed()
        self.background.run(lambda: self.registry.login(username, password),
                            lambda token: self._logged_in(token, username, then), self._refused)

    def _logged_in(self, token: str, username: str, then: Callable[[], None]) -> None:
        self.busy = False
        self.token, self.username = token, username
        self.store.save("token", {"token": token, "username": username})
        self.changed()
        then()

    def _refused(self, exc: Exception) -> None:
        self.busy = False
        self.error = ("Usuário ou senha inválidos." if isinstance(exc, AuthError)
                      else "Sem conexão com o servidor. Tente novamente." if offline(exc)
                      else "O servidor não respondeu. Tente novamente.")
        self.changed()

    def fetch_me(self, done: Callable[[MeAnswer], None]) -> None:
        """The cards payload (``/api/me/``) off the UI thread, cached for offline use; ``done`` on the UI thread.

        An expired token logs out (``done(MeAnswer(None))`` with ``logged_in`` false); no network, or an error
        of the server, gives the saved copy."""
        token = self.token
        if not token:
            done(MeAnswer(None))
            return

        def answered(me: dict[str, Any]) -> None:
            if self.token != token:
                return  # logged out (or in again) meanwhile: not this session's cards
            self.store.save(ME_FILE, {"me": me, "saved_at": self.clock().isoformat()})
            done(MeAnswer(me))

        def failed(exc: Exception) -> None:
            if self.token != token:
                return
            if isinstance(exc, AuthError):
                self.session_ended()
                done(MeAnswer(None))
                return
            saved = self.store.load(ME_FILE) or {}
            at = saved.get("saved_at")
            done(MeAnswer(saved.get("me"), "Sem conexão" if offline(exc)
                          else "A central não respondeu", datetime.fromisoformat(at) if at else None))

        self.background.run(lambda: self.registry.me(token), answered, failed)

    def logout(self) -> None:
        """Forget the token here at once; revoke it on the server off the UI thread (best-effort: offline, it
        expires there by itself)."""
        token = self.token
        self._forget()
        if token:
            self.background.run(lambda: self.registry.logout(token), lambda _answer: None, lambda _exc: None)

    def session_ended(self) -> None:
        """The server no longer accepts the token (expired, or revoked by a logout or a login elsewhere): the token
        is forgotten here and the driver is asked to log in again."""
        self._forget()
        self.error = "Sessão expirada. Entre novamente."
        self.changed()

    def _forget(self) -> None:
        self.token = None
        self.store.delete("token")
        self.store.delete(ME_FILE)
        self.changed()
