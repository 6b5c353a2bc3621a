"""An S3-compatible server on loopback (moto in server mode, from `.build/moto-venv`) holding one bucket,
optionally requester-pays, that checks request signatures; see s3_requester_pays_server.py."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .loopback import free_port, server_missing, wait_for_port

MOTO_PYTHON = Path(__file__).resolve().parents[3] / ".build" / "moto-venv" / "bin" / "python"
SCRIPT = Path(__file__).with_name("s3_requester_pays_server.py")


class S3Server:
    def __init__(self, folder: Path, bucket: str, requester_pays: bool = False) -> None:
        self.folder, self.bucket, self.requester_pays = Path(folder), bucket, requester_pays
        self.port = free_port()
        self.key_id = self.secret = ""
        self._process: subprocess.Popen | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> S3Server:
        if not MOTO_PYTHON.exists():
            server_missing(f"{MOTO_PYTHON} is missing: run `make setup-test` (builds .build/moto-venv).")
        args = [str(MOTO_PYTHON), str(SCRIPT), str(self.port), self.bucket, str(self.folder)]
        self._process = subprocess.Popen(args + (["--requester-pays"] if self.requester_pays else []),
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self._process.stdout.readline() if self._process.stdout else ""
        if not line or not wait_for_port(self.port, 30):
            self.stop()
            server_missing("the S3 (moto) server did not start")
        credentials = json.loads(line)
        self.key_id, self.secret = credentials["key_id"], credentials["secret"]
        return self

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
        self._process = None
