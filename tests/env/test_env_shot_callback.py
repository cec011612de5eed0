"""The compiled turn's C callback into the physics (``kernels.shot``) calls ``run_shot`` with the argument types the
physics' own callers use, so a cold start does not compile the whole physics a second time (a regression: a
writable parameter array made numba compile every physics kernel again, 80 s of CPU)."""

from __future__ import annotations

import numpy as np
from numba import njit

from nineball_env.kernels.shot import _readonly
from physics import DEFAULT_PARAMS
from physics.api import params_array


@njit
def _view(a):
    return _readonly(a)


def test_the_callback_hands_the_physics_a_read_only_parameter_array_like_its_own_callers() -> None:
    p = params_array(DEFAULT_PARAMS)
    assert not p.flags.writeable  # what physics.simulate and simulate_batch hand run_shot
    out = _view(np.ascontiguousarray(p.copy()))
    assert np.array_equal(out, p)
    signature = _view.nopython_signatures[0]
    assert not signature.return_type.mutable and signature.args[0].mutable
