"""`nineball shot`: one break as JSON, bad values exit 2, optional PNG drawing."""

import json
import zlib

import pytest

from agents.cli import main


def test_shot_prints_events_and_outcome(capsys):
    assert main(["shot", "--seed", "3", "--events"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["first_contact"] == [0, 1] and out["events"] == len(out["log"])
    assert not out["hit_event_cap"]


def test_shot_rejects_bad_speed_with_exit_code_2(capsys):
    assert main(["shot", "--speed", "50"]) == 2
    assert "V0" in capsys.readouterr().err


def test_shot_png_is_a_valid_png(tmp_path):
    path = tmp_path / "shot.png"
    assert main(["shot", "--png", str(path)]) == 0
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    idat = data.index(b"IDAT")
    length = int.from_bytes(data[idat - 4:idat], "big")
    raw = zlib.decompress(data[idat + 4: idat + 4 + length])
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert len(raw) == height * (1 + 3 * width)


def test_shot_unknown_table_is_an_argument_error():
    with pytest.raises(SystemExit) as err:
        main(["shot", "--table", "12ft"])
    assert err.value.code == 2


def test_a_jump_shows_in_the_log_and_the_drawing(tmp_path, capsys):
    """`shot --theta 55`: the cue ball leaves the cloth and lands (log); the PNG is written."""
    path = tmp_path / "jump.png"
    assert main(["shot", "--theta", "55", "--speed", "5", "--b", "0.5", "--events", "--png", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    kinds = [e["event"] for e in out["log"]]
    assert kinds[:2] == ["STICK_BALL", "BALL_AIRBORNE"] and "BALL_LANDING" in kinds and out["airborne"] >= 1
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_drawing_marks_take_off_landings_and_leaving_the_table():
    import numpy as np

    import physics
    from agents.cli import mark_flights
    from nineball_env.render import Renderer

    result = physics.simulate(physics.place_balls({0: (0.6, 1.0)}), physics.Shot(V0=8.0, phi=0.0, theta=45.0, b=0.707))
    renderer = Renderer()
    plain = renderer.draw(result.state, result)
    marked = mark_flights(renderer, plain.copy(), result)
    kinds = result.events.kind
    assert physics.EventKind.BALL_OFF_TABLE in kinds
    for i in np.flatnonzero(np.isin(kinds, [physics.EventKind.BALL_AIRBORNE, physics.EventKind.BALL_OFF_TABLE])):
        row, col = np.round(renderer.to_px(result.events.state_a[i, 0:2])).astype(int)
        block = marked[row - 1:row + 2, col - 1:col + 2]
        want = (255, 255, 255) if kinds[i] == physics.EventKind.BALL_AIRBORNE else (230, 30, 30)
        assert np.all(block == want), (kinds[i], block)
    assert not np.array_equal(plain, marked)
