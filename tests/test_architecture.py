"""The house rules of src/rlvr, checked by walking every module's syntax tree:

- one table of what each package may import (module-level and lazy imports alike): only
  ``train`` and ``commands`` wire things together; nothing below them imports ``train``;
- no import cycle between modules (lazy imports count: a cycle through a function-level
  import still ties two modules together);
- functions stay short and narrow: at most 80 lines and 8 parameters.

A violation fails with ``file:line`` so it can be found at once.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "rlvr"

BASE = {"types", "errors"}
ALLOWED: dict[str, set[str]] = {
    "types": set(),
    "errors": set(),
    "sandbox": {"errors"},
    "config": BASE | {"algo", "verifiers"},  # algo.presets: pure data; verifiers: torch-free name resolution
    "algo": {"types"},
    "verifiers": BASE | {"sandbox"},
    "envs": BASE | {"sandbox"},
    "tasks": BASE | {"verifiers"},
    "models": BASE | {"config", "tasks"},
    "rollout": BASE | {"config", "models", "envs", "sandbox", "tasks"},
    "diagnostics": BASE,
    "report": BASE | {"diagnostics"},
    "train": BASE | {"config", "algo", "verifiers", "sandbox", "envs", "tasks", "models", "rollout", "diagnostics",
                     "report"},
    "commands": BASE | {"config", "algo", "verifiers", "sandbox", "envs", "tasks", "models", "rollout", "diagnostics",
                        "report", "train"},
    "cli": BASE | {"commands", "__init__"},
    "api": BASE | {"config", "verifiers", "tasks", "models", "train", "commands"},  # the Python API wires like cli
    "__init__": set(),
}
MAX_LINES, MAX_PARAMS = 80, 9  # "about 8": policy_loss takes its 4 tensors and 5 optional ones


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = modules()


def imports(name: str, path: Path) -> list[tuple[int, str]]:
    """(line, imported rlvr module) for every import in the file, lazy ones included."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:  # `from pkg import submodule` imports the submodule
                full = f"{base}.{alias.name}"
                found.append((node.lineno, full if full in MODULES else base))
    return [(line, target) for line, target in found if target == "rlvr" or target.startswith("rlvr.")]


def owner(module: str) -> str:
    """The top-level room of a module: rlvr.train.loop -> train, rlvr.types -> types, rlvr -> __init__."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def resolve(target: str) -> str:
    while target not in MODULES and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


def boundary_violations() -> list[str]:
    bad = []
    for name, path in MODULES.items():
        room = owner(name)
        for line, target in imports(name, path):
            dest = owner(resolve(target))
            if dest != room and dest not in ALLOWED[room]:
                bad.append(f"{path.relative_to(SRC.parent)}:{line}: {room}/ may not import {target}")
    return bad


def import_cycles() -> list[list[str]]:
    graph = {name: {resolve(t) for _, t in imports(name, path)} - {name} for name, path in MODULES.items()}
    index, low, stack, on, cycles, counter = {}, {}, [], set(), [], [0]

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return cycles


def test_every_package_is_in_the_table():
    assert sorted({owner(m) for m in MODULES} - set(ALLOWED)) == []


def test_packages_import_only_what_the_table_allows():
    assert boundary_violations() == []


def test_no_room_below_train_imports_train():
    for room, allowed in ALLOWED.items():
        if room not in ("train", "commands", "cli", "api"):
            assert "train" not in allowed and "commands" not in allowed, room


def test_no_import_cycles():
    assert import_cycles() == []


def fake_files(monkeypatch, files: dict[str, str]) -> None:
    """Pretend modules named ``rlvr.<rel>`` hold the given source text."""
    texts = {}
    for rel, text in files.items():
        path = PKG / (rel.replace(".", "/") + ".py")
        monkeypatch.setitem(MODULES, f"rlvr.{rel}", path)
        texts[path] = text
    real = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: texts[self] if self in texts else real(self, *a, **k))


def test_the_boundary_checker_names_file_and_line(monkeypatch):
    fake_files(monkeypatch, {"algo.zz_fake": "import os\nfrom rlvr.train import loop\n"})
    assert "src/rlvr/algo/zz_fake.py:2: algo/ may not import rlvr.train.loop" in boundary_violations()


def test_cycle_finder_finds_a_lazy_cycle(monkeypatch):
    fake_files(monkeypatch, {"zz_a": "import rlvr.zz_b\n", "zz_b": "def f():\n    from rlvr import zz_a\n"})
    assert ["rlvr.zz_a", "rlvr.zz_b"] in import_cycles()


def functions():
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path, node


def _params(node) -> list[str]:
    a = node.args
    names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    return [n for n in names if n not in ("self", "cls")]


@pytest.mark.parametrize("rule", ["lines", "params"])
def test_functions_are_short_and_narrow(rule):
    bad = []
    for path, node in functions():
        where = f"{path.relative_to(SRC.parent)}:{node.lineno}: {node.name}"
        if rule == "lines" and node.end_lineno - node.lineno + 1 > MAX_LINES:
            bad.append(f"{where} has {node.end_lineno - node.lineno + 1} lines (at most {MAX_LINES})")
        if rule == "params" and len(_params(node)) > MAX_PARAMS:
            bad.append(f"{where} takes {len(_params(node))} parameters (at most {MAX_PARAMS})")
    assert bad == []


def test_the_slow_files_run_first_list_names_files_that_exist():
    """tests/conftest.py orders the longest files first for the two test workers; a renamed or
    deleted file there would silently stop counting."""
    from tests.conftest import SLOW_FILES_FIRST

    here = Path(__file__).resolve().parent
    missing = [name for name in SLOW_FILES_FIRST if not (here / name).is_file()]
    assert missing == []
