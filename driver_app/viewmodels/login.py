"""Login: the token is kept on the device (``token.json`` in the app dir)."""

from __future__ import annotations

from typing import Any, Optional

from ..clients import AuthError, NetworkError, RegistryClient
from ..storage import JsonStore
from .base import Observable


class LoginViewModel(Observable):
    title = "Entrar"
    username_hint = "Usuário"
    password_hint = "Senha"
    button_text = "Entrar"

    def __init__(self, store: JsonStore, registry: RegistryClient):
        super().__init__()
        self.store = store
        self.registry = registry
        saved = store.load("token") or {}
        self.token: Optional[str] = saved.get("token")
        self.username: str = saved.get("username", "")
        self.error = ""
        self.busy = False

    @property
    def logged_in(self) -> bool:
        return bool(self.token)

    def login(self, username: str, password: str) -> bool:
        username = (username or "").strip()
        self.error = ""
        if not username or not password:
            self.error = "Informe usuário e senha."
            self.changed()
            return False
        self.busy = True
        try:
            token = self.registry.login(username, password)
        except AuthError:
            self.error = "Usuário ou senha inválidos."
            return False
        except NetworkError:
            self.error = "Sem conexão com o servidor. Tente novamente."
            return False
        finally:
            self.busy = False
            self.changed()
        self.token, self.username = token, username
        self.store.save("token", {"token": token, "username": username})
        self.changed()
        return True

    def fetch_me(self) -> Optional[dict[str, Any]]:
        """The cards payload (``/api/me/``), cached for offline use; None when logged out.

        An expired token logs out; no network falls back to the cached copy."""
        if not self.token:
            return None
        try:
            me = self.registry.me(self.token)
        except AuthError:
            self.logout()
            self.error = "Sessão expirada. Entre novamente."
            self.changed()
            return None
        except NetworkError:
            return self.store.load("me")
        self.store.save("me", me)
        return me

    def logout(self) -> None:
        self.token = None
        self.store.delete("token")
        self.store.delete("me")
        self.changed()
