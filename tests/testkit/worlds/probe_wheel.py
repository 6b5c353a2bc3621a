"""A real, minimal wheel built with the stdlib, so tests can run a real pip install offline."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

NAME = "stacgis_probe_pkg"


def build_probe_wheel(folder: Path, name: str = NAME, version: str = "1.0.0") -> Path:
    dist = name.replace("_", "-")
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    files = {
        f"{name}/__init__.py": b"VALUE = 42\n",
        f"{name}-{version}.dist-info/METADATA":
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n".encode(),
        f"{name}-{version}.dist-info/WHEEL":
            b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, data in files.items():
            zf.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{path},sha256={digest},{len(data)}")
        record.append(f"{name}-{version}.dist-info/RECORD,,")
        zf.writestr(f"{name}-{version}.dist-info/RECORD", "\n".join(record) + "\n")
    return wheel


def probe_lock(wheel: Path, folder: Path, name: str = NAME, version: str = "1.0.0") -> Path:
    """A lock file (as `make lock` writes them) pinning the probe wheel by its sha256."""
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    lock = folder / "probe.lock"
    lock.write_text(f"{name.replace('_', '-')}=={version} \\\n    --hash=sha256:{digest}\n")
    return lock
