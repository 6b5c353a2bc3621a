from PyQt6.QtTextToSpeech import *  # noqa: F401,F403
