"""The hand-written players: ``random_agent`` (uniform actions), ``ghost_ball`` (geometric aiming, no look-ahead) and
``search`` (Monte-Carlo search over simulated shots). Each builds on ``agents.shots`` alone; none imports another."""
