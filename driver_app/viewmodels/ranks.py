"""The rank screen: the ranks near the cab, each with its queue and the law's answer for this cab, and check
in / check out (Art. 9, V; Art. 22; Art. 27, §3).

The answer is the server's (``GET /api/driver/ranks/``, which asks ``taxilaw.ranks``): the app only shows it.
The list is read off the UI thread (``Background``); checking in and out goes on the dispatch socket, which
carries the cab's GPS fix, and the list is read again once the central answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from taxilaw.brazil import distance as distance_text
from taxiwire import inbound

from ..background import Background
from ..clients import ApiError, AuthError, DispatchClient, RanksClient, offline
from .base import Observable

Position = Callable[[], Optional[tuple[float, float]]]


@dataclass(frozen=True)
class RankRow:
    rank_id: int
    title: str  # "Praça João Pinheiro · 120 m"
    detail: str  # "privativo (Art. 22, I) · 12 titulares · 2 na fila"
    verdict: str  # "Pode parar aqui" / "Titular deste ponto" / the reasons, in pt-BR
    allowed: bool
    here: bool  # the cab is checked in at this rank


def rank_row(r: dict[str, Any], here_id: Optional[int]) -> RankRow:
    parts = [str(r.get("category_display") or r.get("category", ""))]
    if r.get("titular_count"):
        parts.append(f"{r['titular_count']} titulares")
    if r.get("visitor_limit") is not None and not r.get("titular"):
        parts.append(f"até {r['visitor_limit']} de outros pontos")
    parts.append("fila vazia" if not r.get("queue") else f"{r['queue']} na fila")
    if r["id"] == here_id:
        verdict = "Você está neste ponto"
    elif r.get("allowed"):
        verdict = "Titular deste ponto: pode parar" if r.get("titular") else "Pode parar aqui"
    else:
        verdict = "Não pode parar: " + " ".join(x.get("message", "") for x in r.get("reasons", []))
    return RankRow(int(r["id"]), f"{r['name']} · {distance_text(float(r.get('distance_m', 0)))}", " · ".join(parts),
                   verdict, bool(r.get("allowed")), r["id"] == here_id)


class RanksViewModel(Observable):
    title = "Pontos próximos"

    def __init__(self, ranks: RanksClient, dispatch: DispatchClient, position: Position,
                 token: Callable[[], Optional[str]] = lambda: None, background: Optional[Background] = None):
        super().__init__()
        self.ranks, self.dispatch, self.position, self.token = ranks, dispatch, position, token
        self.background = background or Background()
        self.rows: list[RankRow] = []
        self.checked_in: Optional[dict[str, Any]] = None  # {rank_id, rank, queue_position, visitor}
        self.loading = False
        self.pending = ""  # check_in | check_out: sent, not yet answered
        self.error = ""  # offline, refused: shown with "Tentar de novo"
        self.message = ""  # the central's answer to the last check-in / check-out

    # -- reading -------------------------------------------------------------------------------

    def load(self) -> None:
        where = self.position()
        if where is None:
            self.error = "Aguardando a posição do GPS (o GPS liga quando o táxi está Livre)."
            self.changed()
            return
        self.loading, self.error = True, ""
        self.changed()
        token = self.token() or ""
        self.background.run(lambda: self.ranks.near(token, *where), self._loaded, self._failed)

    def _loaded(self, answer: dict[str, Any]) -> None:
        self.loading = False
        self.checked_in = answer.get("checked_in")
        here = self.checked_in["rank_id"] if self.checked_in else None
        self.rows = [rank_row(r, here) for r in answer.get("ranks", [])]
        self.changed()

    def _failed(self, exc: Exception) -> None:
        self.loading = False
        self.error = ("Sem conexão com o servidor: lista de pontos indisponível." if offline(exc)
                      else "Sessão expirada: entre novamente." if isinstance(exc, AuthError)
                      else "O servidor não respondeu à lista de pontos." if isinstance(exc, ApiError)
                      else "Resposta ilegível do servidor.")
        self.changed()

    # -- the driver's actions --------------------------------------------------------------------

    def check_in(self, rank_id: int) -> bool:
        """Sent on the socket (the central checks the GPS fix and the visitor rule again); answered by
        ``rank_checked_in`` or an ``error``."""
        if self.pending:
            return False
        if not getattr(self.dispatch, "online", True):
            self.message = "Sem conexão com a central: tente de novo."
            self.changed()
            return False
        self.dispatch.send(inbound.RANK_CHECK_IN(rank_id=int(rank_id)))
        self.pending, self.message = "check_in", "Aguardando a central confirmar a chegada…"
        self.changed()
        return True

    def check_out(self) -> bool:
        if self.pending or self.checked_in is None:
            return False
        self.dispatch.send(inbound.RANK_CHECK_OUT())
        self.pending, self.message = "check_out", "Aguardando a central confirmar a saída…"
        self.changed()
        return True

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "rank_checked_in":
            self.pending = ""
            self.checked_in = {k: msg.get(k) for k in ("rank_id", "rank", "queue_position", "visitor")}
            self.message = f"Chegada registrada: {msg.get('rank')}, {msg.get('queue_position')}º na fila" + (
                " (visitante)" if msg.get("visitor") else "") + "."
        elif kind == "rank_checked_out":
            self.pending, self.checked_in = "", None
            self.message = "Saída do ponto registrada."
        elif kind == "error" and self.pending:  # a refusal answers the step that was waiting
            self.pending = ""
            self.message = "Recusado: " + str(msg.get("message") or msg.get("code"))
        elif kind == "connection" and not msg.get("online") and self.pending:
            self.pending, self.message = "", "Sem conexão com a central: tente de novo."
        else:
            return
        self.changed()
        if kind in ("rank_checked_in", "rank_checked_out"):
            self.load()  # the queues changed

    # -- display -------------------------------------------------------------------------------

    @property
    def status_text(self) -> str:
        return "Carregando os pontos…" if self.loading else self.error

    @property
    def here_text(self) -> str:
        if not self.checked_in:
            return "Fora de ponto"
        return (f"No ponto {self.checked_in['rank']}: {self.checked_in['queue_position']}º na fila"
                + (" (visitante)" if self.checked_in.get("visitor") else ""))

    @property
    def empty_text(self) -> str:
        return "Nenhum ponto em funcionamento por perto." if not (self.rows or self.loading or self.error) else ""
