"""The ``nineball`` CLI: match and tournament run and print their tables; bad arguments exit 2 with a message."""

import json

import pytest

from agents.cli import main


def test_match_prints_the_table(capsys):
    assert main(["match", "ghost", "random", "--race", "1", "--matches", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "ghost vs random" in out and "match wins" in out and "2/2" in out


def test_match_json_and_csv(tmp_path, capsys):
    path = tmp_path / "r.csv"
    assert main(["match", "random", "ghost", "--race", "1", "--matches", "2", "--no-progress", "--json", "-",
                 "--csv", str(path), "--noise", "none"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["agents"] == ["random", "ghost"] and data["noise"]["phi"] == 0.0
    assert path.read_text().count("\n") == 3


def test_match_plot(tmp_path):  # matplotlib: the test extra
    png = tmp_path / "m.png"
    assert main(["match", "ghost", "random", "--race", "1", "--matches", "1", "--no-progress", "--plot",
                 str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_tournament_prints_elo(capsys, tmp_path):
    png = tmp_path / "elo.png"
    args = ["tournament", "random", "ghost", "search:candidates=8,top=2,samples=2,refine=1,placements=1",
            "--race", "1", "--matches", "1", "--no-progress", "--plot", str(png)]  # matplotlib: the test extra
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Elo" in out and "random vs ghost" in out
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_tournament_json_with_elo_intervals(capsys):
    """Regression: with enough matches for an Elo interval the JSON held a numpy bool and could not be written."""
    assert main(["tournament", "random", "ghost", "--race", "1", "--matches", "5", "--no-progress",
                 "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all(row["interval"] in (True, False) for row in data["elo"])


@pytest.mark.parametrize("argv, message", [
    (["match", "ghost", "nobody"], "unknown agent 'nobody'"),
    (["match", "ghost", "random", "--race", "0"], "--race"),
    (["match", "ghost", "random", "--matches", "0"], "--matches"),
    (["match", "ghost", "random", "--jobs", "0"], "--jobs"),
    (["match", "ghost", "random", "--noise", "loud"], "--noise"),
    (["match", "ghost", "random", "--race", "two"], "invalid int value"),
    (["match", "search:samples=0", "random"], "samples"),
    (["match", "search:depth=3", "random"], "unknown option 'depth'"),
    (["match", "random:x=1", "ghost"], "random takes no options"),
    (["match", "ppo:/no/such/model.zip", "ghost"], "model"),
    (["match", "ghost"], "required"),
    (["match", "ghost", "random", "--plot", "out.jpg"], ".png"),
    (["tournament", "ghost"], "at least two agents"),
    (["tournament", "ghost", "ghost"], "once"),
])
def test_bad_arguments_exit_2_with_a_message(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_shot_command_still_works(capsys):
    assert main(["shot", "--speed", "3"]) == 0
    assert "events" in json.loads(capsys.readouterr().out)
