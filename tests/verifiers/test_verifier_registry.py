"""Registry: names, lazy code/proof, spec forms, and the no-torch rule."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rlvr.errors import UserError
from rlvr.types import Sample
from rlvr.verifiers import VERIFIERS, as_verifier, get_verifier
from rlvr.verifiers.composite import Router
from rlvr.verifiers.registry import FunctionVerifier, LazyVerifier, Named

VERIFIERS_DIR = Path(__file__).resolve().parents[2] / "src" / "rlvr" / "verifiers"


def test_names_and_unknown_name_lists_valid_ones():
    assert sorted(VERIFIERS) == ["code", "exact", "format", "gym", "math", "proof"]
    assert get_verifier("math").function == "verify_math"
    with pytest.raises(UserError, match="valid: code, exact, format, gym, math, proof"):
        get_verifier("maths")


def test_code_and_proof_are_lazy_module_strings():
    assert (VERIFIERS["code"].module, VERIFIERS["code"].function) == ("rlvr.verifiers.code", "verify_code")
    assert (VERIFIERS["proof"].module, VERIFIERS["proof"].function) == ("rlvr.verifiers.proof", "verify_proof")
    assert VERIFIERS["code"].requires == (("tests", "io_tests", "hidden_tests", "call_tests"),)
    assert VERIFIERS["proof"].requires == (("statement",),)


def test_registered_verifier_is_callable_with_options():
    sample = Sample(id="t", prompt="", answer="42")
    assert VERIFIERS["exact"]("so \\boxed{42}", sample).status == "ok"
    assert VERIFIERS["exact"]("so \\boxed{42}", sample, fallbacks=()).status == "no_answer"
    named = as_verifier({"name": "exact", "options": {"fallbacks": []}})
    assert named == Named("exact", (("fallbacks", []),)) and named("so \\boxed{42}", sample).status == "no_answer"


def test_spec_forms():
    assert as_verifier("math") == Named("math")
    assert as_verifier(VERIFIERS["format"]) == Named("format")
    assert isinstance(as_verifier(len), FunctionVerifier)
    for bad in ('{"nope": 1}', "{not json", 42, {"name": "exact", "extra": 1}):
        with pytest.raises(UserError):
            as_verifier(bad)


def test_cache_key_depends_on_what_the_verifier_reads():
    a = Sample(id="1", prompt="p1", answer="3", fields={"tests": ["x"]})
    b = Sample(id="2", prompt="p2", answer="3", fields={"tests": ["y"]})
    c = Sample(id="3", prompt="p3", answer="4")
    math = as_verifier("math")
    assert math.key("z", a) == math.key("z", b)  # math reads only the answer
    assert math.key("z", a) != math.key("z", c)
    assert math.key("z", a) != math.key("y", a)
    assert as_verifier("format").key("z", a) == as_verifier("format").key("z", c)
    assert as_verifier("math").key("z", a) != as_verifier("exact").key("z", a)


def test_router_uses_the_row_verifier_or_the_default():
    router = Router(default="exact")
    assert router("<answer>0.5</answer>", Sample(id="t", prompt="", answer="1/2")).status == "ok"
    assert router("\\boxed{\\sqrt{4}}", Sample(id="t", prompt="", answer="2", verifier="math")).status == "ok"
    with pytest.raises(UserError, match="no verifier"):
        Router()("x", Sample(id="t", prompt=""))


def test_lazy_entry_imports_only_when_called():
    ghost = LazyVerifier("ghost", "rlvr.verifiers.no_such_module", "verify_ghost", None)
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        ghost("x", Sample(id="t", prompt=""))


def test_importing_every_verifier_module_leaves_torch_out():
    modules = sorted(f"rlvr.verifiers.{p.stem}" for p in VERIFIERS_DIR.glob("*.py") if p.stem != "__init__")
    modules += ["rlvr.verifiers", "rlvr.commands.verify", "rlvr.cli"]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "from rlvr.verifiers import mathv; mathv.warm_up()\n"
        "print('torch' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stderr
