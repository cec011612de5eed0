"""``python -m agents.train_ppo`` keeps working: the PPO script is ``agents.training.ppo``."""

from agents.training.ppo import Args, main, train

__all__ = ["Args", "main", "train"]

if __name__ == "__main__":
    raise SystemExit(main())
