"""The STAC catalogs table of the settings: add, remove, test; static or API; headers."""

from __future__ import annotations

from qgis.PyQt.QtCore import pyqtSignal
from qgis.PyQt.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..agent.config import CatalogConfig

COLUMNS = ("Name", "URL or path", "Kind", "Headers (Key: value; …)")


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

    def __init__(self, parent=None):
        super().__init__(parent)
        self._extra: list[CatalogConfig] = []  # fields the table does not show (auth_cfg, …)
        layout = QVBoxLayout(self)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        layout.addWidget(self.table)
        row = QHBoxLayout()
        self.add_button = QPushButton("Add")
        self.add_button.clicked.connect(lambda: self.add_catalog(CatalogConfig(name="", url="")))
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(self.remove_selected)
        self.test_button = QPushButton("Test")
        self.test_button.clicked.connect(self._test_selected)
        for button in (self.add_button, self.remove_button, self.test_button):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)

    def set_catalogs(self, catalogs: list[CatalogConfig]) -> None:
        self.table.setRowCount(0)
        self._extra = []
        for catalog in catalogs:
            self.add_catalog(catalog)

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
        self._extra.append(catalog)
        self.table.setCurrentCell(row, 0)

    def remove_selected(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.table.removeRow(row)
            del self._extra[row]

    def catalog_at(self, row: int) -> CatalogConfig:
        base = self._extra[row]
        return CatalogConfig(name=self.table.item(row, 0).text().strip(), url=self.table.item(row, 1).text().strip(),
                             kind=self.table.cellWidget(row, 2).currentText(),
                             headers=headers_from_text(self.table.item(row, 3).text()),
                             auth_cfg=base.auth_cfg, s3_requester_pays=base.s3_requester_pays)

    def catalogs(self) -> list[CatalogConfig]:
        return [self.catalog_at(row) for row in range(self.table.rowCount())]

    def _test_selected(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.test_requested.emit(self.catalog_at(row))
