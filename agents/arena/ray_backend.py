"""Matches as Ray tasks: ``nineball match|tournament --backend ray [--address ADDR]`` (the ``ray`` extra).

Each task plays one ``MatchJob`` with ``agents.arena.match.play_match``; a worker process builds the
agents of a pairing once and keeps them for every later match of that pairing it plays (as
``--jobs 1`` keeps them for a whole series), so the records equal the local ones for the same
seed. ``connect(None)`` starts a local Ray instance (``num_cpus`` cores, default all) and stops it
on exit; ``connect("auto")`` or ``connect("HOST:PORT")`` joins a running cluster (``ray start
--head`` on the head node, ``ray start --address HOST:PORT`` on the others; every node needs
nineball installed). Ray is imported only here.
"""

from __future__ import annotations

import pickle
import socket
from typing import Any, Iterator, Sequence

from agents.arena.match import MatchRecord, play_match
from agents.arena.series import MatchJob
from agents.protocol import Agent
from agents.registry import make_agent

LOCAL_OBJECT_STORE_BYTES = 256 * 1024**2  # match records are tiny: a local instance needs no large object store
PROBE_TIMEOUT_S = 3.0
#: Every task and actor holds one CPU: numba must not start a thread per core of the node in each of them
#: (oversubscribed, the spinning pools of two workers slowed each other's torch and physics several-fold).
ONE_THREAD_PER_CPU = {"env_vars": {"NUMBA_NUM_THREADS": "1"}}


class RayBackendError(RuntimeError):
    """Ray is missing, or the cluster address is malformed or unreachable (the CLI exits with code 2)."""


# -- worker side ---------------------------------------------------------------------------------

_PAIRS: dict[tuple[str, str], tuple[Agent, Agent]] = {}


def _pair(spec_a: str, spec_b: str) -> tuple[Agent, Agent]:
    """This worker's agents for a pairing, built on first use (one object per seat, as ``--jobs 1``)."""
    key = (spec_a, spec_b)
    if key not in _PAIRS:
        _PAIRS[key] = (make_agent(spec_a), make_agent(spec_b))
    return _PAIRS[key]


def pack_job(job: MatchJob) -> bytes:
    """A job as the task's argument: pickled, as a process pool sends it. Ray hands a task the numpy arrays of its
    arguments read-only (zero-copy from its object store), and numba compiles every kernel again for read-only
    arrays: the table's, in ``MatchConfig``, compiled the whole physics once more in each worker on a cold cache."""
    return pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)


def unpack_job(blob: bytes) -> MatchJob:
    """The job ``pack_job`` packed, its arrays writable (copies in the pickle's own bytes)."""
    return pickle.loads(blob)


def play_job(blob: bytes) -> MatchRecord:
    """Task body: one match (a ``pack_job``) with this worker's agents for the pairing."""
    spec_a, spec_b, config, seed, index, record_dir = unpack_job(blob)
    agent_a, agent_b = _pair(spec_a, spec_b)
    return play_match(agent_a, agent_b, config, seed, index, record_dir=record_dir)


# -- driver side ---------------------------------------------------------------------------------


def _ray() -> Any:
    try:
        import ray
    except ImportError as err:
        raise RayBackendError("the ray backend needs Ray: pip install 'nineball[ray]'") from err
    return ray


def check_address(address: str) -> None:
    """RayBackendError unless ``address`` is ``auto``, ``ray://HOST:PORT`` or a reachable ``HOST:PORT``."""
    if address == "auto":
        return
    target = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = target.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RayBackendError(f"expected 'auto', HOST:PORT or ray://HOST:PORT, got {address!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_TIMEOUT_S):
            pass
    except OSError as err:
        raise RayBackendError(f"no Ray cluster answers at {address!r} ({err.strerror or err}); start one with "
                              "`ray start --head` or pass the head's address") from None


class RayBackend:
    """A connection to Ray that plays ``MatchJob`` lists as tasks (``agents.arena.series.MatchBackend``).

    Use as a context manager: leaving it shuts down a Ray instance that ``connect`` started (a
    cluster it joined keeps running).
    """

    def __init__(self, owns_instance: bool) -> None:
        ray = _ray()
        self._ray = ray
        self._owns_instance = owns_instance
        self._task = ray.remote(num_cpus=1, max_retries=0)(play_job)
        self._unread: set = set()

    @property
    def cpus(self) -> int:
        """CPUs the Ray instance has in all."""
        return int(self._ray.cluster_resources().get("CPU", 0))

    def submit(self, jobs: Sequence[MatchJob]) -> Iterator[MatchRecord]:
        """Start a task per job now; yield the records as the tasks finish."""
        pending = [self._task.remote(pack_job(job)) for job in jobs]
        self._unread.update(pending)
        return self._finished(pending)

    def _finished(self, pending: list) -> Iterator[MatchRecord]:
        while pending:
            done, pending = self._ray.wait(pending, num_returns=1)
            self._unread.discard(done[0])
            yield self._ray.get(done[0])

    def close(self) -> None:
        """Cancel the tasks whose records were never read (an error, Ctrl-C); stop an instance ``connect`` started."""
        if self._ray.is_initialized():
            for ref in self._unread:
                self._ray.cancel(ref)
        self._unread.clear()
        if self._owns_instance and self._ray.is_initialized():
            self._ray.shutdown()
        self._owns_instance = False

    def __enter__(self) -> "RayBackend":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(address: str | None = None, num_cpus: int | None = None) -> RayBackend:
    """Join the Ray cluster at ``address`` (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``), or start a local
    instance with ``num_cpus`` cores (None: all) when ``address`` is None; reuse Ray already started in
    this process. RayBackendError when Ray is missing or the cluster cannot be reached."""
    ray = _ray()
    if num_cpus is not None and (isinstance(num_cpus, bool) or not isinstance(num_cpus, int) or num_cpus < 1):
        raise RayBackendError(f"num_cpus: expected a whole number >= 1 or None, got {num_cpus!r}")
    if address is not None:
        check_address(address)
    if ray.is_initialized():
        if address is not None:
            raise RayBackendError("Ray is already running in this process; call ray.shutdown() before joining "
                                  f"{address!r}")
        return RayBackend(owns_instance=False)
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": True, "configure_logging": True,
                               "logging_level": "warning", "runtime_env": ONE_THREAD_PER_CPU}
    try:
        if address is None:
            # "local": a new instance even where `ray start` left one running or RAY_ADDRESS is set
            ray.init(address="local", num_cpus=num_cpus, object_store_memory=LOCAL_OBJECT_STORE_BYTES, **options)
        else:
            ray.init(address=address, **options)
    except (ConnectionError, RuntimeError, ValueError) as err:
        raise RayBackendError(f"cannot {'start Ray' if address is None else f'join the Ray cluster at {address!r}'}: "
                              f"{err}") from None
    return RayBackend(owns_instance=True)
