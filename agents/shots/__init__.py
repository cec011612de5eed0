"""Shot geometry and valuation, shared by every player and the macro layer; no agent lives here.

``aim`` (directions, ghost ball, clear paths, throw-corrected aims), ``pots`` (pocket windows, pot options, ball-in-hand
spots, pot speed), ``jumps`` (jump shots over blocking balls), ``candidates`` (safeties, spots, thinning),
``outcome`` (the rules' ruling on a simulated shot), ``leaves`` (noise-free shot values) and ``kernels`` (their
compiled core, one implementation for one row and for many); ``playout`` (many shots simulated and ruled at once, and
the positions they leave described for a value network; ``playout_kernels`` its compiled core).
"""
