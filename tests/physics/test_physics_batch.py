"""simulate_batch runs the single-table kernel over many tables: results must agree bit for bit."""

import numba
import numpy as np
import pytest

import physics


def _cases(n, seed=0):
    rng = np.random.default_rng(seed)
    states, shots = [], []
    for k in range(n):
        if k % 2 == 0:
            states.append(physics.nine_ball_rack(rng))
            shots.append(physics.Shot(V0=float(rng.uniform(5, 9)), phi=90.0 + float(rng.normal(0, 0.5))))
        else:
            states.append(physics.place_balls({0: (0.3, 0.4), 1: (0.6, 1.2), 4: (0.9, 2.0)}))
            shots.append(physics.Shot(V0=float(rng.uniform(1, 4)), phi=float(rng.uniform(0, 360)),
                                      a=float(rng.uniform(-0.3, 0.3)), b=float(rng.uniform(-0.3, 0.3))))
    return states, shots


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_equals_single_bit_for_bit(threads):
    if threads > numba.config.NUMBA_NUM_THREADS:
        pytest.skip(f"numba has {numba.config.NUMBA_NUM_THREADS} thread(s) here")
    states, shots = _cases(12)
    batch = physics.simulate_batch(states, shots, log_capacity=16, threads=threads)
    for k in range(len(states)):
        single = physics.simulate(states[k], shots[k])
        assert batch.state(k) == single.state
        assert batch.n_events[k] == len(single.events)
        full = batch.result(k)  # re-simulated alone when the batch log was truncated
        for name in ("time", "kind", "ball_a", "ball_b", "target", "state_a", "state_b"):
            assert np.array_equal(getattr(full.events, name), getattr(single.events, name))


def test_batch_validates_each_table_naming_the_index():
    states, shots = _cases(3)
    states[2].pos[0] = states[2].pos[1]
    with pytest.raises(ValueError, match=r"states\[2\]"):
        physics.simulate_batch(states, shots)
    with pytest.raises(ValueError, match="one shot per state"):
        physics.simulate_batch(states[:2], shots)
    with pytest.raises(ValueError, match="log_capacity"):
        physics.simulate_batch(states[:1], shots[:1], log_capacity=0)


def test_batch_accepts_no_strike_tables():
    state = physics.place_balls({0: (0.5, 0.5)})
    state.vel[0] = (0.0, 0.5)
    state.motion[0] = int(physics.Motion.SLIDING)
    batch = physics.simulate_batch([state], [None])
    assert batch.state(0) == physics.simulate(state, None).state


def test_packed_batch_equals_list_batch_and_validates_rows():
    states, shots = _cases(6)
    packed = np.stack([s.packed() for s in states])
    rows = np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in shots])
    a = physics.simulate_batch(states, shots)
    b = physics.simulate_batch_packed(packed, rows)
    assert np.array_equal(a.states, b.states) and np.array_equal(a.n_events, b.n_events)
    assert b.shot(0) == shots[0] and b.initial(1) == states[1]
    bad = rows.copy()
    bad[3, 0] = 50.0
    with pytest.raises(ValueError, match=r"shots\[3\]: V0"):
        physics.simulate_batch_packed(packed, bad)
    with pytest.raises(ValueError, match="shape"):
        physics.simulate_batch_packed(packed, rows[:2])
    overlap = packed.copy()
    overlap[4, 1, 0:2] = overlap[4, 0, 0:2]
    with pytest.raises(ValueError, match=r"states\[4\]"):
        physics.simulate_batch_packed(overlap, rows)


@pytest.mark.parametrize("row, message", [
    ((np.inf, 10.0, 0.0, 0.0, 0.0), "not finite"),
    ((3.0, np.nan, 0.0, 0.0, 0.0), "not finite"),
    ((0.0, 10.0, 0.0, 0.0, 0.0), "V0 must be"),
    ((12.5, 10.0, 0.0, 0.0, 0.0), "V0 must be"),
    ((3.0, 10.0, -1.0, 0.0, 0.0), "theta must be"),
    ((3.0, 10.0, 90.0, 0.0, 0.0), "theta must be"),
    ((3.0, 10.0, 0.0, 0.7, 0.7), "tip offset"),
])
def test_packed_shot_rows_are_checked_like_shots(row, message):
    """Every rule of ``Shot`` holds for packed rows; the error names the row; a NaN row (no strike) passes."""
    states, _ = _cases(3)
    packed = np.stack([s.packed() for s in states])
    rows = np.array([(3.0, 90.0, 0.0, 0.0, 0.0), row, (np.nan,) * 5])
    with pytest.raises(ValueError, match=rf"shots\[1\]: {message}"):
        physics.simulate_batch_packed(packed, rows)
    with pytest.raises(ValueError):
        physics.Shot(*row)
