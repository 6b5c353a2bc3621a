"""Wiring only: the toolbar/menu action, the dock, logging, the event loop, and teardown."""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from qgis.core import QgsApplication
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtGui import QIcon
from qgis.PyQt.QtWidgets import QAction

from .host import requirements
from .host import message_log
from .host.paths import resources_path

LOG = logging.getLogger(__name__)
MENU = "&STAC GIS Agent"
ACTION_NAME = "StacGisAgentToggleDock"


class StacGisAgentPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.action = None
        self.dock = None
        self.log_handler = None
        self.tasks = None
        self.runtime = None

    # QGIS entry points -------------------------------------------------------------------
    def initGui(self):  # noqa: N802
        from .ui.dock import StacAgentDock

        self.log_handler = message_log.install()
        main_window = self.iface.mainWindow()
        self.action = QAction(QIcon(str(resources_path("icons", "stacgis_agent.svg"))),
                              "STAC GIS Agent", main_window)
        self.action.setObjectName(ACTION_NAME)
        self.action.setCheckable(True)
        self.action.setToolTip("Show or hide the STAC GIS Agent chat")
        self.iface.addToolBarIcon(self.action)
        self.iface.addPluginToMenu(MENU, self.action)

        self.dock = StacAgentDock(main_window)
        self.iface.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.setToggleVisibilityAction(self.action)  # keeps action and dock in sync
        self.dock.requirements_panel.install_requested.connect(self._install_dependencies)
        self.dock.setUserVisible(True)
        self._start()

    def unload(self):
        if self.runtime is not None:
            self.runtime.shutdown()
            self.runtime = None
        if self.tasks is not None:
            self.tasks.cancel_all()
            self.tasks = None
        if self.dock is not None:
            self.dock.requirements_panel.stop()
            self.iface.removeDockWidget(self.dock)
            self.dock.setParent(None)
            self.dock.deleteLater()
            self.dock = None
        if self.action is not None:
            self.iface.removePluginMenu(MENU, self.action)
            self.iface.removeToolBarIcon(self.action)
            self.action.setParent(None)
            self.action.deleteLater()
            self.action = None
        if self.log_handler is not None:
            message_log.uninstall(self.log_handler)
            self.log_handler = None

    # Requirements ------------------------------------------------------------------------
    def _private_dir(self) -> Path:
        return requirements.private_site_dir(QgsApplication.qgisSettingsDirPath())

    def _start(self) -> None:
        requirements.add_to_sys_path(self._private_dir())
        problems = requirements.check_requirements()
        if problems:
            LOG.warning("Missing requirements: %s", requirements.describe(problems))
            can_install = bool(requirements.specs_to_install(problems)) and \
                requirements.find_python_executable() is not None
            text = requirements.describe(problems)
            if requirements.find_python_executable() is None:
                text += "\nQGIS's Python interpreter was not found; install the packages with pip by hand."
            self.dock.show_dependencies(text, can_install)
            self.dock.set_status("Requirements missing — see above.", ok=False)
            return
        self.dock.show_chat()
        self._start_runtime()

    def _install_dependencies(self) -> None:
        problems = requirements.check_requirements()
        target = self._private_dir()
        target.mkdir(parents=True, exist_ok=True)
        constraints = Path(tempfile.mkdtemp(prefix="stacgis-agent-")) / "constraints.txt"
        constraints.write_text("\n".join(requirements.constraints_for_present()) + "\n")
        command = requirements.pip_install_command(
            requirements.find_python_executable(), target,
            requirements.specs_to_install(problems), constraints)
        self.dock.set_status("Installing dependencies…")
        self.dock.requirements_panel.run_install(command, self._after_install)

    def _after_install(self, ok: bool) -> None:
        if self.dock is None:
            return
        if not ok:
            self.dock.set_status("pip failed — see its output above; check your network or proxy.", ok=False)
            return
        self._start()

    # Runtime -----------------------------------------------------------------------------
    def _start_runtime(self) -> None:
        from .host.qt_asyncio import TaskRegistry, attach_event_loop
        from .host.runtime import AgentRuntime

        self.tasks = TaskRegistry(attach_event_loop())
        self.runtime = AgentRuntime(self.iface, self.dock, self.tasks)
        self.runtime.start()
