"""Run inside QGIS (`scripts/language_screenshots.sh`), with QGIS's locale set to German or French: a real
session on the shipped demo catalog in that language (the model scripted by the Ollama emulator, answering in
the analyst's language), then a screenshot of the dock (docs/screenshots/dock-<lang>.png); then, at 320 px, the
same chat (dock-<lang>-320.png) and a turn that goes wrong (a tool that does not exist, then the model's server
failing: dock-<lang>-320-error.png), and QGIS quits. With STACGIS_SCREENSHOT_NARROW=0 only the first picture is
taken (the HiDPI run: QT_SCALE_FACTOR=2, 320 px). Before the session, the welcome card and the settings dialog are
saved to .build for a look at narrow widths."""

import asyncio
import os
import sys
from pathlib import Path

from qgis.core import QgsApplication
from qgis.PyQt.QtCore import Qt, QTimer
from qgis.utils import iface, plugins

ROOT = Path(os.environ["STACGIS_REPO"])  # QGIS runs this file with exec(): no __file__
sys.path.insert(0, str(ROOT / "tests"))
from testkit.llm.ollama_emulator import OllamaEmulator, Turn  # noqa: E402

LANG = os.environ["STACGIS_SCREENSHOT_LANG"]
OUT = Path(os.environ["STACGIS_SCREENSHOT"])
PEEK = ROOT / ".build" / "language-screenshots"
DOCK_WIDTH = int(os.environ.get("STACGIS_DOCK_WIDTH", "430"))
NARROW = os.environ.get("STACGIS_SCREENSHOT_NARROW", "1") == "1"
FAILING = {"de": "Puffere alle Parzellen um 10 m", "fr": "Fais un tampon de 10 m autour des parcelles"}
SESSION = {
    "de": ("Zeige mir den NDVI vom Juni um die Kartenmitte und nenne seinen Mittelwert",
           """### NDVI um Lyon, 15. Juni 2025

| Kennwert | Wert |
|---|---|
| Mittelwert | {mean} |
| Min. / Max. | {min} / {max} |
| gültige Pixel | {count} |

Der Layer **demo-ndvi demo-ndvi-2025-06-15** liegt mit einem divergierenden Farbverlauf auf der Karte: die
Felder sind grün, der Fluss orange (negativer NDVI). Fragen Sie nach einem Vergleich mit September, um die
Ernte zu sehen.
"""),
    "fr": ("Montre-moi le NDVI de juin autour du centre de la carte et donne sa moyenne",
           """### NDVI autour de Lyon, 15 juin 2025

| statistique | valeur |
|---|---|
| moyenne | {mean} |
| min / max | {min} / {max} |
| pixels valides | {count} |

La couche **demo-ndvi demo-ndvi-2025-06-15** est sur la carte avec une rampe divergente : les champs sont
verts, le fleuve orange (NDVI négatif). Demandez-moi de comparer avec septembre pour voir la moisson.
"""),
}

THINKING = {  # what the scripted model thinks, in the analyst's language as the answer (a model may think in English)
    "de": ("Die Nutzerin schreibt Deutsch: die NDVI-Sammlung der Demo durchsuchen und auf Deutsch antworten.",
           "Ein Item vom 15. Juni. Sein NDVI-Asset auf die Karte legen."),
    "fr": ("L’analyste écrit en français : chercher dans la collection NDVI de la démo et répondre en français.",
           "Un item du 15 juin. Mettre son asset NDVI sur la carte."),
}

emulator = OllamaEmulator().start()


def _decimal(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")  # as German and French write numbers


def _dock():
    return plugins["stacgis_agent"].dock


def _peek(widget, name: str) -> None:
    PEEK.mkdir(parents=True, exist_ok=True)
    path = PEEK / f"{name}-{LANG}.png"
    print(f"peek {'saved to' if widget.grab().save(str(path)) else 'FAILED:'} {path}", flush=True)


async def session() -> None:
    runtime = plugins["stacgis_agent"].runtime
    os.environ["STACGIS_OLLAMA_URL"] = emulator.url
    await runtime.restart()
    await asyncio.sleep(1.0)
    iface.mainWindow().resizeDocks([_dock()], [DOCK_WIDTH], Qt.Orientation.Horizontal)
    await asyncio.sleep(0.5)
    _peek(_dock(), "welcome")
    iface.mainWindow().resizeDocks([_dock()], [320], Qt.Orientation.Horizontal)
    await asyncio.sleep(0.5)
    _peek(_dock(), "welcome-320")
    iface.mainWindow().resizeDocks([_dock()], [DOCK_WIDTH], Qt.Orientation.Horizontal)
    from stacgis_agent.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(runtime.settings, parent=iface.mainWindow())
    dialog.show()
    for index, tab in enumerate(("model", "catalogs", "storage", "outside")):
        dialog.findChild(type(runtime.panel.tabs)).setCurrentIndex(index)
        await asyncio.sleep(0.3)
        _peek(dialog, f"settings-{tab}")
    dialog.reject()
    runtime.panel.tabs.setCurrentIndex(2)
    await asyncio.sleep(0.3)
    _peek(_dock(), "history")
    runtime.panel.tabs.setCurrentIndex(1)
    await asyncio.sleep(0.3)
    _peek(_dock(), "sessions")
    runtime.panel.tabs.setCurrentIndex(0)

    from osgeo import gdal

    tif = ROOT / "resources/demo_catalog/collections/demo-ndvi/items/demo-ndvi-2025-06-15.tif"
    dataset = gdal.Open(str(tif))  # kept: a band outlives its dataset only as a dangling pointer
    band = dataset.GetRasterBand(1)
    raw = band.ReadAsArray().astype("float64")
    valid = raw[raw != band.GetNoDataValue()] * band.GetScale()
    question, answer = SESSION[LANG]
    emulator.script(
        Turn(thinking=THINKING[LANG][0],
             tool_calls=[("search_items", {"collections": ["demo-ndvi"], "datetime": "2025-06-01/2025-06-30",
                                           "bbox": [4.82, 45.75, 4.85, 45.77]})]),
        Turn(thinking=THINKING[LANG][1],
             tool_calls=[("load_stac_asset", {"collection": "demo-ndvi", "item_id": "demo-ndvi-2025-06-15"})]),
        Turn(tool_calls=[("get_raster_statistics", {"source": "demo-ndvi demo-ndvi-2025-06-15", "exact": True})]),
        Turn(content=answer.format(mean=_decimal(valid.mean()), min=_decimal(valid.min()), max=_decimal(valid.max()),
                                   count=f"{valid.size:,}".replace(",", "\u202f")),
             prompt_eval_count=4210, eval_count=118, eval_duration_ns=2_400_000_000),
    )
    panel = runtime.panel
    panel.input.setPlainText(question)
    panel.input.submit()
    await asyncio.sleep(0.2)
    while panel.session.busy:
        await asyncio.sleep(0.05)
    iface.mapCanvas().refreshAllLayers()
    await asyncio.sleep(2.0)


def _save(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    ok = _dock().grab().save(str(path))
    print(f"screenshot {'saved to' if ok else 'FAILED:'} {path}", flush=True)


async def narrow_and_failing() -> None:
    """The chat at 320 px, then a turn that goes wrong: a tool the model made up, then its server failing."""
    _save(OUT)
    _peek(iface.mainWindow(), "window")
    if not NARROW:
        return
    iface.mainWindow().resizeDocks([_dock()], [320], Qt.Orientation.Horizontal)
    await asyncio.sleep(1.0)
    _save(OUT.with_name(f"{OUT.stem}-320.png"))
    emulator.script(Turn(tool_calls=[("buffer_parcels", {"distance": 10})]),
                    Turn(http_status=500, http_error="llama runner process has terminated: signal: killed"))
    panel = plugins["stacgis_agent"].runtime.panel
    panel.input.setPlainText(FAILING[LANG])
    panel.input.submit()
    await asyncio.sleep(0.2)
    while panel.session.busy:
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    _save(OUT.with_name(f"{OUT.stem}-320-error.png"))


def finish(task) -> None:
    if task.exception():
        print("screenshots failed:", repr(task.exception()), flush=True)
    emulator.stop()
    QTimer.singleShot(200, QgsApplication.instance().quit)


def start() -> None:
    task = asyncio.ensure_future(session())
    task.add_done_callback(lambda t: (t.exception() and print("session failed:", repr(t.exception()), flush=True),
                                      QTimer.singleShot(500, lambda: asyncio.ensure_future(
                                          narrow_and_failing()).add_done_callback(finish))))


iface.mainWindow().resize(1600, 1000)
iface.mainWindow().showMaximized()
QTimer.singleShot(4000, start)
