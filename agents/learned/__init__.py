"""The learned policy and what plays it: ``macro`` (the macro-action layer and its env wrapper), ``macro_vector``
(the same on the vector env), ``numpy_policy`` (a PPO actor as numpy arrays; ``python -m agents.learned.numpy_policy``
exports one), ``agent`` (``LearnedAgent``: an SB3 model or a numpy actor as an agent) and ``rllib_agent``."""
