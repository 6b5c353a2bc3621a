"""The plugin's entry points: the toolbar/menu action, the dock, logging, the event loop, the requirements
flow (check, Install dependencies, start without a restart), the Processing provider, the locator, teardown.
Once the requirements are met, `runtime.AgentRuntime` builds the agent's pieces and connects them to the dock.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from qgis.core import QgsApplication
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtGui import QIcon
from qgis.PyQt.QtWidgets import QAction

from ..agent.paths import PLUGIN_DIR, resources_path
from ..host import message_log, requirements
from ..ui.i18n import install_translator, remove_translator, tr, ui_language

LOG = logging.getLogger(__name__)
MENU = "&STAC GIS Agent"
ACTION_NAME = "StacGisAgentToggleDock"
HELP_ACTION_NAME = "StacGisAgentHelp"


class StacGisAgentPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.action = None
        self.dock = None
        self.log_handler = None
        self.tasks = None
        self.runtime = None
        self.locator_filter = None
        self.processing_provider = None
        self.translator = None
        self.help_action = None
        self.guide = None  # ui.guide_viewer.GuideWindow, made when Help is first asked for

    # QGIS entry points -------------------------------------------------------------------
    def initProcessing(self):  # noqa: N802 (QGIS's name: qgis_process calls it, with no iface and no initGui)
        """The analyses as Processing algorithms, on their own: registered once the requirements are met;
        before that the log says what is missing (the dock offers the install when QGIS has a window)."""
        if self.processing_provider is not None:
            return
        requirements.add_to_sys_path(self._private_dir())
        problems = self._problems()
        if problems:
            LOG.warning("The STAC GIS Agent algorithms need the plugin's requirements: %s",
                        requirements.describe(problems))
            return
        self._register_processing()

    def initGui(self):  # noqa: N802
        from ..ui.dock import StacAgentDock

        self.log_handler = message_log.install()
        self.translator = install_translator(PLUGIN_DIR)  # before any widget reads its texts
        main_window = self.iface.mainWindow()
        self.action = QAction(QIcon(str(resources_path("icons", "stacgis_agent.svg"))),
                              "STAC GIS Agent", main_window)
        self.action.setObjectName(ACTION_NAME)
        self.action.setCheckable(True)
        self.action.setToolTip(tr("Show or hide the STAC GIS Agent chat"))
        self.iface.addToolBarIcon(self.action)
        self.iface.addPluginToMenu(MENU, self.action)
        self.help_action = QAction(QgsApplication.getThemeIcon("/mActionHelpContents.svg"), tr("User guide"),
                                   main_window)
        self.help_action.setObjectName(HELP_ACTION_NAME)
        self.help_action.triggered.connect(self.show_guide)
        self.iface.addPluginToMenu(MENU, self.help_action)

        self.dock = StacAgentDock(main_window)
        self.iface.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.setToggleVisibilityAction(self.action)  # keeps action and dock in sync
        self.dock.requirements_panel.install_requested.connect(self._install_requirements)
        self.dock.help_requested.connect(self.show_guide)
        self.dock.setUserVisible(True)
        self._register_locator()
        self._start()

    def unload(self):
        if self.processing_provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.processing_provider)
            self.processing_provider = None
        if self.locator_filter is not None:
            self.iface.deregisterLocatorFilter(self.locator_filter)
            self.locator_filter = None
        if self.runtime is not None:
            self.runtime.shutdown()
            self.runtime = None
        if self.tasks is not None:
            self.tasks.cancel_all()
            self.tasks = None
        if self.guide is not None:
            self.guide.close()
            self.guide.deleteLater()
            self.guide = None
        if self.help_action is not None:
            self.iface.removePluginMenu(MENU, self.help_action)
            self.help_action.setParent(None)
            self.help_action.deleteLater()
            self.help_action = None
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
        remove_translator(self.translator)  # the application's texts as they were before the plugin
        self.translator = None

    # Help: the user guide, shipped with the plugin (docs/guide), in the dock's language where translated ------
    def show_guide(self) -> None:
        from ..ui.guide_viewer import GuideWindow

        if self.guide is None:
            self.guide = GuideWindow(PLUGIN_DIR / "docs", ui_language(), self.iface.mainWindow())
            self.guide.show_contents()
        self.guide.show()
        self.guide.raise_()
        self.guide.activateWindow()

    # The locator bar (Ctrl+K): "ask <question>" ---------------------------------------------
    def _register_locator(self) -> None:
        from ..host.locator import AskAgentFilter

        register = getattr(self.iface, "registerLocatorFilter", None)  # a bare test iface may lack it
        if register is not None:
            self.locator_filter = AskAgentFilter(self.ask, tr=tr)
            register(self.locator_filter)

    def ask(self, question: str) -> None:
        """Opens the dock and sends `question` to the chat (from the locator bar)."""
        if self.dock is None:
            return
        self.dock.setUserVisible(True)
        if self.runtime is None or self.runtime.panel is None:
            self.dock.set_status(tr("Install the requirements first (see above); then ask again."), ok=False)
            return
        panel = self.runtime.panel
        if panel.session.busy:
            self.dock.set_status(tr("The assistant is still answering; your question is in the box, send it when done."))
            panel.input.setPlainText(question)
            return
        panel.input.setPlainText(question)
        panel.input.submit()

    # Requirements ------------------------------------------------------------------------
    def _private_dir(self) -> Path:
        return requirements.private_site_dir(QgsApplication.qgisSettingsDirPath())

    def _problems(self) -> list:
        """What keeps the agent from starting, scale-out's packages included when the settings ask for
        them (one list: one click installs everything). Reading the settings imports only what QGIS
        ships (host.settings_store), so it cannot be what fails on a QGIS without the requirements."""
        return requirements.check_requirements(requirements.requirements_for(_scale_out()))

    def _start(self) -> None:
        """The bootstrap: imports only what QGIS ships until the requirements are met
        (tests/unit/test_architecture.py holds it to that)."""
        requirements.add_to_sys_path(self._private_dir())  # again after an install: fresh import caches
        problems = self._problems()
        if problems:
            self._show_requirements(problems)
            return
        self._start_agent()

    def _show_requirements(self, problems) -> None:
        LOG.warning("Missing requirements: %s", requirements.describe(problems))
        text = requirements.describe(problems)
        python = requirements.find_python_executable()
        pip_ok = python is not None and requirements.pip_available()
        if python is None:
            text += "\n" + tr("QGIS's Python interpreter was not found; install the packages with pip by hand.")
        elif not pip_ok:
            text += "\n" + requirements.pip_missing_advice()
        self.dock.show_dependencies(text, bool(requirements.specs_to_install(problems)) and pip_ok)
        self.dock.set_status(tr("Requirements missing — see above."), ok=False)

    def _start_agent(self) -> None:
        """Runs only once the requirements are met: from here on the plugin imports them."""
        self.dock.show_chat()
        from ..host.qt_asyncio import TaskRegistry, attach_event_loop
        from .runtime import AgentRuntime

        self.tasks = TaskRegistry(attach_event_loop())
        self.runtime = AgentRuntime(self.iface, self.dock, self.tasks)
        self.runtime.start()
        self._register_processing()

    def _register_processing(self) -> None:
        """The analyses as Processing algorithms (Toolbox, Modeler, batch, processing.run("stacgis:…"))."""
        from ..host.settings_store import data_folder, load_settings
        from ..tools.canvas.processing.provider import StacGisProvider
        from ..tools.server import build_server

        if self.processing_provider is not None:  # initProcessing already did
            return
        registry = QgsApplication.processingRegistry()
        if registry.providerById("stacgis") is not None:  # another instance of the plugin registered it
            LOG.warning("The Processing provider 'stacgis' is already registered; this instance adds none.")
            return
        outputs = data_folder() / "stacgis_agent" / "outputs"  # the chat's outputs folder (runtime.py)
        provider = StacGisProvider(load_settings, lambda: outputs, build_server)
        if registry.addProvider(provider):  # on failure QGIS deletes the provider: keep no reference to it
            self.processing_provider = provider

    def _install_requirements(self) -> None:
        target = self._private_dir()
        target.mkdir(parents=True, exist_ok=True)
        constraints = Path(tempfile.mkdtemp(prefix="stacgis-agent-")) / "constraints.txt"
        constraints.write_text("\n".join(requirements.constraints_for_present()) + "\n")
        command = requirements.pip_install_command(
            requirements.find_python_executable(), target, requirements.lock_for(_scale_out()), constraints)
        self.dock.set_status(tr("Installing dependencies…"))
        self.dock.requirements_panel.run_install(command, self._after_install)

    def _after_install(self, ok: bool) -> None:
        if self.dock is None:
            return
        if not ok:
            self.dock.set_status(tr("pip failed — see its output above; check your network or proxy."), ok=False)
            return
        self._start()  # the chat appears at once: no QGIS restart
        if self.runtime is None:
            self.dock.set_status(tr("pip finished, but some packages are still unusable (listed above); "
                                    "restart QGIS, and if they are still listed, install them by hand."), ok=False)


def _scale_out() -> bool:
    """A Dask scheduler in the settings turns scale-out on: dask and distributed become requirements."""
    from ..host.settings_store import load_settings

    return bool(load_settings().dask_scheduler)
