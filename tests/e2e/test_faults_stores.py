"""Faults on the storage side, met through the real plugin: Redis and PostgreSQL killed in the middle of a
conversation and restarted, and a data folder the plugin cannot write. QGIS keeps running, the analyst is
told, and no message or memory is lost."""

from __future__ import annotations

import redis as redis_client

from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.analyst_view import chat, dock_status, feed, saved_events
from testkit.qgis_drivers.plugin_driver import process_until, run_coroutine, send, wait_turn
from testkit.servers.pg_server import own_pg
from testkit.servers.redis_server import own_redis


def _remember(plugin, emu, fact: str, question: str) -> None:
    emu.script(Turn(tool_calls=[("add_memory", {"content": fact})]), Turn(content=f"Noted: {fact}"))
    send(plugin, question)
    wait_turn(plugin, 40)
    assert chat(plugin)[-1] == ("assistant", f"Noted: {fact}")


def _memories(plugin, query: str) -> list[str]:
    runtime = plugin.runtime
    vector = run_coroutine(runtime.provider.embed([query]))[0]
    hits = run_coroutine(runtime.stores.memories.search(runtime.settings.user, vector, k=10,
                                                        model=runtime.settings.embedding_model))
    return sorted(h.content for h in hits)


def test_redis_and_postgres_killed_mid_conversation_and_restarted(make_plugin, emu):
    redis, pg = own_redis(), own_pg()
    try:
        plugin = make_plugin(redis_url=redis.url, postgres_dsn=pg.dsn)
        _remember(plugin, emu, "I work in EPSG:2154.", "Remember my CRS")
        session_id = plugin.runtime.session.session_id

        redis.kill()
        pg.kill()
        _remember(plugin, emu, "I like the RdYlGn ramp.", "Remember my ramp")
        assert process_until(lambda: any("nothing is lost" in e for e in feed(plugin)), 5), feed(plugin)
        asked = [e["text"] for e in saved_events(plugin) if e["type"] == "user_message"]
        assert asked == ["Remember my CRS", "Remember my ramp"]  # kept on this computer meanwhile

        redis.restart()
        pg.restart()
        # The plugin reconnects by itself (after its retry delay): the memory kept in PostgreSQL is found again.
        assert process_until(lambda: "I work in EPSG:2154." in _memories(plugin, "EPSG"), 20)
        _remember(plugin, emu, "My parcels layer is called cadastre.", "Remember my layer")
        asked = [e["text"] for e in saved_events(plugin) if e["type"] == "user_message"]
        assert asked == ["Remember my CRS", "Remember my ramp", "Remember my layer"]
        with redis_client.Redis.from_url(redis.url) as r:  # Redis lost everything (no persistence); it is saved again
            assert process_until(lambda: r.exists(f"session:{session_id}"), 10), "the conversation did not go back to Redis"
        assert _memories(plugin, "EPSG ramp parcels") == [
            "I like the RdYlGn ramp.", "I work in EPSG:2154.", "My parcels layer is called cadastre."]
        assert process_until(lambda: any("reachable again" in e for e in feed(plugin)), 5), feed(plugin)
        assert "ready" in dock_status(plugin)  # the status line still says the model can answer
    finally:
        redis.stop()
        pg.stop()


def test_a_data_folder_that_cannot_be_written(make_plugin, emu, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the plugin's folder should be")  # root ignores permission bits; this it cannot
    plugin = make_plugin(data_dir=str(blocked))
    assert plugin.runtime is not None
    emu.script(Turn(content="I can still answer."))
    send(plugin, "Hello")
    wait_turn(plugin, 30)
    assert chat(plugin)[-1] == ("assistant", "I can still answer.")
    told = " ".join(e for e in feed(plugin) if "is writable" in e)
    assert str(blocked) in told and "stays on screen" in told, feed(plugin)  # the analyst knows what to fix
