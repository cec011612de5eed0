"""The value network's one compiled piece: a dense layer as a plain loop (``agents.learned.value_net``)."""

from __future__ import annotations

from numba import njit


@njit(cache=True, fastmath=True)
def dense(x, w, b, relu, out):
    """``out = x @ w + b`` for float32 rows x (N, n_in), w (n_in, n_out), b (n_out,), ReLU'd when ``relu``.
    A loop whose inner run goes along ``w``'s contiguous rows (the compiler vectorises it) rather than BLAS, whose
    threads fight the search's own for the cores on a busy machine (measured: 8x slower per decision under load)."""
    n_in, n_out = w.shape
    for i in range(x.shape[0]):
        for j in range(n_out):
            out[i, j] = b[j]
        for k in range(n_in):
            xk = x[i, k]
            if xk != 0.0:
                for j in range(n_out):
                    out[i, j] += xk * w[k, j]
        if relu:
            for j in range(n_out):
                if out[i, j] < 0.0:
                    out[i, j] = 0.0
