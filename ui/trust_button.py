"""The chat's trust level on the dock: a small button above the message box whose menu sets "Ask first"
or "Read only" for this chat, lists the kinds of change the analyst said not to ask again about, and forgets
them. It shows the chat's `agent.trust.ChatTrust`; New chat starts from "Ask first"."""

from __future__ import annotations

from qgis.PyQt.QtWidgets import QActionGroup, QMenu, QSizePolicy, QToolButton

from ..agent.trust import ASK, READ_ONLY, ChatTrust
from .i18n import tr, translatable

LEVEL_WORDS = {ASK: translatable("Ask first: ask before anything that changes the project or files"),
               READ_ONLY: translatable("Read only: no tool that changes anything is offered")}
ASK_TOOLTIP = translatable("This chat asks before anything that changes the project or files. Code, downloads and "
                           "overwrites always ask.")
READ_ONLY_TOOLTIP = translatable("This chat is read only: the assistant is offered no tool that changes the project "
                                 "or files.")


class TrustButton(QToolButton):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setAutoRaise(True)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.trust: ChatTrust | None = None
        self.menu_ = QMenu(self)
        self.setMenu(self.menu_)
        self.levels = QActionGroup(self)
        self.level_actions = {}
        for level in (ASK, READ_ONLY):
            action = self.menu_.addAction(tr(LEVEL_WORDS[level]))
            action.setCheckable(True)
            action.triggered.connect(lambda _on=False, chosen=level: self._choose(chosen))
            self.levels.addAction(action)
            self.level_actions[level] = action
        self._waved_actions = []

    def show_trust(self, trust: ChatTrust) -> None:
        """Shows `trust` (the chat's, handed again whenever it changes or a new chat starts)."""
        self.trust = trust
        self.level_actions[trust.level].setChecked(True)
        count = len(trust.waved)
        if trust.read_only:
            self.setText(tr("Read only"))
            self.setToolTip(tr(READ_ONLY_TOOLTIP))
        else:
            self.setText(tr("Ask first") if not count else tr("Ask first · {count} allowed").format(count=count))
            kinds = "\n".join(f"• {tr(kind)}" for _tool, kind in trust.waved)
            self.setToolTip(tr(ASK_TOOLTIP) + ("\n" + tr("Not asked again in this chat:") + "\n" + kinds
                                               if kinds else ""))
        self._show_waved(trust)

    def _show_waved(self, trust: ChatTrust) -> None:
        for action in self._waved_actions:
            self.menu_.removeAction(action)
        self._waved_actions = []
        if not trust.waved:
            return
        self._waved_actions.append(self.menu_.addSeparator())
        heading = self.menu_.addAction(tr("Not asked again in this chat:"))
        heading.setEnabled(False)
        self._waved_actions.append(heading)
        for tool, kind in trust.waved:
            line = self.menu_.addAction(f"{tool}: {tr(kind)}")
            line.setEnabled(False)
            self._waved_actions.append(line)
        forget = self.menu_.addAction(tr("Ask again for everything"))
        forget.triggered.connect(lambda _on=False: self.trust is not None and self.trust.ask_again())
        self._waved_actions.append(forget)

    def _choose(self, level: str) -> None:
        if self.trust is not None:
            self.trust.set_level(level)
