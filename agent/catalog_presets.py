"""The catalogs analysts use, ready to add from a list in Settings → Catalogs (and editable afterwards):
each carries its root URL and how its assets are read; what the user still has to give is in `needs`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .config import CatalogConfig
from .dock_text import translatable

ACCESS_METHODS = {  # how a catalog lets a client read (tools/stac/access.py applies them)
    "none": "Public (no credentials)",
    "headers": "Fixed HTTP headers",
    "qgis_auth": "QGIS authentication (Basic, API header, OAuth2)",
    "bearer": "Bearer token (e.g. NASA Earthdata)",
    "planetary_computer": "Planetary Computer SAS signing",
    "s3": "S3 credentials (auth config or AWS profile)",
}


def access_method(config: CatalogConfig) -> str:
    """The catalog's access method; older settings without one: headers when it has some, else public."""
    if config.access in ACCESS_METHODS:
        return config.access
    return "headers" if config.headers else "none"


@dataclass(frozen=True)
class CatalogPreset:
    label: str
    config: CatalogConfig
    needs: str = ""  # what the user must add (an auth config, a URL), said when the preset is added
    # label and needs are translatable texts: the dock shows them with its tr (agent/dock_text.py)

    def new_config(self) -> CatalogConfig:
        return dataclasses.replace(self.config, headers=dict(self.config.headers),
                                   asset_hosts=list(self.config.asset_hosts))


PRESETS: tuple[CatalogPreset, ...] = (
    CatalogPreset(translatable("Earth Search (Element 84)"), CatalogConfig(
        "Earth Search", "https://earth-search.aws.element84.com/v1", access="none", preset="earth-search",
        s3_region="us-west-2"),
        translatable("Public: Sentinel-2 COGs over https. Its Landsat assets are requester-pays S3: use the USGS "
                     "Landsat preset.")),
    CatalogPreset(translatable("Microsoft Planetary Computer"), CatalogConfig(
        "Planetary Computer", "https://planetarycomputer.microsoft.com/api/stac/v1", access="planetary_computer",
        preset="planetary-computer"),
        translatable("Assets are signed with short-lived SAS tokens fetched as needed; nothing to add.")),
    CatalogPreset(translatable("USGS Landsat (requester-pays S3)"), CatalogConfig(
        "USGS Landsat", "https://landsatlook.usgs.gov/stac-server", access="s3", preset="usgs-landsat",
        s3_requester_pays=True, s3_region="us-west-2", asset_hosts=["usgs-landsat"]),
        translatable("Your AWS account pays for the reads: choose an auth config (Basic: access key id as user "
                     "name, secret as password), or leave it empty to use your AWS profile.")),
    CatalogPreset(translatable("NASA CMR-STAC / LP DAAC (Earthdata login)"), CatalogConfig(
        "NASA LP DAAC", "https://cmr.earthdata.nasa.gov/stac/LPCLOUD", access="bearer", preset="nasa-lpdaac",
        asset_hosts=["data.lpdaac.earthdatacloud.nasa.gov"]),
        translatable("Choose an auth config whose password is your Earthdata token (urs.earthdata.nasa.gov → "
                     "Generate Token).")),
    CatalogPreset(translatable("Copernicus Data Space Ecosystem"), CatalogConfig(
        "Copernicus Data Space", "https://stac.dataspace.copernicus.eu/v1", access="s3", preset="copernicus",
        s3_endpoint="https://eodata.dataspace.copernicus.eu", s3_region="default", asset_hosts=["eodata"]),
        translatable("Choose an auth config with your CDSE S3 keys (access key as user name, secret key as "
                     "password).")),
    CatalogPreset(translatable("A STAC API URL"), CatalogConfig("", "", kind="api", access="none", preset="api"),
                  translatable("Type the API root URL, then Test.")),
    CatalogPreset(translatable("A static catalog (URL or folder)"),
                  CatalogConfig("", "", kind="static", access="none", preset="static"),
                  translatable("Type the catalog.json URL or a folder path, then Test.")),
)
