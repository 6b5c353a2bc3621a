from PyQt6.QtGui import *  # noqa: F401,F403
