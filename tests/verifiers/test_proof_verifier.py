"""Proof verifier: statement parsing, the check file, honest proofs, and an adversarial table."""

from __future__ import annotations

import time

import pytest

from rlvr import sandbox
from rlvr.types import Sample
from rlvr.verifiers import proof as pv

REASON = pv.coq_available()
needs_coq = pytest.mark.skipif(REASON is not None, reason=f"coq sandbox unavailable: {REASON}")


def coq(src: str) -> str:
    return f"Proof below.\n```coq\n{src}\n```\n"


# ----------------------------------------------------------------------------- pure pieces

STATEMENT_ROWS = [
    ("Theorem add_0_r : forall n : nat, n + 0 = n.", ("add_0_r", "forall n : nat, n + 0 = n")),
    ("  Lemma l' : True.  ", ("l'", "True")),
    ("Theorem t (n m : nat) {A : Type} : n + m = m + n.", ("t", "forall (n m : nat) {A : Type}, n + m = m + n")),
    ("Theorem t : forall x, (x : nat) = x.", ("t", "forall x, (x : nat) = x")),
    ("Theorem t : let f := fun x : nat => x in f 1 = 1.", ("t", "let f := fun x : nat => x in f 1 = 1")),
    ("Theorem t : Nat.add 1 1 = 2.", ("t", "Nat.add 1 1 = 2")),
]


@pytest.mark.parametrize("statement, expected", STATEMENT_ROWS)
def test_parse_statement(statement, expected):
    assert pv.parse_statement(statement) == expected


@pytest.mark.parametrize("bad", ["Definition x := 1.", "Theorem t True.", "Theorem t : .", "Theorem : True."])
def test_parse_statement_rejects(bad):
    with pytest.raises(ValueError):
        pv.parse_statement(bad)


def test_check_file_layout():
    text, lines = pv.check_file("Require Import Arith.", "forall n : nat, n = n", "refl", "ab12")
    assert text.splitlines() == [
        "Require Import Arith.",
        "Definition rlvr_statement := (forall n : nat, n = n).",
        "Require RlvrSub.Submission.",
        "Set Guard Checking.", "Set Positivity Checking.", "Set Universe Checking.",
        "Theorem rlvr_check_ab12 : rlvr_statement.",
        "Proof. exact @RlvrSub.Submission.refl. Qed.",
        "Print Assumptions rlvr_check_ab12.",
    ]  # fmt: skip
    assert list(lines) == [2]


def test_extract_coq_takes_the_last_coq_block():
    text = "```coq\nfirst\n```\n```python\nx\n```\n```Coq\nsecond\n```"
    assert pv.extract_coq(text) == "second\n"
    assert pv.extract_coq("```\nuntagged\n```") is None


def test_no_block_and_bad_statement_and_refusal(monkeypatch):
    sample = Sample("s", "p", fields={"statement": "Theorem t : True."})
    assert pv.verify_proof("no proof here", sample).status == "no_answer"
    bad = pv.verify_proof(coq("Theorem t : True. Proof. exact I. Qed."),
                          Sample("s", "p", fields={"statement": "t : True"}))
    assert bad.status == "error" and "bad sample" in bad.detail
    monkeypatch.setattr(sandbox, "probe", lambda: "bwrap not found on PATH (test)")
    refused = pv.verify_proof(coq("Theorem t : True. Proof. exact I. Qed."), sample)
    assert (refused.reward, refused.status) == (0.0, "error") and "sandbox unavailable" in refused.detail
    with pytest.raises(TypeError, match="timeout_s"):
        pv.verify_proof("", sample, timeout=3)


# ----------------------------------------------------------------------------- honest proofs

ADD0 = Sample("add0", "p", fields={"statement": "Theorem add_0_r : forall n : nat, n + 0 = n."})
FALSE = Sample("false", "p", fields={"statement": "Theorem oops : False."})
FAKE = Sample("fake", "p", fields={"statement": "Theorem fake : 2 + 2 = 5."})
DN = Sample("dn", "p", fields={"statement": "Theorem dn : forall P : Prop, ~ ~ P -> P."})
THREE = Sample("three", "p",
               fields={"statement": "Theorem three : forall x y z : nat, x = y \\/ y = z \\/ x = z."})
GOOD_ADD0 = ("Theorem add_0_r : forall n : nat, n + 0 = n.\n"
             "Proof. induction n as [|n IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.")

PASS_ROWS = [
    ("induction", GOOD_ADD0, ADD0),
    ("preamble and lia",
     "Theorem comm : forall a b : nat, a + b = b + a.\nProof. intros; lia. Qed.",
     Sample("s", "p", fields={"statement": "Theorem comm : forall a b : nat, a + b = b + a.",
                              "preamble": "Require Import Lia."})),
    ("binders in the statement, Lemma and a helper",
     "Lemma helper : forall n, n * 1 = n. "
     "Proof. induction n as [|n IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.\n"
     "Lemma mul1 (n : nat) : n * 1 = n.\nProof. apply helper. Qed.",
     Sample("s", "p", fields={"statement": "Lemma mul1 (n : nat) : n * 1 = n."})),
    ("a Definition with the right type counts",
     "Definition add_0_r : forall n : nat, n + 0 = n := fun n => eq_sym (plus_n_O n).", ADD0),
    ("global options left behind do not matter", GOOD_ADD0 + "\nGlobal Unset Guard Checking.", ADD0),
    ("implicit arguments in the candidate's statement",
     "Theorem app_nil {A : Type} (l : list A) : l ++ nil = l.\n"
     "Proof. induction l; simpl; [reflexivity | rewrite IHl; reflexivity]. Qed.",
     Sample("s", "p", fields={"statement": "Theorem app_nil : forall (A : Type) (l : list A), l ++ nil = l.",
                              "preamble": "Require Import List.\nImport ListNotations."})),
]  # fmt: skip


@pytest.mark.coq
@pytest.mark.sandbox
@needs_coq
@pytest.mark.parametrize("name, script, sample", PASS_ROWS, ids=[r[0] for r in PASS_ROWS])
def test_honest_proofs_pass(name, script, sample):
    verdict = pv.verify_proof(coq(script), sample)
    assert (verdict.reward, verdict.status) == (1.0, "ok"), verdict.detail


@pytest.mark.coq
@pytest.mark.sandbox
@needs_coq
def test_statement_that_does_not_elaborate_is_the_samples_fault():
    verdict = pv.verify_proof(coq("Theorem t : True. Proof. exact I. Qed."),
                              Sample("s", "p", fields={"statement": "Theorem t : undefined_thing = 1."}))  # fmt: skip
    assert verdict.status == "error" and "statement does not elaborate" in verdict.detail


# ----------------------------------------------------------------------------- the adversarial table

HACKS = [
    ("Admitted", "Theorem add_0_r : forall n : nat, n + 0 = n.\nProof. Admitted.", ADD0, "wrong"),
    ("admit then Qed", "Theorem add_0_r : forall n : nat, n + 0 = n.\nProof. intros. admit. Qed.", ADD0, "wrong"),
    ("admit then Admitted", "Theorem add_0_r : forall n : nat, n + 0 = n.\nProof. intros. admit. Admitted.", ADD0,
     "wrong"),
    ("Axiom of the statement", "Axiom add_0_r : forall n : nat, n + 0 = n.", ADD0, "wrong"),
    ("Parameter", "Parameter add_0_r : forall n : nat, n + 0 = n.", ADD0, "wrong"),
    ("Axiom used inside the proof", "Axiom cheat : False.\nTheorem oops : False.\nProof. exact cheat. Qed.", FALSE,
     "wrong"),
    ("classical axiom", "Require Import Classical.\nTheorem dn : forall P : Prop, ~ ~ P -> P.\n"
     "Proof. intros P. apply NNPP. Qed.", DN, "wrong"),
    ("Unset Guard Checking", "Unset Guard Checking.\nFixpoint loop (n : nat) : False := loop n.\nSet Guard Checking.\n"
     "Theorem oops : False.\nProof. exact (loop 0). Qed.", FALSE, "wrong"),
    ("bypass_check(guard)", "#[bypass_check(guard)] Fixpoint loop (n : nat) : False := loop n.\n"
     "Theorem oops : False.\nProof. exact (loop 0). Qed.", FALSE, "wrong"),
    ("bypass_check(positivity)", "#[bypass_check(positivity)] Inductive Bad := mk : (Bad -> False) -> Bad.\n"
     "Definition unmk (b : Bad) : Bad -> False := match b with mk f => f end.\n"
     "Definition omega : Bad -> False := fun b => unmk b b.\n"
     "Theorem oops : False.\nProof. exact (omega (mk omega)). Qed.", FALSE, "wrong"),
    ("Unset Universe Checking", "Unset Universe Checking.\n" + GOOD_ADD0, ADD0, "wrong"),
    ("Abort", "Theorem add_0_r : forall n : nat, n + 0 = n.\nProof. intros. Abort.", ADD0, "wrong"),
    ("Abort, then an Axiom of that name", "Theorem add_0_r : forall n : nat, n + 0 = n.\nProof. Abort.\n"
     "Axiom add_0_r : forall n : nat, n + 0 = n.", ADD0, "wrong"),
    ("restating a weaker theorem", "Theorem add_0_r : forall n : nat, 0 + n = n.\nProof. reflexivity. Qed.", ADD0,
     "wrong"),
    ("Definition nat := bool shadowing", "Definition nat := bool.\n"
     "Theorem three : forall x y z : nat, x = y \\/ y = z \\/ x = z.\n"
     "Proof. destruct x, y, z; auto. Qed.", THREE, "wrong"),
    ("Inductive nat shadowing", "Inductive nat := O.\nTheorem three : forall x y z : nat, x = y \\/ y = z \\/ x = z.\n"
     "Proof. destruct x, y, z; auto. Qed.", THREE, "wrong"),
    ("Notation redefining +", "Local Notation \"x + y\" := (Nat.add x (S y)).\n"
     "Theorem fake : 2 + 2 = 5.\nProof. reflexivity. Qed.", FAKE, "wrong"),
    ("coercion smuggling", "Record W := { unw : 2 + 2 = 4 }.\nDefinition fake : W := {| unw := eq_refl |}.", FAKE,
     "wrong"),
    ("theorem hidden in a module", "Module M.\nAxiom fake : 2 + 2 = 5.\nEnd M.\nModule N.\nTheorem fake : 2 + 2 = 4. "
     "Proof. reflexivity. Qed.\nEnd N.", FAKE, "wrong"),
    ("unclosed comment swallowing the epilogue", "Theorem fake : 2 + 2 = 5.\nProof.\n"
     "(* everything after this is a comment", FAKE, "wrong"),
    ("unclosed section", "Section S.\nVariable h : 2 + 2 = 5.\nTheorem fake : 2 + 2 = 5.\nProof. exact h. Qed.", FAKE,
     "wrong"),
    ("closing our section/module", "End Check.\nEnd RlvrSub.\nTheorem fake : 2 + 2 = 5.\nProof. Admitted.", FAKE,
     "wrong"),
    ("printing the success line itself", "Theorem fake : 2 + 2 = 5.\nProof. Admitted.\n"
     "Theorem ok : True. Proof. exact I. Qed.\nPrint Assumptions ok.", FAKE, "wrong"),
    ("writing files to replace the check", "Redirect \"/check/Check\" Print nat.\nRedirect \"/work/Check\" Print nat.\n"
     "Theorem fake : 2 + 2 = 5.\nProof. Admitted.", FAKE, "wrong"),
    ("looping tactic", "Theorem fake : 2 + 2 = 5.\nProof. let rec spin n := spin (S n) in spin 0. Qed.", FAKE,
     "timeout"),
]  # fmt: skip


@pytest.mark.coq
@pytest.mark.sandbox
@needs_coq
@pytest.mark.parametrize("name, script, sample, status", HACKS, ids=[r[0] for r in HACKS])
def test_hack_earns_nothing(name, script, sample, status):
    start = time.monotonic()
    verdict = pv.verify_proof(coq(script), sample, timeout_s=2.0 if status == "timeout" else 5.0)
    assert verdict.reward == 0.0, verdict.detail
    assert verdict.status == status, verdict.detail
    assert time.monotonic() - start < 10.0


@pytest.mark.coq
@pytest.mark.sandbox
@needs_coq
def test_axiom_detail_names_the_assumption():
    verdict = pv.verify_proof(coq("Axiom cheat : False.\nTheorem oops : False.\nProof. exact cheat. Qed."), FALSE)
    assert "rests on assumptions" in verdict.detail and "cheat : False" in verdict.detail
