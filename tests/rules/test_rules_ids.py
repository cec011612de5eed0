"""The RuleId enum is exactly the rulebook's IDs, and every ID has a test that names it."""

from __future__ import annotations

import re
from pathlib import Path

from nineball_env.rules import FOUL_IDS, RuleId

HERE = Path(__file__).parent
RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"  # the project's rulebook


def test_rule_ids_are_their_strings() -> None:
    assert RuleId.FOUL_WRONG_BALL == "R-FOUL-WRONG-BALL" and str(RuleId.LOWEST) == "R-LOWEST"
    assert RuleId("R-SPOT-9") is RuleId.SPOT_9
    assert all(r.value == "R-" + r.name.replace("_", "-") for r in RuleId)
    assert FOUL_IDS <= set(RuleId)


def test_rule_ids_match_the_rulebook() -> None:
    """docs/rules.md defines exactly the RuleId values (a missing rulebook fails, it does not skip)."""
    assert RULES_MD.is_file(), f"the rulebook {RULES_MD} is missing"
    defined = set(re.findall(r"^- \*\*(R-[A-Z0-9-]+)\*\*", RULES_MD.read_text(), flags=re.M))
    assert defined == {r.value for r in RuleId}


def test_every_rule_id_has_a_test_naming_it() -> None:
    """Each ID appears in a test name (``test_r_...``), a parametrize id, or a golden playthrough."""
    texts = [p.read_text() for p in HERE.glob("test_rules_*.py") if p.name != Path(__file__).name]
    texts += [p.read_text() for p in (HERE / "golden").glob("*.txt")]
    corpus = "\n".join(texts)
    names = set(re.findall(r"def (test_r_\w+)", corpus))
    missing = []
    for rule in RuleId:
        as_name = "test_" + rule.value.lower().replace("-", "_") + "_"
        quoted = f'"{rule.value}' in corpus or f"'{rule.value}" in corpus
        if not quoted and not any(n.startswith(as_name) for n in names):
            missing.append(rule.value)
    assert not missing, f"rules without a test: {missing}"
