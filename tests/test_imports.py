"""The shape of the code: imports point one way, with no circle inside a package, and modules stay small.

Every ``import`` statement counts, wherever it stands: at the top of a module, inside a function
(imported late to keep start-up fast), or under ``if TYPE_CHECKING`` (a circle a type checker
follows is still a circle a reader follows). An edge goes to the module imported; ``from pkg
import name`` goes to ``pkg.name`` when that is a module, else to ``pkg``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

KNOWN_NET_CIRCLES: list[frozenset[str]] = [
    # The dealer takes the Host (typing only) and the host makes the dealer: issue 14 gives the
    # dealer an Outbox instead (net/ is being restructured; remove this line when it lands).
    frozenset({"net.dealer", "net.host"}),
    # fair.py asks answers.py (imported late) to answer a fault, and answers.py builds on fair.py.
    frozenset({"net.answers", "net.fair"}),
]
"""Circles in ``net/`` known and left to its restructuring; a new one fails the test."""

MAX_LINES = 600
"""About where a module holds two ideas (see the guide): no module in ``uno_tui/`` grows past it."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: str) -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that the module ``name`` (at ``path``) imports, anywhere in it."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # ``import a.b.c`` where only ``a.b`` is ours
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def circles(package: str) -> list[frozenset[str]]:
    """Every set of modules in ``package`` that import each other round a circle (Tarjan's SCCs)."""
    known = modules(package)
    graph = {name: imports(name, path, known) for name, path in known.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_checker_finds_a_circle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "loop"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import C\n")
    (pkg / "c.py").write_text("def late():\n    from loop.a import x\n")
    (pkg / "d.py").write_text("from .a import b\n")  # into the circle, not part of it
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert circles("loop") == [frozenset({"loop.a", "loop.b", "loop.c"})]


def test_no_import_circle_in_uno_tui() -> None:
    found = circles("uno_tui")
    assert not found, "modules that import each other round a circle: " + "; ".join(
        " <-> ".join(sorted(c)) for c in found)


def test_no_new_import_circle_in_net() -> None:
    new = [c for c in circles("net") if c not in KNOWN_NET_CIRCLES]
    assert not new, "new circles in net/: " + "; ".join(" <-> ".join(sorted(c)) for c in new)


def test_the_tui_talks_to_the_engine_through_its_public_api() -> None:
    """Only ``uno_tui/faces/core_words.py`` reads a variant's own modules (until core exports what it reads)."""
    allowed = {"uno_tui.faces.core_words"}
    core_modules = modules("core")
    offenders = {name for name, path in modules("uno_tui").items()
                 if name not in allowed and any(m.startswith("core.variants") for m in
                                                imports(name, path, core_modules))}
    assert not offenders, f"these modules import core.variants directly: {sorted(offenders)}"


def test_no_module_in_uno_tui_is_past_about_600_lines() -> None:
    long = {name: n for name, path in modules("uno_tui").items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules to split: {long}"
