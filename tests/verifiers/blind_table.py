"""How a blind table written by families is built (``math_blind6_rows.py``, ``math_blind7_rows.py``):
``fam(name, kind, [(reference, completion), ...])`` adds a family of one kind; ``row_id(i)`` names
row i by its family and its place there (``family#n``), which stays put when rows are added to
other families."""

from __future__ import annotations


class FamilyTable:
    def __init__(self, kinds: tuple[str, ...]):
        self.kinds = kinds
        self.rows: list[tuple[str, str, str, int, None]] = []
        self.family_kind: dict[str, str] = {}

    def fam(self, name: str, kind: str, rows: list[tuple[str, str]]) -> None:
        assert kind in self.kinds and name not in self.family_kind, name
        self.family_kind[name] = kind
        for ref, comp in rows:
            self.rows.append((name, ref, comp, 1 if kind == "correct" else 0, None))

    def row_id(self, index: int) -> str:
        """A stable name for a row: its family and its place in the family."""
        family = self.rows[index][0]
        return f"{family}#{sum(1 for r in self.rows[:index] if r[0] == family)}"
