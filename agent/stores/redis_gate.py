"""The team concurrency gate: a Redis sorted set of active slots shared by every QGIS.

Member = session id, score = the Redis server's clock at the last acquire/refresh, so
machines with skewed clocks agree. Stale slots (a crashed QGIS) are pruned by every
operation; waiting sessions queue in arrival order. Each step is one Lua script: atomic
under any number of clients.
"""

from __future__ import annotations

import asyncio
import logging

from ..dock_text import translatable
from .base import Capacity
from .redis_client import connect_redis, unavailable_as

log = logging.getLogger(__name__)

# KEYS: active, waiting, waiting_seen. ARGV: member, max, slot_ttl, wait_ttl, mode.
# mode "queue": join the queue if no slot; "try": never queue; "peek": change nothing but prune.
# Returns {granted (1/0), active count, queue position (0 = not queued)}.
_GATE_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local member, max, mode = ARGV[1], tonumber(ARGV[2]), ARGV[5]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]))
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[4]))
for _, m in ipairs(gone) do
  redis.call('ZREM', KEYS[2], m)
  redis.call('ZREM', KEYS[3], m)
end
if redis.call('ZSCORE', KEYS[1], member) then
  if mode ~= 'peek' then redis.call('ZADD', KEYS[1], now, member) end
  return {1, redis.call('ZCARD', KEYS[1]), 0}
end
local active = redis.call('ZCARD', KEYS[1])
local rank = redis.call('ZRANK', KEYS[2], member)
if mode == 'peek' then
  if rank then return {0, active, rank + 1} end
  return {0, active, 0}
end
if not rank then
  rank = redis.call('ZCARD', KEYS[2])
  if mode == 'queue' then redis.call('ZADD', KEYS[2], now, member) end
end
if rank < max - active then
  redis.call('ZADD', KEYS[1], now, member)
  redis.call('ZREM', KEYS[2], member)
  redis.call('ZREM', KEYS[3], member)
  return {1, active + 1, 0}
end
if mode == 'queue' then
  redis.call('ZADD', KEYS[3], now, member)
  return {0, active, rank + 1}
end
return {0, active, 0}
"""


class RedisConcurrencyGate:
    def __init__(self, url: str, max_concurrent: int, slot_ttl_s: float = 300.0, *,
                 key: str = "chat:active_slots", poll_s: float = 0.05, timeout_s: float = 2.0):
        if max_concurrent < 1:
            raise ValueError("max concurrent chats must be at least 1")
        self.url = url
        self.max_concurrent = max_concurrent
        self.slot_ttl_s = slot_ttl_s
        self.poll_s = poll_s
        # A waiter polls every poll_s; one silent for this long has gone (closed QGIS) and loses its place.
        self.wait_ttl_s = max(5.0, 20 * poll_s)
        self._keys = [key, key + ":waiting", key + ":waiting_seen"]
        self._redis = connect_redis(url, timeout_s)
        self._script = self._redis.register_script(_GATE_SCRIPT)

    async def _run(self, session_id: str, mode: str, what: str) -> tuple[bool, int, int]:
        with unavailable_as(what, self.url):
            granted, active, position = await self._script(
                keys=self._keys,
                args=[session_id, self.max_concurrent, self.slot_ttl_s, self.wait_ttl_s, mode])
        return bool(granted), int(active), int(position)

    async def acquire(self, session_id: str, timeout: float | None = None) -> bool:
        """Waits for a slot; `timeout=None` waits as long as it takes, 0 only tries once."""
        if timeout is not None and timeout <= 0:
            return (await self._run(session_id, "try", translatable("taking a chat slot")))[0]
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        delay = self.poll_s / 4
        try:
            while True:
                granted, _, _ = await self._run(session_id, "queue", translatable("taking a chat slot"))
                if granted:
                    return True
                if deadline is not None and loop.time() >= deadline:
                    await self._leave_queue(session_id)
                    return False
                pause = delay if deadline is None else min(delay, max(0.0, deadline - loop.time()))
                await asyncio.sleep(pause)
                delay = min(self.poll_s, delay * 2)
        except asyncio.CancelledError:
            await asyncio.shield(self._leave_queue(session_id))
            raise

    async def _leave_queue(self, session_id: str) -> None:
        try:
            with unavailable_as(translatable("leaving the chat queue"), self.url):
                async with self._redis.pipeline(transaction=True) as pipe:
                    await pipe.zrem(self._keys[1], session_id).zrem(self._keys[2], session_id).execute()
        except ConnectionError:
            log.debug("could not leave the queue; the entry expires by itself", exc_info=True)

    async def refresh(self, session_id: str) -> None:
        """Keeps a held slot alive; a slot already pruned is taken again when one is free."""
        granted, _, _ = await self._run(session_id, "try", translatable("refreshing a chat slot"))
        if not granted:
            log.warning("session %s lost its chat slot (no refresh within %.0f s) and none is free",
                        session_id, self.slot_ttl_s)

    async def release(self, session_id: str) -> None:
        with unavailable_as(translatable("releasing a chat slot"), self.url):
            async with self._redis.pipeline(transaction=True) as pipe:
                for key in self._keys:
                    pipe.zrem(key, session_id)
                await pipe.execute()

    async def capacity(self, session_id: str | None = None) -> Capacity:
        _, active, position = await self._run(session_id or "", "peek", translatable("reading the chat capacity"))
        return Capacity(active=active, max=self.max_concurrent,
                        available=max(0, self.max_concurrent - active), queue_position=position or None)

    async def aclose(self) -> None:
        await self._redis.aclose()
