"""Team setups: when every chat slot is taken the dock says how many wait ahead, starts by itself
when a slot opens, and lets the user cancel the wait."""

from __future__ import annotations

import asyncio
import time

import pytest

from stacgis_agent.agent.stores.local_gate import LocalConcurrencyGate
from stacgis_agent.ui.chat_panel import ChatPanel
from stacgis_agent.ui.chat_session import ChatSession
from testkit.llm.agent_harness import Harness
from testkit.llm.ollama_emulator import OllamaEmulator, Turn
from testkit.qgis_drivers.plugin_driver import until


@pytest.fixture
def queued_chat(qloop):
    gate = LocalConcurrencyGate(1)
    with OllamaEmulator() as emu:
        harness = Harness(emu)
        session = ChatSession(lambda sid: harness.make_loop(session_id=sid), gate=gate)
        panel = ChatPanel(session)
        panel.show()
        yield panel, gate, emu
        qloop.run_until_complete(session.close_agent())
        qloop.run_until_complete(harness.aclose())
        panel.close()




def test_waits_for_a_free_slot_showing_chats_ahead_then_starts_by_itself(queued_chat, qloop):
    panel, gate, emu = queued_chat
    emu.script(Turn(content="Your turn now."))

    async def scenario():
        await gate.acquire("colleague-1")  # the only slot is taken
        other = asyncio.ensure_future(gate.acquire("colleague-2"))  # and someone queued first
        await asyncio.sleep(0)
        panel.send("NDVI please")
        await until(lambda: panel.queue_label.text() == "Waiting for a free slot (1 ahead)")
        assert panel.queue_label.isVisible() and panel.cancel_wait_button.isVisible()
        assert emu.chat_requests() == []
        await gate.release("colleague-1")
        await other
        # first in line: the colleague's chat runs, and no "0 ahead"
        await until(lambda: panel.queue_label.text() == "Waiting for a free slot: 1 chat running, you are next")
        await gate.release("colleague-2")
        await until(lambda: not panel.session.busy)

    qloop.run_until_complete(scenario())
    assert panel.conversation.bubbles()[-1].text() == "Your turn now."
    assert panel.queue_label.isHidden() and panel.cancel_wait_button.isHidden()
    assert len(emu.chat_requests()) == 1
    assert qloop.run_until_complete(gate.capacity()).active == 0  # the slot was given back


def test_the_user_can_cancel_the_wait(queued_chat, qloop):
    panel, gate, emu = queued_chat
    emu.script(Turn(content="First answer."))

    async def scenario():
        panel.send("A first question")  # the agent of this chat exists from now on
        await until(lambda: not panel.session.busy)
        await gate.acquire("colleague")
        panel.send("NDVI please")
        await until(lambda: panel.queue_label.isVisible())
        start = time.monotonic()
        panel.cancel_wait_button.click()
        await until(lambda: not panel.session.busy, timeout=2)
        return time.monotonic() - start, await gate.capacity(panel.session.session_id)

    took, capacity = qloop.run_until_complete(scenario())
    assert took < 1.0 and capacity.queue_position is None  # left the queue at once, not when the colleague is done
    assert len(emu.chat_requests()) == 1  # nothing was sent for the cancelled message
    assert panel.conversation.items()[-1].text().startswith("Stopped.")
    assert panel.queue_label.isHidden()
