"""No code runs and no file moves without the OK (issue 23 items 1, 2, 4; issue 27 item 1): real algorithms
through the official `mcp` client answering "decline" (or without elicitation), marker files that must not
appear, a recording HTTP server on another loopback host, and the files on disk."""

from __future__ import annotations

import http.server
import threading

import httpx
import pytest
from mcp import Client
from mcp_types import ElicitResult
from osgeo import ogr
from qgis.core import Qgis, QgsApplication, QgsProject, QgsVectorLayer

from stacgis_agent.tools.canvas.processing import allowlist
from stacgis_agent.tools.canvas.processing.allowlist import UNCHECKED, is_listed, listed_id, role_of
from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_layers import city_layer
from testkit.servers.canvas_servers import canvas_deps
from testkit.worlds.gpkg_files import digest, rows_on_disk, write_gpkg


class Decliner:
    """An outside client on the in-process server that answers every question "decline"."""

    def __init__(self, server):
        self.server, self.asked = server, []

    async def _elicit(self, _context, params):
        self.asked.append(params.message)
        return ElicitResult(action="decline")

    async def call(self, algorithm_id: str, parameters: dict):
        async with Client(self.server, elicitation_callback=self._elicit) as client:
            return await client.call_tool("run_processing_algorithm",
                                          {"algorithm_id": algorithm_id, "parameters": parameters})


@pytest.fixture
async def world(qgis_iface, qgis_new_project, qgis_processing, tmp_path):
    QgsProject.instance().addMapLayer(city_layer())
    outputs = tmp_path / "outputs"
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(outputs), qgis_iface)
        yield deps, build_server(deps, canvas=True), tmp_path
    QgsProject.instance().removeAllMapLayers()


async def test_python_calculator_and_gdal_calc_never_run_and_are_not_offered(world):
    _, server, tmp = world
    marker = tmp / "PWNED"
    asking = Decliner(server)
    python = await asking.call("qgis:advancedpythonfieldcalculator", {
        "INPUT": "cities", "FIELD_NAME": "x", "GLOBAL": f"open({str(marker)!r}, 'w')", "FORMULA": "value = 1"})
    calc = await asking.call("gdal:rastercalculator", {
        "INPUT_A": "cities", "BAND_A": 1, "FORMULA": f"A*0+__import__('os').system('touch {marker}')"})
    assert python.is_error and "not offered" in python.content[0].text
    assert calc.is_error and "qgis:rastercalculator" in calc.content[0].text
    assert asking.asked == [] and not marker.exists()
    async with Client(server) as client:
        found = await client.call_tool("search_processing_algorithms", {"query": "calculator", "limit": 30})
    ids = {a["id"] for a in found.structured_content["algorithms"]}
    assert "qgis:fieldcalculator" in ids or "native:fieldcalculator" in ids
    assert not ids & {"qgis:advancedpythonfieldcalculator", "gdal:rastercalculator"}


async def test_an_expression_parameter_asks_first_and_nothing_is_written(world):
    deps, server, _ = world
    target = deps.output_dir() / "scored.gpkg"  # a new file in the output folder: only the expression asks
    asking = Decliner(server)
    result = await asking.call("native:fieldcalculator", {"INPUT": "cities", "FIELD_NAME": "score",
                                                          "FORMULA": "\"population\" * 2", "OUTPUT": str(target)})
    assert result.is_error and "declined" in result.content[0].text
    assert "as a QGIS expression, which can call Python functions" in asking.asked[0]
    assert not target.exists()


class Recorder(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 - http.server API
        Recorder.hits.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"fetched")

    def log_message(self, *args):
        pass


@pytest.fixture
def recorder():
    Recorder.hits = []
    server = http.server.ThreadingHTTPServer(("127.0.0.2", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.2:{server.server_address[1]}"
    server.shutdown()


async def test_the_file_downloader_asks_first_and_fetches_nothing_when_declined(world, recorder):
    deps, server, _ = world
    target = deps.output_dir() / "fetched.txt"
    asking = Decliner(server)
    result = await asking.call("native:filedownloader", {"URL": f"{recorder}/secret", "OUTPUT": str(target)})
    assert result.is_error and f"downloads {recorder}/secret" in asking.asked[0]
    assert Recorder.hits == [] and not target.exists()


async def test_an_outside_client_cannot_copy_a_local_file_with_file_urls(world, tmp_path_factory):
    deps, server, _ = world
    secret = tmp_path_factory.mktemp("private") / "secret.txt"
    secret.write_text("not for outside clients")
    deps.outside_client = True
    for url in (f"file://{secret}", str(secret)):
        async with Client(server, elicitation_callback=lambda *_: ElicitResult(action="accept",
                                                                                  content={"confirm": True})) as c:
            result = await c.call_tool("run_processing_algorithm", {"algorithm_id": "native:filedownloader",
                                       "parameters": {"URL": url, "OUTPUT": str(deps.output_dir() / "copy.txt")}})
        assert result.is_error and "not available to outside MCP clients" in result.content[0].text
    assert list(deps.output_dir().iterdir()) == []


async def test_an_output_without_extension_is_judged_on_the_file_processing_writes(world):
    deps, server, _ = world
    existing = deps.output_dir() / "my_analysis.gpkg"
    write_gpkg(existing, "earlier", 2, spacing=1.0)
    before = existing.read_bytes()
    asking = Decliner(server)
    result = await asking.call("native:buffer", {"INPUT": "cities", "DISTANCE": "0.1 deg",
                                                 "OUTPUT": str(deps.output_dir() / "my_analysis")})
    assert result.is_error
    assert f"overwrites the existing file {existing}" in asking.asked[0]
    assert "'earlier' (2 features)" in asking.asked[0]
    assert existing.read_bytes() == before


async def test_a_shapefile_output_that_would_replace_sidecars_asks_first(world):
    deps, server, _ = world
    out = deps.output_dir()
    for extra in ("dbf", "prj", "cpg"):
        (out / f"roads.{extra}").write_text(f"precious {extra}")
    asking = Decliner(server)
    result = await asking.call("native:buffer", {"INPUT": "cities", "DISTANCE": "0.1 deg", "OUTPUT": str(out / "roads.shp")})
    assert result.is_error and "roads.dbf, roads.prj, roads.cpg" in asking.asked[0]
    assert sorted(p.name for p in out.iterdir()) == ["roads.cpg", "roads.dbf", "roads.prj"]
    assert (out / "roads.dbf").read_text() == "precious dbf"


async def test_the_card_says_which_layer_is_replaced_with_how_many_features(world):
    deps, server, tmp = world
    gpkg = write_gpkg(tmp / "city.gpkg", "parcels", 4, spacing=1.0)
    write_gpkg(gpkg, "wells", 3, spacing=1.0)
    QgsProject.instance().addMapLayer(QgsVectorLayer(f"{gpkg}|layername=wells", "wells", "ogr"))
    asking = Decliner(server)
    await asking.call("native:buffer", {"INPUT": "wells", "DISTANCE": 10,
                                        "OUTPUT": f"ogr:dbname='{gpkg}' table=\"parcels\" (geom)"})
    [message] = asking.asked
    assert "Buffer 'wells' (3 features) by 10" in message
    assert (f"replaces the existing layer 'parcels' (4 features) in GeoPackage {gpkg} with output OUTPUT, outside "
            f"the plugin's output folder {deps.output_dir()}; its other layer stays") in message, message
    assert rows_on_disk(gpkg, "parcels") == 4


@pytest.mark.parametrize("form", ["table", "table without its name", "shapefile"])
async def test_an_output_that_is_its_own_input_is_refused_before_anyone_is_asked(world, form):
    """QGIS empties a destination before the algorithm reads its input: Yes would leave the table empty."""
    deps, server, tmp = world
    if form == "shapefile":
        source = tmp / "parcels.shp"
        ogr_layer = ogr.GetDriverByName("ESRI Shapefile").CreateDataSource(str(source))
        table = ogr_layer.CreateLayer("parcels", geom_type=ogr.wkbPoint)
        for i in range(4):
            feature = ogr.Feature(table.GetLayerDefn())
            feature.SetGeometry(ogr.CreateGeometryFromWkt(f"POINT ({5 + i} 45)"))
            table.CreateFeature(feature)
        ogr_layer = table = None
        layer, output, watched = QgsVectorLayer(str(source), "parcels", "ogr"), str(source), tmp / "parcels.dbf"
    else:
        gpkg = write_gpkg(tmp / "city.gpkg", "parcels", 4, spacing=1.0)
        uri = str(gpkg) if form == "table without its name" else f"{gpkg}|layername=parcels"
        layer, watched = QgsVectorLayer(uri, "parcels", "ogr"), gpkg
        output = f"ogr:dbname='{gpkg}' table=\"parcels\" (geom)"
    assert layer.isValid() and layer.featureCount() == 4
    QgsProject.instance().addMapLayer(layer)
    before = digest(watched)
    asking = Decliner(server)
    result = await asking.call("native:buffer", {"INPUT": "parcels", "DISTANCE": 10, "OUTPUT": output})
    assert result.is_error and asking.asked == []  # nobody is asked to destroy the data it reads
    text = result.content[0].text
    assert "which is also the input 'parcels'" in text and "so its data would be lost" in text, text
    assert digest(watched) == before and layer.featureCount() == 4


def test_every_listed_algorithm_has_a_role_for_each_parameter(qgis_processing):
    """The list is read parameter by parameter: a free-text parameter nobody judged is a gap in the list."""
    listed = [alg for alg in QgsApplication.processingRegistry().algorithms() if is_listed(listed_id(alg))]
    assert len(listed) > 300
    unjudged = [(alg.id(), p.name()) for alg in listed for p in alg.parameterDefinitions()
                if not p.isDestination() and role_of(listed_id(alg), p.name(), p.type()) == UNCHECKED
                and p.type() not in ("dxflayers", "vectortilewriterlayers", "tininputlayers", "idw_interpolation_data")
                and p.name() not in ("XYZ_TEMPLATE", "DEVICE", "PORT", "FORMAT")]
    if Qgis.QGIS_VERSION_INT < 32300:  # the QGIS the list was read from: every free-text parameter judged
        assert unjudged == []
        return
    # a newer QGIS adds parameters (e.g. CREATE_OPTIONS on 3.40): nobody judged them, so each one asks first
    from stacgis_agent.tools.canvas.processing.effects import _parameter_effect

    registry = QgsApplication.processingRegistry()
    for algorithm_id, name in unjudged:
        alg = registry.algorithmById(algorithm_id)
        definition = alg.parameterDefinition(name)
        assert _parameter_effect(None, alg, definition, "-co SOMETHING=1"), (algorithm_id, name)


def test_an_algorithm_qgis_renamed_after_3_22_is_judged_by_its_listed_entry(qgis_processing):
    """QGIS 3.40 runs qgis:basicstatisticsforfields, qgis:concavehull… as native:… (the old id an alias): every listed
    id still finds an algorithm judged as listed, not an unknown one whose every call asks and whose checks
    (the unweighted rate, the units of the lengths it adds) are skipped."""
    registry = QgsApplication.processingRegistry()
    found = {i: registry.algorithmById(i) for i in sorted(allowlist.DATA_ONLY | set(allowlist.TEXT_ROLES))}
    unknown = [(i, alg.id()) for i, alg in found.items() if alg is not None and not is_listed(listed_id(alg))]
    assert unknown == []
    statistics = registry.algorithmById("qgis:basicstatisticsforfields")
    assert listed_id(statistics) == "qgis:basicstatisticsforfields"
