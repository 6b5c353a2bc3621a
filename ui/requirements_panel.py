"""Shown instead of the chat when requirements are missing: what is missing, and one button
that installs it with QGIS's own Python into the plugin-private folder (without freezing QGIS)."""

from __future__ import annotations

from qgis.PyQt.QtCore import QProcess, pyqtSignal
from qgis.PyQt.QtWidgets import QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from .i18n import tr


class RequirementsPanel(QWidget):
    install_requested = pyqtSignal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.install_button = QPushButton(tr("Install dependencies"))
        self.install_button.clicked.connect(self.install_requested)
        self.output = QPlainTextEdit()
        self.output.setReadOnly(True)
        self.output.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.install_button)
        layout.addWidget(self.output, 1)
        self._process: QProcess | None = None

    def show_problems(self, text: str, can_install: bool) -> None:
        self.summary.setText(tr("STAC GIS Agent needs a few Python packages that QGIS does not ship:") + "\n"
                             + text)
        self.install_button.setVisible(can_install)
        self.install_button.setEnabled(can_install)

    def run_install(self, command: list[str], on_finished) -> None:
        """Runs pip as a QProcess so QGIS stays responsive; streams its output into the panel."""
        self.install_button.setEnabled(False)
        self.output.setVisible(True)
        self.output.appendPlainText("$ " + " ".join(command))
        process = QProcess(self)
        process.setProcessChannelMode(QProcess.ProcessChannelMode.MergedChannels)
        process.readyReadStandardOutput.connect(
            lambda: self.output.appendPlainText(bytes(process.readAllStandardOutput()).decode(errors="replace")))
        process.finished.connect(lambda code, _status: self._finished(code, on_finished))
        self._process = process
        process.start(command[0], command[1:])

    def _finished(self, code: int, on_finished) -> None:
        self.install_button.setEnabled(True)
        self._process = None
        on_finished(code == 0)

    def stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.waitForFinished(2000)
            self._process = None
