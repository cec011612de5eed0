"""nineball_env: the nine-ball rules engine (``nineball_env.rules``) and, later, the Gymnasium environments."""
