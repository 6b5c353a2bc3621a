"""A model opened in QGIS's own Graphical Modeler dialog, as the analyst opens a .model3."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def show_in_the_modeler(model: Any, step_titles: list[str], size: tuple[int, int] = (1100, 620)) -> str:
    """Opens the model in the Modeler dialog and asserts its canvas shows every step by its title; returns the
    text the canvas shows. With STACGIS_SCREENSHOTS=<folder> it also saves a picture of the dialog there
    (modeler-chat-model.png, the README's)."""
    from processing.modeler.ModelerDialog import ModelerDialog
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtWidgets import QApplication, QGraphicsTextItem

    dialog = ModelerDialog.create(model) if hasattr(ModelerDialog, "create") else ModelerDialog(model)
    dialog.resize(*size)
    dialog.show()
    for _ in range(20):
        QApplication.processEvents()
    scene = dialog.view().scene() if hasattr(dialog, "view") else dialog.findChild(type(dialog.centralWidget())).scene()
    titles = " ".join(i.toPlainText() for i in scene.items() if isinstance(i, QGraphicsTextItem))
    shown = titles or " ".join(getattr(i, "component", lambda: None)() and i.component().description() or ""
                               for i in scene.items() if hasattr(i, "component"))
    for title in step_titles:
        assert title in shown, (title, shown)
    folder = os.environ.get("STACGIS_SCREENSHOTS")
    if folder:
        if hasattr(dialog, "view"):  # every step in the picture, however long the chat
            dialog.view().fitInView(scene.itemsBoundingRect().adjusted(-20, -20, 20, 20), Qt.AspectRatioMode.KeepAspectRatio)
            QApplication.processEvents()
        dialog.grab().save(str(Path(folder) / "modeler-chat-model.png"))
    dialog.close()
    return shown
