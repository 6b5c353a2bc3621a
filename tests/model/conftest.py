"""A real language model for the tests: Gemma 3 270M served by llama-cpp-python, once per session."""

from __future__ import annotations

import os

import pytest

from testkit.llm.llama_server import LlamaServer, ModelServerMissing


@pytest.fixture(scope="session")
def model_server():
    try:
        server = LlamaServer(n_ctx=4096).start()
    except (ModelServerMissing, RuntimeError, OSError) as exc:
        message = f"the model server could not start: {exc}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    yield server
    server.stop()
