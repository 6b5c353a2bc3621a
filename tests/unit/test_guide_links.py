"""The README and the user guide hold together: every relative link, #section and picture leads somewhere (as on
the repository's web page and in the plugin's Help, which read the same files), every page is in the guide's
index, every section of the old 1,156-line README has a home, and the README stays short."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import REPO

sys.path.insert(0, str(REPO / "scripts"))
import guide_links  # noqa: E402

GUIDE = REPO / "docs" / "guide"
# The sections of the README before the split (git show 0388fb8~2:README.md) and where each lives now.
OLD_README_SECTIONS = {
    "STAC GIS Agent": "README.md#stac-gis-agent",
    "Install in your own QGIS": "docs/guide/getting-started.md#install-in-your-own-qgis",
    "Python requirements inside QGIS": "docs/guide/getting-started.md#python-requirements-inside-qgis",
    "First run, offline": "docs/guide/getting-started.md#first-run-offline",
    "The chat dock": "docs/guide/dock.md#the-chat-dock",
    "In a narrow dock, and when something goes wrong":
        "docs/guide/dock.md#in-a-narrow-dock-and-when-something-goes-wrong",
    "Language": "docs/guide/dock.md#language",
    "Language model: Ollama (and a backup)": "docs/guide/getting-started.md#language-model-ollama-and-a-backup",
    "Models without tool calling (constrained JSON)":
        "docs/guide/getting-started.md#models-without-tool-calling-constrained-json",
    "How the agent works": "docs/guide/agent.md#how-the-agent-works",
    "Data tools and the MCP server": "docs/guide/analyses.md#data-tools-and-the-mcp-server",
    "Statistics over time and spectral indices": "docs/guide/analyses.md#statistics-over-time-and-spectral-indices",
    "Scale-out on a Dask cluster": "docs/guide/analyses.md#scale-out-on-a-dask-cluster",
    "Using the tools from other MCP clients (opt-in)":
        "docs/guide/outside-clients.md#using-the-tools-from-other-mcp-clients-opt-in",
    "Catalogs and credentials": "docs/guide/catalogs.md#catalogs-and-credentials",
    "The map: what the agent can do in QGIS": "docs/guide/maps.md#the-map-what-the-agent-can-do-in-qgis",
    "Undo history": "docs/guide/sessions.md#undo-history",
    "In QGIS's Processing Toolbox": "docs/guide/processing.md#in-qgiss-processing-toolbox",
    "Print layouts: the map as a page": "docs/guide/layouts.md#print-layouts-the-map-as-a-page",
    "Where conversations and memories are kept": "docs/guide/sessions.md#where-conversations-and-memories-are-kept",
    "Performance": "docs/development.md#performance",
    "Settings": "docs/guide/getting-started.md#settings",
    "Development": "docs/development.md#commands-and-layout",
    "Test tiers": "docs/development.md#test-tiers",
    "The QGIS version matrix": "docs/development.md#the-qgis-version-matrix",
}


def test_every_link_anchor_and_picture_of_the_readme_and_the_guide_leads_somewhere():
    assert guide_links.broken(guide_links.documents()) == []


def test_a_broken_link_a_missing_section_and_a_missing_picture_are_found(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "there.md").write_text("# There\n\n## A section\n\n## A section\n")
    page = tmp_path / "docs" / "page.md"
    page.write_text("# Page\n\n[ok](there.md#a-section-1) [ok too](#page) [web](https://example.org/x.md)\n"
                    "[gone](missing.md) [wrong](there.md#no-such-section) ![pic](pictures/none.png)\n"
                    "<img src=\"../nowhere.png\"> [below](#nope)\n"
                    "```\n[not a link](inside-code.md)\n```\n`[nor this](inline.md)`\n"
                    "[label]: ../../outside.md\n")
    assert guide_links.broken([page], tmp_path) == [
        "docs/page.md:4 missing.md: no such file",
        "docs/page.md:4 there.md#no-such-section: no heading with the anchor #no-such-section",
        "docs/page.md:4 pictures/none.png: no such file",
        "docs/page.md:5 ../nowhere.png: no such file",
        "docs/page.md:5 #nope: no heading with the anchor #nope",
        "docs/page.md:10 ../../outside.md: leads outside the repository",
    ]


def test_every_page_of_the_guide_is_in_its_index_and_in_each_translated_index():
    pages = {p.name for p in GUIDE.glob("*.md")} - {"README.md"}
    assert {"teams.md", "voice.md", "troubleshooting.md", "privacy.md"} <= pages
    for index in (GUIDE / "README.md", *GUIDE.glob("*/README.md")):
        linked = {Path(target.split("#")[0]).name for _line, target in guide_links.links(index.read_text())}
        assert pages <= linked, f"{index.relative_to(REPO)} does not list {sorted(pages - linked)}"


def test_every_section_of_the_old_readme_has_a_home():
    for section, home in OLD_README_SECTIONS.items():
        path, _, anchor = home.partition("#")
        assert anchor in guide_links.anchors((REPO / path).read_text()), f"{section!r} has no home at {home}"


def test_the_readme_is_what_a_qgis_user_reads_first():
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) < 150
    targets = {target for _line, target in guide_links.links(readme)}
    assert {"docs/guide/README.md", "docs/guide/getting-started.md", "docs/guide/troubleshooting.md",
            "docs/guide/privacy.md", "docs/development.md"} <= targets
    assert "make run" in readme and "make test" in readme and "![" in readme


def test_the_help_ships_the_guide_and_every_picture_it_shows():
    shipped = {str(p) for p in guide_links.guide_files()}
    assert "docs/guide/README.md" in shipped and "docs/guide/de/README.md" in shipped
    assert "docs/screenshot-chat.png" in shipped and "docs/screenshots/dock-de.png" in shipped
    assert not [p for p in shipped if not p.startswith("docs/") or p.endswith(".py")]
