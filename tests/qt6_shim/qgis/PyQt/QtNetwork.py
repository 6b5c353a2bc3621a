from PyQt6.QtNetwork import *  # noqa: F401,F403
