"""The learned policy and what plays it: ``macro`` (the macro-action layer and its env wrapper; ``macro_kernels`` its
compiled slot table, features and decode), ``macro_vector`` (the same on the vector env), ``numpy_policy`` (a PPO
actor as numpy arrays; ``python -m agents.learned.numpy_policy`` exports one), ``agent`` (``LearnedAgent``: an SB3
model or a numpy actor as an agent), ``rllib_agent``, and the ``value`` player: ``value_net`` (the value network in
numpy, ``dense_kernel`` its compiled layer) and ``value_agent`` (the search that scores its leaves with it;
``docs/value.md``)."""
