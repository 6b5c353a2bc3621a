from PyQt6.QtTest import *  # noqa: F401,F403
