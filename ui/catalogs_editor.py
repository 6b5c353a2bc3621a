"""The STAC catalogs table of the settings: add (blank or from the list of known catalogs), remove, test; and,
for the selected catalog, how its assets are read (access method, auth config, S3 settings)."""

from __future__ import annotations

import dataclasses

from qgis.gui import QgsAuthConfigSelect
from qgis.PyQt.QtCore import pyqtSignal
from qgis.PyQt.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..agent.catalog_presets import ACCESS_METHODS, PRESETS, CatalogPreset, access_method
from ..agent.config import CatalogConfig
from .i18n import tr, translatable

COLUMNS = (translatable("Name"), translatable("URL or path"),
           translatable("Kind"), translatable("Headers"))
HEADERS_TIP = translatable("Extra HTTP headers for this catalog, as Key: value; Key2: value2 "
                           "(secrets belong in an auth config)")
NEEDS_AUTH = ("qgis_auth", "bearer", "s3")
# agent.catalog_presets.ACCESS_METHODS's labels, for the catalog (agent/ has no Qt to translate them)
ACCESS_LABELS = {
    "none": translatable("Public (no credentials)"),
    "headers": translatable("Fixed HTTP headers"),
    "qgis_auth": translatable("QGIS authentication (Basic, API header, OAuth2)"),
    "bearer": translatable("Bearer token (e.g. NASA Earthdata)"),
    "planetary_computer": translatable("Planetary Computer SAS signing"),
    "s3": translatable("S3 credentials (auth config or AWS profile)"),
}


def headers_to_text(headers: dict[str, str]) -> str:
    return "; ".join(f"{k}: {v}" for k, v in headers.items())


def headers_from_text(text: str) -> dict[str, str]:
    headers = {}
    for part in text.split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            headers[key.strip()] = value.strip()
        elif part.strip():
            headers[part.strip()] = ""  # kept so validation can say it is not a header
    return headers


class CatalogsEditor(QWidget):
    test_requested = pyqtSignal(object)  # CatalogConfig of the selected row
    browser_requested = pyqtSignal(object)  # CatalogConfig of the selected row, to add to QGIS's Browser

    def __init__(self, parent=None):
        super().__init__(parent)
        self._extra: list[CatalogConfig] = []  # per row, the fields the table does not show (access, S3, …)
        self._loading = False
        layout = QVBoxLayout(self)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([tr(column) for column in COLUMNS])
        self.table.horizontalHeaderItem(3).setToolTip(tr(HEADERS_TIP))
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.currentCellChanged.connect(lambda row, *_: self._show_access(row))
        layout.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.preset_button = QPushButton(tr("Add from list…"))
        self.preset_menu = QMenu(self.preset_button)
        for item in PRESETS:
            action = self.preset_menu.addAction(tr(item.label))
            action.triggered.connect(lambda _checked=False, p=item: self.add_preset(p))
        self.preset_button.setMenu(self.preset_menu)
        self.add_button = QPushButton(tr("Add"))
        self.add_button.clicked.connect(lambda: self.add_catalog(CatalogConfig(name="", url="")))
        self.remove_button = QPushButton(tr("Remove"))
        self.remove_button.clicked.connect(self.remove_selected)
        self.test_button = QPushButton(tr("Test"))
        self.test_button.setToolTip(tr("Searches the catalog, then reads the header of one asset with its access method"))
        self.test_button.clicked.connect(self._test_selected)
        self.browser_button = QPushButton(tr("Add to Browser"))
        self.browser_button.clicked.connect(self._browser_selected)
        self.offer_browser("")
        for button in (self.preset_button, self.add_button, self.remove_button, self.test_button, self.browser_button):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self._access_box())
        self._show_access(-1)

    def _access_box(self) -> QGroupBox:
        box = QGroupBox(tr("Access for the selected catalog"))
        form = QFormLayout(box)
        self.access = QComboBox()
        for key, label in ACCESS_METHODS.items():
            self.access.addItem(tr(ACCESS_LABELS.get(key, label)), key)
        self.auth_cfg = QgsAuthConfigSelect(self)
        self.requester_pays = QCheckBox(tr("Requester pays (your AWS account is charged for reads)"))
        self.region = QLineEdit()
        self.region.setPlaceholderText(tr("e.g. us-west-2"))
        self.endpoint = QLineEdit()
        self.endpoint.setPlaceholderText(tr("S3-compatible store, e.g. https://eodata.dataspace.copernicus.eu"))
        self.asset_hosts = QLineEdit()
        self.asset_hosts.setPlaceholderText(tr("other hosts or buckets that get these credentials, comma-separated"))
        self.token_url = QLineEdit()
        self.token_url.setPlaceholderText(tr("default: the public Planetary Computer token API"))
        self.needs = QLabel()
        self.needs.setWordWrap(True)
        form.addRow(tr("Method"), self.access)
        form.addRow(tr("Auth config"), self.auth_cfg)
        form.addRow("", self.requester_pays)
        form.addRow(tr("S3 region"), self.region)
        form.addRow(tr("S3 endpoint"), self.endpoint)
        form.addRow(tr("Asset hosts"), self.asset_hosts)
        form.addRow(tr("SAS token API"), self.token_url)
        form.addRow(self.needs)
        self.access.currentIndexChanged.connect(lambda _i: self._store_access())
        self.auth_cfg.selectedConfigIdChanged.connect(lambda _id: self._store_access())
        self.requester_pays.toggled.connect(lambda _on: self._store_access())
        for edit in (self.region, self.endpoint, self.asset_hosts, self.token_url):
            edit.textChanged.connect(lambda _t: self._store_access())
        return box

    def set_catalogs(self, catalogs: list[CatalogConfig]) -> None:
        self.table.setRowCount(0)
        self._extra = []
        for catalog in catalogs:
            self.add_catalog(catalog)

    def add_preset(self, item: CatalogPreset) -> None:
        self.add_catalog(item.new_config())
        self.needs.setText(tr(item.needs))

    def add_catalog(self, catalog: CatalogConfig) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(catalog.name))
        self.table.setItem(row, 1, QTableWidgetItem(catalog.url))
        kind = QComboBox()
        kind.addItems(["api", "static"])
        kind.setCurrentText(catalog.kind)
        self.table.setCellWidget(row, 2, kind)
        self.table.setItem(row, 3, QTableWidgetItem(headers_to_text(catalog.headers)))
        self._extra.append(dataclasses.replace(catalog, access=access_method(catalog)))
        self.table.setCurrentCell(row, 0)
        self._show_access(row)

    def remove_selected(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            del self._extra[row]
            self.table.removeRow(row)
            self._show_access(self.table.currentRow())

    def catalog_at(self, row: int) -> CatalogConfig:
        return dataclasses.replace(
            self._extra[row], name=self.table.item(row, 0).text().strip(), url=self.table.item(row, 1).text().strip(),
            kind=self.table.cellWidget(row, 2).currentText(), headers=headers_from_text(self.table.item(row, 3).text()))

    def catalogs(self) -> list[CatalogConfig]:
        return [self.catalog_at(row) for row in range(self.table.rowCount())]

    def _show_access(self, row: int) -> None:
        """Loads the selected row's access settings into the form below the table."""
        valid = 0 <= row < len(self._extra)
        self._loading = True
        try:
            config = self._extra[row] if valid else CatalogConfig("", "")
            self.access.setCurrentIndex(max(0, self.access.findData(access_method(config))))
            self.auth_cfg.setConfigId(config.auth_cfg)
            self.requester_pays.setChecked(config.s3_requester_pays)
            self.region.setText(config.s3_region)
            self.endpoint.setText(config.s3_endpoint)
            self.asset_hosts.setText(", ".join(config.asset_hosts))
            self.token_url.setText(config.token_url)
        finally:
            self._loading = False
        for widget in (self.access, self.auth_cfg, self.requester_pays, self.region, self.endpoint, self.asset_hosts,
                       self.token_url):
            widget.setEnabled(valid)
        self._enable_for(self.access.currentData())

    def _enable_for(self, method: str) -> None:
        s3 = method == "s3"
        self.auth_cfg.setEnabled(method in NEEDS_AUTH and self.access.isEnabled())
        for widget in (self.region, self.endpoint):
            widget.setEnabled(s3 and self.access.isEnabled())
        self.requester_pays.setEnabled(method in ("s3", "none") and self.access.isEnabled())
        self.token_url.setEnabled(method == "planetary_computer" and self.access.isEnabled())

    def _store_access(self) -> None:
        row = self.table.currentRow()
        if self._loading or not 0 <= row < len(self._extra):
            return
        method = self.access.currentData()
        self._extra[row] = dataclasses.replace(
            self._extra[row], access=method, auth_cfg=self.auth_cfg.configId(),
            s3_requester_pays=self.requester_pays.isChecked(), s3_region=self.region.text().strip(),
            s3_endpoint=self.endpoint.text().strip(), token_url=self.token_url.text().strip(),
            asset_hosts=[h.strip() for h in self.asset_hosts.text().split(",") if h.strip()])
        self._enable_for(method)

    def offer_browser(self, unavailable: str) -> None:
        """The Add to Browser button: usable, or greyed out with why (`unavailable`: "" when it can be used)."""
        self.browser_button.setEnabled(not unavailable)
        self.browser_button.setToolTip(unavailable or tr("Adds the selected catalog to QGIS's Browser as a STAC "
                                                         "connection (its URL and auth config; headers stay here, "
                                                         "they may be secrets)"))

    def _browser_selected(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.browser_requested.emit(self.catalog_at(row))

    def _test_selected(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.test_requested.emit(self.catalog_at(row))
