"""The payments API as the app uses it: whose Pix key receives the fares, the driver's own Pix key, and how a
ride was paid (docs/payments.md).

* ``GET /api/me/pix-terms/`` -- the key that receives the fares driven now (cached for the offline QR code);
* ``GET`` / ``PUT`` / ``DELETE /api/me/pix-key/`` -- the logged-in person's own key (kind + key; the server
  validates with ``taxilaw.pix.check_key``, as the app does before sending);
* ``POST /api/rides/<id>/payment/`` -- how a completed ride was paid, recorded once.

A refusal (400/404 with the server's pt-BR reason) is a :class:`RejectedError`; no network a
:class:`NetworkError`. :class:`FakePayments` is the in-memory stand-in (demo, tests, screenshots).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from decimal import Decimal
from typing import Any, Optional, Protocol, runtime_checkable

from taxilaw import pix

from .clients import ApiError, AuthError, HttpRegistryClient, NetworkError, RejectedError


@runtime_checkable
class PaymentsClient(Protocol):
    def pix_terms(self, token: str) -> dict[str, Any]:
        """{key, receiver, city, receiver_is_holder}: whose Pix key receives the fares driven now."""

    def record(self, token: str, ride_id: int, method: str, card_machine: str = "driver") -> dict[str, Any]:
        """Record how a completed ride was paid (``POST /api/rides/<id>/payment/``); RejectedError when
        refused (already recorded, a method the ride cannot have, its week closed), NetworkError offline."""

    def my_key(self, token: str) -> Optional[dict[str, Any]]:
        """The person's own Pix key ``{kind, kind_display, key}``, None when there is none."""

    def save_key(self, token: str, kind: str, key: str) -> dict[str, Any]:
        """Register or replace the person's Pix key; RejectedError with the server's reason when invalid."""

    def remove_key(self, token: str) -> None:
        """Remove the person's Pix key."""


class HttpPaymentsClient:
    def __init__(self, registry: HttpRegistryClient):
        self.registry = registry

    def _send(self, method: str, path: str, token: str, body: Optional[dict] = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.registry.base_url + path, data=data, method=method)  # noqa: S310 (http(s) only: HttpRegistryClient)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        req.add_header("Authorization", f"Token {token}")
        try:
            with urllib.request.urlopen(req, timeout=self.registry.timeout) as resp:  # noqa: S310 (http(s) only: HttpRegistryClient)
                return json.loads(resp.read().decode("utf-8") or "null")
        except urllib.error.HTTPError as exc:
            if exc.code in (400, 404):  # refused for good: the reason's code and pt-BR message
                raise _refusal(exc) from exc
            raise AuthError(str(exc.code)) if exc.code in (401, 403) else ApiError(str(exc.code)) from exc
        except (urllib.error.URLError, OSError) as exc:
            raise NetworkError(str(exc)) from exc

    def pix_terms(self, token: str) -> dict[str, Any]:
        return self.registry._request("GET", "/api/me/pix-terms/", token=token)

    def record(self, token: str, ride_id: int, method: str, card_machine: str = "driver") -> dict[str, Any]:
        return self._send("POST", f"/api/rides/{int(ride_id)}/payment/", token,
                          {"method": method, "card_machine": card_machine})

    def my_key(self, token: str) -> Optional[dict[str, Any]]:
        try:
            return self._send("GET", "/api/me/pix-key/", token)
        except RejectedError as exc:
            if exc.code == "404":
                return None  # no key registered
            raise

    def save_key(self, token: str, kind: str, key: str) -> dict[str, Any]:
        return self._send("PUT", "/api/me/pix-key/", token, {"kind": kind, "key": key})

    def remove_key(self, token: str) -> None:
        self._send("DELETE", "/api/me/pix-key/", token)


def _refusal(exc: urllib.error.HTTPError) -> RejectedError:
    """The server's refusal: the first reason's code and the pt-BR ``detail`` (a field error's text otherwise)."""
    try:
        answer = json.loads(exc.read().decode("utf-8") or "{}")
    except ValueError:
        answer = {}
    if not isinstance(answer, dict):
        answer = {}
    reasons = answer.get("reasons") or [{}]
    message = answer.get("detail", "") or reasons[0].get("message", "")
    if not message:  # a serializer's field errors: {"key": ["..."]}
        texts = [t for v in answer.values() if isinstance(v, list) for t in v if isinstance(t, str)]
        message = texts[0] if texts else ""
    return RejectedError(reasons[0].get("code", str(exc.code)), message)


class FakePayments:
    """In memory. ``statements`` (a ``FakeStatements``), when given, gets each recorded method on its ride line,
    as the server's running statement would."""

    def __init__(self, terms: Optional[dict[str, Any]] = None, statements: Any = None,
                 key: Optional[dict[str, Any]] = None):
        self.terms = terms if terms is not None else {"key": "+5532999991234", "receiver": "José da Silva Pereira",
                                                      "city": "MURIAE", "receiver_is_holder": False}
        self.key = key if key is not None else (
            {"kind": pix.KIND_PHONE, "key": self.terms["key"]} if self.terms.get("key") else None)
        self.recorded: dict[int, dict[str, Any]] = {}
        self.online = True
        self.statements = statements
        self.closed_rides: set[int] = set()  # rides of a closed week: the server refuses their payment

    def _up(self) -> None:
        if not self.online:
            raise NetworkError("offline")

    def pix_terms(self, token: str) -> dict[str, Any]:
        self._up()
        return dict(self.terms)

    def record(self, token: str, ride_id: int, method: str, card_machine: str = "driver") -> dict[str, Any]:
        self._up()
        if ride_id in self.recorded:
            raise RejectedError("payment_already_recorded", "O pagamento desta corrida já foi registrado.")
        if ride_id in self.closed_rides:
            raise RejectedError("payment_week_closed", "Esta corrida já foi contada num extrato fechado; o pagamento "
                                                       "não pode mais ser registrado.")
        self.recorded[ride_id] = {"method": method, "card_machine": card_machine}
        if self.statements is not None:
            self._on_statement(ride_id, method, card_machine)
        return {"method": method}

    def _on_statement(self, ride_id: int, method: str, card_machine: str) -> None:
        """The ride's line and the running settlement's "who received what", as the server's statement shows them."""
        lines = [line for week in self.statements.weeks for line in week.get("rides", []) if line.get("ride") == ride_id]
        for line in lines:
            line["method"] = method
        settlement = self.statements.settlement
        if not lines or settlement is None:
            return
        party = "holder" if method == "card" and card_machine == "holder" else "auxiliary"
        collected = settlement.setdefault("collected", [])
        entry = next((c for c in collected if (c.get("party"), c.get("method")) == (party, method)), None)
        if entry is None:
            entry = {"party": party, "method": method, "amount": "0.00"}
            collected.append(entry)
        entry["amount"] = str(Decimal(str(entry["amount"])) + Decimal(str(lines[0]["fare"])))

    def my_key(self, token: str) -> Optional[dict[str, Any]]:
        self._up()
        return dict(self.key) if self.key else None

    def save_key(self, token: str, kind: str, key: str) -> dict[str, Any]:
        self._up()
        check = pix.check_key(kind, key)  # the server's own check
        if not check:
            reason = check.decision.reasons[0]
            raise RejectedError(reason.code, reason.message)
        self.key = {"kind": kind, "key": check.key}
        self.terms = {**self.terms, "key": check.key}
        return dict(self.key)

    def remove_key(self, token: str) -> None:
        self._up()
        self.key = None
        self.terms = {**self.terms, "key": None}
