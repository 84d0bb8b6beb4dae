"""No test waits for an outcome with a fixed sleep: it polls for the outcome (``client.wait_for``, Playwright's
``expect``, a loop that sleeps between checks), so it neither flakes on a slow machine nor wastes time on a fast one.

A sleep is accepted where it is not a wait for an outcome: inside a polling loop (``while``/``for``), ``sleep(0)``
(yielding to the event loop), or a line marked ``# a duration, not a wait: <why>`` (a fault that must last, a rate
to keep, a clock that must move on)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
MARK = "# a duration, not a wait:"


def _is_sleep(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and (
        (isinstance(node.func, ast.Attribute) and node.func.attr == "sleep")
        or (isinstance(node.func, ast.Name) and node.func.id == "sleep")
    )


def _yields_only(call: ast.Call) -> bool:
    return bool(call.args) and isinstance(call.args[0], ast.Constant) and call.args[0].value == 0


def fixed_waits(source: str) -> list[int]:
    """Lines of ``source`` with a sleep outside any loop, not ``sleep(0)`` and not marked as a duration."""
    lines = source.splitlines()
    found: list[int] = []

    def visit(node: ast.AST, in_loop: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, False)  # a function's body runs wherever it is called: judged on its own
                continue
            if _is_sleep(child) and not in_loop and not _yields_only(child):  # type: ignore[arg-type]
                marked = any(MARK in lines[i] for i in range(max(0, child.lineno - 2), child.end_lineno or child.lineno))
                if not marked:
                    found.append(child.lineno)
            visit(child, in_loop or isinstance(child, (ast.While, ast.For, ast.AsyncFor)))

    visit(ast.parse(source), False)
    return found


def test_the_lint_finds_a_fixed_wait_and_accepts_polling():
    assert fixed_waits("import time\ntime.sleep(1)\n") == [2]
    assert fixed_waits("async def f():\n    await asyncio.sleep(0.5)\n") == [2]
    assert fixed_waits("while not done():\n    time.sleep(0.1)\n") == []
    assert fixed_waits("await asyncio.sleep(0)\n") == []
    assert fixed_waits("time.sleep(6)  # a duration, not a wait: the fault lasts longer than the lease\n") == []


def test_no_test_waits_with_a_fixed_sleep():
    offenders = [
        f"{path.relative_to(TESTS.parent)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        for line in fixed_waits(path.read_text())
    ]
    assert not offenders, "a fixed sleep waits for an outcome (poll for it instead, or mark a duration): " + ", ".join(offenders)
