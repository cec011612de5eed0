"""Training, CleanRL-style: one script per algorithm (``ppo``, ``sac``, ``rllib``, ``value``: the value network of the
``value`` player by self-play; ``python -m agents.training.ppo``)
beside what they share (``common``), the imitation of Search (``imitation``), self-play (``selfplay``) and the
evaluation matches run during training (``evaluation``)."""
