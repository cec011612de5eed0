"""A local Ray instance with 2 CPUs for the Ray tests, started once per session (only when a test asks for it)."""

import pytest

from extrakit import require_extra


@pytest.fixture(scope="session")
def local_ray():
    ray = require_extra("ray", "ray")
    from agents.arena.ray_backend import ONE_THREAD_PER_CPU

    if ray.is_initialized():
        ray.shutdown()
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="warning",
             runtime_env=ONE_THREAD_PER_CPU, object_store_memory=256 * 1024**2)
    yield ray
    ray.shutdown()
