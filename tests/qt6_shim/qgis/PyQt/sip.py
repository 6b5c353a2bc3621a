from PyQt6.sip import *  # noqa: F401,F403
