"""nineball agents: baseline, search and learned players, and head-to-head evaluation."""
