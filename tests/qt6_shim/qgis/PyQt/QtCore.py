from PyQt6.QtCore import *  # noqa: F401,F403
