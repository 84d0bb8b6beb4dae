"""The answer every rule of the law core returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable, Iterable, Mapping


def _display(value: Any) -> Any:
    """Dates read the Brazilian way (dd/mm/aaaa) in every message."""
    return value.strftime("%d/%m/%Y") if isinstance(value, date) else value


@dataclass(frozen=True)
class Reason:
    """Why a rule refused: the article, a stable code and a pt-BR message.

    ``template`` is the untranslated message with ``{placeholders}`` filled
    from ``params``; a caller with a translation catalogue passes its
    ``gettext`` to :meth:`render`.
    """

    article: str
    code: str
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, translate: Callable[[str], str] = str) -> str:
        return translate(self.template).format(**{k: _display(v) for k, v in self.params.items()})

    @property
    def message(self) -> str:
        return self.render()

    def as_dict(self, translate: Callable[[str], str] = str) -> dict[str, str]:
        return {"article": self.article, "code": self.code, "message": self.render(translate)}


@dataclass(frozen=True)
class Decision:
    """``allowed`` or not; the articles relied on; the reasons of a refusal."""

    allowed: bool
    articles: tuple[str, ...] = ()
    reasons: tuple[Reason, ...] = ()

    def __bool__(self) -> bool:
        return self.allowed

    @classmethod
    def allow(cls, *articles: str) -> "Decision":
        return cls(True, tuple(articles), ())

    @classmethod
    def refuse(cls, *reasons: Reason, articles: Iterable[str] = ()) -> "Decision":
        if not reasons:
            raise ValueError("a refusal needs at least one reason")
        cited = tuple(dict.fromkeys([*articles, *(r.article for r in reasons)]))
        return cls(False, cited, tuple(reasons))

    @classmethod
    def all_of(cls, *decisions: "Decision") -> "Decision":
        """Allowed only if every decision allows; keeps every reason and article."""
        articles = tuple(dict.fromkeys(a for d in decisions for a in d.articles))
        reasons = tuple(r for d in decisions for r in d.reasons)
        return cls(all(d.allowed for d in decisions), articles, reasons)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.reasons)


def refused(article: str, code: str, template: str, **params: Any) -> Decision:
    """A refusal on one ground: the article, a stable code and the pt-BR message (``{placeholders}`` from params)."""
    return Decision.refuse(Reason(article, code, template, params))
