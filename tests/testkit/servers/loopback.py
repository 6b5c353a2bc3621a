"""What every real-server helper shares: free ports, waiting for a port, skip-or-fail."""

from __future__ import annotations

import os
import socket
import time

import pytest


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout_s: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def server_missing(reason: str) -> None:
    """A server the test needs could not start: a failure in CI, a skip on a developer machine."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: a server that cannot start is a failure)")
    pytest.skip(reason)
