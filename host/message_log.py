"""Forwards the package's stdlib loggers to QgsMessageLog under the plugin's tab, secrets redacted (a signed
URL in a GDAL warning, a token in an error: the log travels in bug reports)."""

from __future__ import annotations

import logging

from qgis.core import Qgis, QgsMessageLog

from ..agent.redaction import redacted

TAB = "STAC GIS Agent"
PACKAGE_LOGGER = __name__.split(".")[0]  # the plugin package, whatever its folder is called

_LEVELS = (
    (logging.ERROR, Qgis.MessageLevel.Critical),
    (logging.WARNING, Qgis.MessageLevel.Warning),
    (logging.NOTSET, Qgis.MessageLevel.Info),
)


class MessageLogHandler(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        try:
            level = next(q for threshold, q in _LEVELS if record.levelno >= threshold)
            QgsMessageLog.logMessage(redacted(self.format(record)), TAB, level, notifyUser=False)
        except Exception:  # a logging failure must never break the caller
            self.handleError(record)


def install(logger_name: str = PACKAGE_LOGGER, level: int = logging.INFO) -> MessageLogHandler:
    handler = MessageLogHandler()
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    logger = logging.getLogger(logger_name)
    logger.addHandler(handler)
    if logger.level == logging.NOTSET or logger.level > level:
        logger.setLevel(level)
    return handler


def uninstall(handler: MessageLogHandler, logger_name: str = PACKAGE_LOGGER) -> None:
    logging.getLogger(logger_name).removeHandler(handler)
    handler.close()
