"""The algo package imports torch, rlvr.types, a few stdlib modules and itself, nothing else."""

import ast
import subprocess
import sys
from pathlib import Path

ALGO = Path(__file__).resolve().parents[2] / "src" / "rlvr" / "algo"
ALLOWED_ROOTS = {"torch", "math", "typing", "dataclasses", "__future__", "importlib"}
ALLOWED_RLVR = {"rlvr.types"}


def _imports(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside rlvr.algo
                yield node.lineno, "rlvr.algo." + (node.module or "")
            else:
                yield node.lineno, node.module


def _allowed(name: str) -> bool:
    if name == "torch.distributed" or name.startswith("torch.distributed."):
        return False
    if name.startswith("rlvr."):
        return name in ALLOWED_RLVR or name == "rlvr.algo" or name.startswith("rlvr.algo.")
    return name.split(".")[0] in ALLOWED_ROOTS


def test_algo_files_exist():
    names = {p.name for p in ALGO.glob("*.py")}
    assert {"__init__.py", "advantages.py", "objectives.py", "aggregation.py", "kl.py", "entropy.py", "shaping.py",
            "sampling.py", "value.py", "offpolicy.py", "presets.py"} <= names


def test_algo_imports_only_torch_types_stdlib_and_itself():
    bad = [f"{p.name}:{line}: {name}" for p in sorted(ALGO.glob("*.py")) for line, name in _imports(p)
           if not _allowed(name)]
    assert bad == []


def test_boundary_checker_catches_violations():
    for name in ("torch.distributed", "logging", "rlvr.config", "numpy", "transformers"):
        assert not _allowed(name)
    for name in ("torch", "torch.nn.functional", "rlvr.types", "rlvr.algo.kl", "math"):
        assert _allowed(name)


def test_no_item_calls_in_algo():
    calls = []
    for p in sorted(ALGO.glob("*.py")):
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "item":
                calls.append(f"{p.name}:{node.lineno}")
    assert calls == []


def test_presets_and_config_do_not_import_torch():
    code = "import sys, rlvr.algo.presets, rlvr.config; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
