"""What the Ray tests share besides the ray extra (``extrakit.require_extra("ray")``): a free port."""

import socket


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
