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
