"""Law rules live in ``taxilaw/`` only: no refusal outside it cites an article (issue #29, item 4).

The walker parses every ``.py`` file of ``backend/``, ``dispatch/``, ``zones/`` and ``driver_app/`` (migrations
excluded) and counts a *refusal citing an article* when a string literal that cites one (``Art.``/``Arts.`` or
``§``) appears inside any of:

* a ``raise`` statement (its whole expression: ``raise ValidationError("... Art. 47 ...")``,
  ``raise serializers.ValidationError({"f": "... §3 ..."})``, ``raise LawViolation(...)``);
* a call to anything named ``ValidationError`` (a form's or a serializer's error, raised or collected in a list);
* a call to ``add_error`` (a form's field error);
* a call to ``refuse``/``_refuse`` (backend.api_errors' one-reason refusal) or ``Decision.refuse`` (with the
  ``Reason`` objects inside it): a refusal built outside the core, whose first argument is its article;
* the value a function annotated ``-> Reason`` or ``-> Decision`` returns (a helper that builds a refusal's
  ground for its callers, ``def _winner_reason(c) -> Reason: return Reason("Art. 19", ...)``).

Not counted, because they only *display* an article and refuse nothing: model and form labels, help texts,
verbose names, docstrings, comments, log lines, choices, messages shown after an act succeeded, and a ``Reason``
built for a notice (``notify(key, Reason(...))``): a notice informs, it refuses nothing. A refusal the
core decided and the backend only translates (``require(decision)``, ``LawViolation(decision)``,
``ValidationError(reason.render())``) carries no literal and is not counted either: its article lives in taxilaw.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("backend", "dispatch", "zones", "driver_app")
CITES = re.compile(r"\bArts?\.|§")
REFUSAL_CALLS = {"ValidationError", "add_error", "refuse", "_refuse"}


def _call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr  # Decision.refuse counts as "refuse"; forms.ValidationError as "ValidationError"
    return func.id if isinstance(func, ast.Name) else ""


def _citing_literals(node: ast.AST) -> list[ast.Constant]:
    return [
        sub for sub in ast.walk(node)
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and CITES.search(sub.value)
    ]


def _returns_a_ground(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    returns = func.returns
    name = returns.id if isinstance(returns, ast.Name) else returns.value if isinstance(returns, ast.Constant) else ""
    return name in ("Reason", "Decision")


def refusals_citing_articles(source: str) -> list[int]:
    """Lines of ``source`` where a refusal (raise, ValidationError, add_error, refuse) cites an article."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        scoped = isinstance(node, ast.Raise) or (isinstance(node, ast.Call) and _call_name(node) in REFUSAL_CALLS)
        if scoped:
            lines.update(literal.lineno for literal in _citing_literals(node))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _returns_a_ground(node):
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    lines.update(literal.lineno for literal in _citing_literals(ret.value))
    return sorted(lines)


def _offenders() -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            lines = refusals_citing_articles(path.read_text(encoding="utf-8"))
            if lines:
                found[str(path.relative_to(ROOT))] = lines
    return found


def test_the_walker_finds_each_kind_of_refusal():
    source = '''
raise ValidationError("O taxímetro não foi aferido (Art. 47, §3).")
errors.append(forms.ValidationError({"x": "Fora do prazo (§ único)."}))
self.add_error("plate", "Placa repetida (Art. 28).")
_refuse("Art. 63, §3", "late", gettext_noop("Fora do prazo."))
Decision.refuse(Reason("Art. 6", "transfer", "Não pode."))
def _winner_reason(c) -> Reason:
    return Reason("Art. 19", "contest_winner_refused", "Outorga recusada.")
'''
    assert refusals_citing_articles(source) == [2, 3, 4, 5, 6, 8]


def test_the_walker_ignores_what_only_displays_an_article():
    source = '''
"""Renewal of the alvará (Art. 4)."""
name = models.CharField(_("nome (Art. 28)"), help_text=_("ver Art. 5"))
logger.info("aplicado o Art. 47")
raise LawViolation(decision)
raise ValidationError(reason.render())
raise ValueError("judge_appeal needs granted or result")
notify(key, Reason("Art. 10", "inquiry_opened", "Aberta a sindicância (Art. 10)."), on)
'''
    assert refusals_citing_articles(source) == []


def test_no_refusal_outside_taxilaw_cites_an_article():
    offenders = _offenders()
    listing = "\n".join(f"{path}: lines {lines}" for path, lines in offenders.items())
    assert not offenders, f"article-citing refusals outside taxilaw/ (move each rule into taxilaw):\n{listing}"
