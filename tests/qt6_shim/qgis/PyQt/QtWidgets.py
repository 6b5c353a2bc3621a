# Qt 6 moved QAction & co. to QtGui; QGIS 4's qgis.PyQt.QtWidgets still offers them, as Qt 5 code expects.
from PyQt6.QtGui import QAction, QActionGroup, QFileSystemModel, QShortcut, QUndoCommand  # noqa: F401
from PyQt6.QtWidgets import *  # noqa: F401,F403
