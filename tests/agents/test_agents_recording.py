"""Match records: record -> replay reproduces every shot; bad, corrupted or foreign files are clear errors (exit 2);
a replay that does not reproduce its record says so (exit 1); the GIF is written."""

import gzip
import json

import numpy as np
import pytest

from agents.arena.match import MatchConfig
from agents.arena.recording import FORMAT_VERSION, RecordError, ReplayMismatch, read_record, record_path, resimulate
from agents.arena.series import run_series
from agents.cli import main


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """Two recorded races to 2 between ghost and random, icga noise."""
    folder = tmp_path_factory.mktemp("records")
    result = run_series("ghost", "random", 2, MatchConfig(race_to=2), seed=3, progress=False, record_dir=str(folder))
    return folder, result


def _lines(path):
    with gzip.open(path, "rt") as fh:
        return [json.loads(line) for line in fh]


def _write(path, lines):
    with gzip.open(path, "wt") as fh:
        fh.write("".join(json.dumps(line) + "\n" for line in lines))


def test_one_file_per_match_with_every_rack_and_decision(recorded):
    folder, result = recorded
    for match in result.matches:
        rec = read_record(record_path(folder, match.index))
        assert rec.header["format_version"] == FORMAT_VERSION and rec.header["agents"] == ["ghost", "random"]
        assert len(rec.racks) == len(match.racks)
        assert len(rec.shots) == sum(r.decisions for r in match.racks)
        assert rec.winner == match.winner and rec.score == match.score
        # the cue parameters are the ones after noise: icga noise moves them off the decoded action
        assert any(s.cue is not None and s.cue["phi"] != round(s.cue["phi"], 3) for s in rec.shots)


def test_replay_reproduces_the_recording(recorded):
    folder, result = recorded
    rec = read_record(record_path(folder, 0))
    shots = list(resimulate(rec))
    assert [s.record for s in shots] == list(rec.shots)
    for s in shots:
        if s.result is None:
            continue
        on = s.result.state.on_table()
        final = [tuple(p) if on[b] else None for b, p in enumerate(s.result.state.pos.tolist())]
        if s.record.ruling["rack_winner"] is not None:  # the shot's own end state is recorded
            assert final == list(s.record.final)
        assert len(s.result.events) == s.record.n_events or s.result.hit_event_cap


def test_a_record_that_does_not_reproduce_says_so(recorded, tmp_path, capsys):
    folder, _ = recorded
    lines = _lines(record_path(folder, 0))
    shot = next(i for i, line in enumerate(lines) if line["type"] == "shot" and line["shot"] == 1)
    lines[shot]["cue"]["V0"] = 0.6 if lines[shot]["cue"]["V0"] > 1.0 else 3.0  # another shot than recorded
    bad = tmp_path / "changed.jsonl.gz"
    _write(bad, lines)
    with pytest.raises(ReplayMismatch, match="rack 0, shot 1"):
        list(resimulate(read_record(bad)))
    assert main(["replay", str(bad)]) == 1
    assert "does not reproduce the record" in capsys.readouterr().err


@pytest.mark.parametrize("damage, message", [
    (lambda lines: lines[0].update(nineball="0.0.1"), "recorded with nineball '0.0.1'"),
    (lambda lines: lines[0].update(format_version=99), "format version 99"),
    (lambda lines: lines[0].update(format="something"), "not a nineball match record"),
    (lambda lines: lines.pop(), "stops before the end"),
    (lambda lines: lines[2].pop("action"), "missing field 'action'"),
    (lambda lines: lines[1].update(layout=[[0.1, 0.2]]), "ball entries"),
])
def test_foreign_or_damaged_records_are_clear_errors(recorded, tmp_path, capsys, damage, message):
    folder, _ = recorded
    lines = _lines(record_path(folder, 0))
    damage(lines)
    bad = tmp_path / "bad.jsonl.gz"
    _write(bad, lines)
    with pytest.raises(RecordError, match=message):
        read_record(bad)
    assert main(["replay", str(bad)]) == 2
    assert message.split("'")[0] in capsys.readouterr().err


def test_truncated_or_not_gzip_files_exit_2(recorded, tmp_path, capsys):
    folder, _ = recorded
    data = record_path(folder, 0).read_bytes()
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(data[: len(data) // 2])
    text = tmp_path / "text.jsonl.gz"
    text.write_text("hello\n")
    for path in (cut, text, tmp_path / "missing.jsonl.gz"):
        assert main(["replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert "nineball replay:" in err and "Traceback" not in err


def test_replay_lists_the_shots(recorded, capsys):
    folder, result = recorded
    assert main(["replay", str(record_path(folder, 1))]) == 0
    out = capsys.readouterr()
    assert out.out.count("\n") == sum(r.decisions for r in result.matches[1].racks)
    assert "rack 1 shot 1: " in out.out and "replayed" in out.err


def test_replay_writes_a_small_gif_of_one_shot(recorded, tmp_path):
    from PIL import Image  # the test extra

    folder, _ = recorded
    gif = tmp_path / "shot.gif"
    assert main(["replay", str(record_path(folder, 0)), "--rack", "1", "--shot", "2", "--gif", str(gif),
                 "--fps", "5", "--scale", "100"]) == 0
    with Image.open(gif) as im:
        assert im.format == "GIF" and im.n_frames >= 2
        assert im.size[0] >= 2.54 * 100 and im.size[1] >= 1.27 * 100


@pytest.mark.parametrize("argv, message", [
    (["--rack", "9"], "--rack: expected 1 to"),
    (["--rack", "1", "--shot", "999"], "--shot: rack 1 has shots 1 to"),
    (["--shot", "1"], "--shot: needs --rack"),
])
def test_replay_selection_out_of_range_exits_2(recorded, capsys, argv, message):
    folder, _ = recorded
    assert main(["replay", str(record_path(folder, 0)), *argv]) == 2
    assert message in capsys.readouterr().err


def test_match_record_flag_writes_one_file_per_match(tmp_path, capsys):
    out = tmp_path / "rec"
    assert main(["match", "ghost", "random", "--race", "1", "--matches", "2", "--no-progress", "--record",
                 str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["match-0000.jsonl.gz", "match-0001.jsonl.gz"]
    assert "nineball replay" in capsys.readouterr().err


def test_replay_window_needs_pygame_or_shows_the_shot(recorded, monkeypatch, capsys):
    folder, _ = recorded
    argv = ["replay", str(record_path(folder, 0)), "--rack", "1", "--shot", "1", "--window", "--fps", "5"]
    try:
        import pygame  # noqa: F401
    except ImportError:
        assert main(argv) == 2 and "needs pygame" in capsys.readouterr().err
        return
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    assert main(argv) == 0


def test_replay_without_pillow_is_a_message_before_simulating(recorded, monkeypatch, capsys, tmp_path):
    import agents.arena.recording

    folder, _ = recorded
    monkeypatch.setitem(__import__("sys").modules, "PIL", None)
    monkeypatch.setattr(agents.arena.recording, "resimulate", lambda *a: pytest.fail("simulated"))
    assert main(["replay", str(record_path(folder, 0)), "--gif", str(tmp_path / "x.gif")]) == 2
    assert "needs Pillow" in capsys.readouterr().err


def test_a_gif_too_big_to_build_is_refused_before_drawing(recorded, monkeypatch, tmp_path, capsys):
    import agents.arena.animation

    folder, _ = recorded
    monkeypatch.setattr(agents.arena.animation, "MAX_GIF_MEGAPIXELS", 1.0)
    monkeypatch.setattr(agents.arena.animation, "write_gif", lambda *a: pytest.fail("drew the GIF"))
    assert main(["replay", str(record_path(folder, 0)), "--gif", str(tmp_path / "all.gif")]) == 2
    assert "--mp4" in capsys.readouterr().err


def test_frame_count_is_what_the_frames_are(recorded):
    from agents.arena.animation import FrameMaker
    from agents.arena.recording import game_config

    folder, _ = recorded
    rec = read_record(record_path(folder, 0))
    config, _, _ = game_config(rec.header)
    maker = FrameMaker(tuple(rec.header["agents"]), config.table, config.params, scale=100, fps=4)
    for shot in list(resimulate(rec))[:3]:
        assert sum(1 for _ in maker.frames(shot)) == maker.n_frames(shot)


def test_records_do_not_depend_on_worker_processes(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    run_series("ghost", "random", 2, MatchConfig(race_to=1), seed=5, progress=False, record_dir=str(one))
    run_series("ghost", "random", 2, MatchConfig(race_to=1), seed=5, jobs=2, progress=False, record_dir=str(two))
    for i in range(2):
        assert _lines(record_path(one, i)) == _lines(record_path(two, i))
