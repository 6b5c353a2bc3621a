from PyQt6.QtXml import *  # noqa: F401,F403
