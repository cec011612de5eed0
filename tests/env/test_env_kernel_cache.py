"""The env kernels' numba cache is dropped when a kernel file or a physics file whose codes they freeze changes."""

from __future__ import annotations

from physics.kernels import drop_stale_numba_cache


def test_the_cache_is_dropped_when_a_watched_file_changes(tmp_path) -> None:
    kernels = tmp_path / "kernels"
    kernels.mkdir()
    (kernels / "facts.py").write_text("KIND = 1\n")
    watched = tmp_path / "events.py"  # stands in for physics/events.py (EventKind)
    watched.write_text("BALL_BALL = 1\n")
    drop_stale_numba_cache(kernels, watched)
    cached = kernels / "__pycache__" / "facts.summarize_rows-13.py311.nbi"
    cached.write_text("machine code")
    drop_stale_numba_cache(kernels, watched)
    assert cached.exists()  # nothing changed: the cache is kept
    watched.write_text("BALL_BALL = 7\n")
    drop_stale_numba_cache(kernels, watched)
    assert not cached.exists()  # the frozen codes changed: the cache goes
    cached.write_text("machine code")
    (kernels / "facts.py").write_text("KIND = 2\n")
    drop_stale_numba_cache(kernels, watched)
    assert not cached.exists()
