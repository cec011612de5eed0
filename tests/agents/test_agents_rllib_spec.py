"""The ``rllib:PATH`` agent spec: a missing checkpoint is an argument error (exit 2), with or without RLlib."""

import pytest

from agents.cli import main
from agents.registry import AgentSpecError, make_agent


@pytest.mark.parametrize("spec, message", [("rllib", "needs the path"), ("rllib:/no/such/run", "no RLlib checkpoint")])
def test_a_bad_rllib_spec_is_an_argument_error(spec, message, capsys):
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)
    with pytest.raises(SystemExit) as exc:
        main(["match", spec, "ghost"])
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_a_checkpoint_without_a_known_module_is_named(tmp_path):
    (tmp_path / "learner_group" / "learner" / "rl_module" / "a").mkdir(parents=True)
    (tmp_path / "learner_group" / "learner" / "rl_module" / "b").mkdir()
    with pytest.raises(AgentSpecError, match="expected one of the modules"):
        make_agent(f"rllib:{tmp_path}")
