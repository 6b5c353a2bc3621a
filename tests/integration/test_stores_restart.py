"""A team's servers restarted while a chat goes on (real Redis, real PostgreSQL + pgvector): the
first message after the restart recalls its memories, and the user reads one recovery notice per
server, which says what was copied back."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio
import redis.asyncio as aioredis

from stacgis_agent.agent.chat_slot import chat_slot
from stacgis_agent.agent.config import Settings
from stacgis_agent.agent.stores.factory import build_stores
from stacgis_agent.agent.stores.pg_connection import PgConnection
from stacgis_agent.agent.stores.pg_sessions import PgSessionStore
from testkit.llm.agent_harness import harness_factory
from testkit.llm.ollama_emulator import Turn
from testkit.servers.pg_server import own_pg
from testkit.servers.redis_server import own_redis

pytestmark = pytest.mark.server

MEMORY = "Parcel 42 near Lyon is a vineyard"
LATER = "Parcel 42 was harvested in September"  # saved while PostgreSQL is down
RETRY_WAIT_S = 2.5  # past ServerHealth's first retry delay (2 s), so the next call tries the server


@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


@pytest.fixture
def servers():
    redis, pg = own_redis(), own_pg()
    yield redis, pg
    redis.stop()
    pg.stop()


class TeamChat:
    """One QGIS of a team: the stores build_stores makes from the settings, one chat in them, and
    each message run the way the dock runs it (a gate slot, then the agent loop)."""

    def __init__(self, harness, stores, session_id: str = "chat-1"):
        self.h = harness
        self.stores = stores
        self.session_id = session_id
        self.notices: list[str] = []

    async def send(self, message: str, answer: str = "Noted.") -> str:
        """The text the model received as the user's message (with any memories recalled for it)."""
        self.h.emu.script(Turn(content=answer))
        loop = self.h.make_loop(session_id=self.session_id, memory_store=self.stores.memories,
                                session_store=self.stores.sessions, user="ana")
        try:
            async with chat_slot(self.stores.gate, self.session_id, lambda _n: None, self.notices.append):
                await self.h.run(message)
        finally:
            await loop.aclose()
            self.h.loop = None
        return self.h.emu.chat_requests()[-1]["messages"][-1]["content"]


async def remember(chat: TeamChat, text: str) -> None:
    """What the memory tool does when the model saves a fact."""
    vector = (await chat.h.provider.embed([text]))[0]
    await chat.stores.memories.add("ana", text, "fact", vector, model=chat.h.settings.embedding_model)


async def team_chat(harness, redis, pg, tmp_path) -> TeamChat:
    settings = Settings(redis_url=redis.url, postgres_dsn=pg.dsn, user="ana", max_concurrent_chats=1)
    chat = TeamChat(harness, None)
    chat.stores = build_stores(settings, tmp_path, on_notice=lambda text: chat.notices.append(text))
    await remember(chat, MEMORY)
    return chat


async def test_first_message_after_a_postgres_restart_recalls_its_memories_with_one_notice(
        make_harness, servers, tmp_path):
    redis, pg = servers
    chat = await team_chat(make_harness(), redis, pg, tmp_path)
    try:
        assert MEMORY in await chat.send("What grows on parcel 42?")
        pg.kill()
        await chat.send("Which imagery shows parcel 42 in June?")  # during the outage: kept on this computer
        await remember(chat, LATER)
        assert len(chat.notices) == 1 and "PostgreSQL" in chat.notices[0]
        pg.restart()
        await asyncio.sleep(RETRY_WAIT_S)

        said = await chat.send("Remind me what grows on parcel 42?")
        assert MEMORY in said and LATER in said  # recalled on the first message after the restart
        after = chat.notices[1:]
        assert after == ["PostgreSQL is reachable again (1 session(s) copied back, "
                         "1 memorie(s) saved meanwhile were sent to it)."]  # one notice, no second outage
        durable = PgSessionStore(pg.dsn)
        try:  # that message's durable copy went to the server, not to the local file
            record = await durable.history(chat.session_id)
            assert record is not None and record.info.message_count == 6
        finally:
            await durable.aclose()
    finally:
        await chat.stores.aclose()


async def test_first_message_after_a_redis_restart_says_how_many_sessions_were_copied_back(
        make_harness, servers, tmp_path):
    redis, pg = servers
    chat = await team_chat(make_harness(), redis, pg, tmp_path)
    try:
        await chat.send("What grows on parcel 42?")
        redis.kill()
        await chat.send("Which imagery shows parcel 42 in June?")
        assert len(chat.notices) == 1 and chat.notices[0].startswith("Redis at")
        redis.restart()  # empty: a crashed Redis without persistence forgot the chat
        await asyncio.sleep(RETRY_WAIT_S)

        assert MEMORY in await chat.send("Remind me what grows on parcel 42?")
        after = chat.notices[1:]
        assert after == ["Redis is reachable again (1 session(s) copied back)."]
        raw = aioredis.Redis.from_url(redis.url)
        try:  # Redis holds the whole chat again, the message during the outage included
            cached = await raw.get(f"session:{chat.session_id}")
            assert cached is not None and b"Which imagery shows parcel 42 in June?" in cached
        finally:
            await raw.aclose()
    finally:
        await chat.stores.aclose()


async def test_a_connection_from_before_a_restart_is_replaced_and_the_query_runs_again():
    async def backend_pid(conn) -> int:
        return (await (await conn.execute("SELECT pg_backend_pid()")).fetchone())[0]

    server = own_pg()
    db = PgConnection(server.dsn, timeout_s=3.0)
    try:
        before = await db.run("reading the backend", backend_pid)
        server.kill()
        server.restart()  # the kept connection does not know yet that its backend is gone
        after = await db.run("reading the backend", backend_pid)  # no StoreUnavailable: retried once
        assert after != before
    finally:
        await db.aclose()
        server.stop()
