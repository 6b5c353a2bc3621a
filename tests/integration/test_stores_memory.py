"""Contract of MemoryStore, run against SQLite + numpy and PostgreSQL + pgvector."""

from __future__ import annotations

import numpy as np
import pytest

from stacgis_agent.agent.stores.reembed import reembed
from testkit.servers.store_backends import MEMORY_BACKENDS, memory_store

pytestmark = pytest.mark.server

INJECTION = "Robert'); DROP TABLE memories; -- \\' OR 1=1; /* 🛰️ */ $$ ::vector"


def unit(*values: float) -> list[float]:
    vec = np.asarray(values, dtype=np.float32)
    return (vec / np.linalg.norm(vec)).tolist()


@pytest.fixture(params=MEMORY_BACKENDS)
async def store(request, tmp_path):
    s = memory_store(request.param, tmp_path)
    yield s
    await s.aclose()


async def test_search_ranks_by_cosine_similarity(store):
    ids = {}
    for name, vec in {"lyon": (1, 0, 0), "paris": (0.9, 0.1, 0), "ocean": (0, 0, 1), "forest": (0, 1, 0)}.items():
        ids[name] = await store.add("ana", f"note about {name}", "fact", unit(*vec), {"place": name}, "m1")
    hits = await store.search("ana", unit(1, 0.01, 0), k=2, model="m1")
    assert [h.id for h in hits] == [ids["lyon"], ids["paris"]]
    assert hits[0].content == "note about lyon" and hits[0].kind == "fact"
    assert hits[0].metadata == {"place": "lyon"} and hits[0].user == "ana"
    assert hits[0].score == pytest.approx(0.99995, abs=1e-3)
    assert hits[0].score > hits[1].score
    assert len(await store.search("ana", unit(1, 0, 0), k=10, model="m1")) == 4


async def test_memories_of_one_user_never_reach_another(store):
    a_id = await store.add("ana", "ana's parcel is 42", "fact", unit(1, 0, 0), model="m1")
    await store.add("bob", "bob likes Landsat", "preference", unit(0, 1, 0), model="m1")
    bob_hits = await store.search("bob", unit(1, 0, 0), k=5, model="m1")
    assert [h.content for h in bob_hits] == ["bob likes Landsat"]
    assert all(h.user == "bob" for h in await store.recent("bob", 10))
    assert await store.search("carol", unit(1, 0, 0), k=5, model="m1") == []
    assert await store.delete("bob", a_id) is False  # bob cannot delete ana's memory
    assert [h.id for h in await store.search("ana", unit(1, 0, 0), k=5, model="m1")] == [a_id]


async def test_injection_shaped_content_is_stored_and_returned_verbatim(store):
    user = "x' OR '1'='1"
    mid = await store.add(user, INJECTION, "note'; --", unit(1, 2, 3), {"q": INJECTION}, model="m'1")
    await store.add("ana", "unrelated", "fact", unit(1, 2, 3), model="m'1")
    hits = await store.search(user, unit(1, 2, 3), k=5, model="m'1")
    assert [(h.id, h.content, h.kind, h.metadata) for h in hits] == [(mid, INJECTION, "note'; --", {"q": INJECTION})]
    assert [h.content for h in await store.recent(user, 5)] == [INJECTION]
    assert await store.delete(user, mid) is True
    assert await store.recent(user, 5) == []
    assert [h.content for h in await store.recent("ana", 5)] == ["unrelated"]  # the table is still there


async def test_recent_is_newest_first_and_limited(store):
    for i in range(5):
        await store.add("ana", f"m{i}", "fact", unit(1, i + 1, 0), created_at=1000.0 + i)
    assert [h.content for h in await store.recent("ana", 3)] == ["m4", "m3", "m2"]


async def test_vectors_of_different_models_are_never_compared(store):
    old = await store.add("ana", "embedded by the old model", "fact", unit(1, 0, 0), model="old")
    new = await store.add("ana", "embedded by the new model", "fact", unit(0, 1, 0, 0), model="new")
    same_dim = await store.add("ana", "same size, other model", "fact", unit(1, 0, 0), model="other")
    assert [h.id for h in await store.search("ana", unit(1, 0, 0), k=5, model="old")] == [old]
    assert [h.id for h in await store.search("ana", unit(1, 0, 0), k=5, model="other")] == [same_dim]
    assert [h.id for h in await store.search("ana", unit(1, 0, 0, 0), k=5, model="new")] == [new]
    assert await store.search("ana", unit(1, 0, 0, 0, 0), k=5, model="new") == []  # wrong dimension
    assert await store.models("ana") == {("old", 3): 1, ("new", 4): 1, ("other", 3): 1}


async def test_reembedding_moves_old_vectors_to_the_new_model(store):
    await store.add("ana", "alpha", "fact", unit(1, 0, 0), model="old")
    await store.add("bob", "beta", "fact", unit(0, 1, 0), model="old")

    async def embed(texts):  # the new model: 4 numbers, alpha and beta far apart
        return [unit(1, 0, 0, 1) if t == "alpha" else unit(0, 1, 1, 0) for t in texts]

    await store.add("ana", "gamma", "fact", unit(0, 0, 1), model="old")
    assert await reembed(store, embed, "new", "ana") == 2
    assert await store.models("ana") == {("new", 4): 2}
    assert await store.models("bob") == {("old", 3): 1}  # a teammate on the old model keeps his vectors
    hits = await store.search("ana", unit(1, 0, 0, 1), k=5, model="new")
    assert [h.content for h in hits][0] == "alpha" and hits[0].score == pytest.approx(1.0, abs=1e-4)
    assert await store.search("ana", unit(1, 0, 0), k=5, model="old") == []
    assert await reembed(store, embed, "new", "ana") == 0


async def test_knowledge_base_is_kept_apart_from_memories(tmp_path):
    for kind in MEMORY_BACKENDS:
        memories = memory_store(kind, tmp_path / kind, "memories")
        knowledge = memory_store(kind, tmp_path / kind, "knowledge")
        try:
            await knowledge.add("ana", "Parcel 42 is vineyard", "note", unit(1, 0, 0), model="m1")
            await memories.add("ana", "prefers Sentinel-2", "preference", unit(1, 0, 0), model="m1")
            assert [h.content for h in await knowledge.search("ana", unit(1, 0, 0), model="m1")] == [
                "Parcel 42 is vineyard"]
            assert [h.content for h in await memories.search("ana", unit(1, 0, 0), model="m1")] == [
                "prefers Sentinel-2"]
        finally:
            await memories.aclose()
            await knowledge.aclose()


async def test_table_names_are_checked():
    from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore

    with pytest.raises(ValueError, match="invalid table name"):
        SqliteMemoryStore("/tmp/x.sqlite", table="memories; DROP TABLE x")


async def test_thousands_of_memories_give_the_exact_top_5(store):
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(2000, 32)).astype(np.float32)
    if hasattr(store, "add_many"):
        await store.add_many([("ana", f"m{i}", "fact", v.tolist(), "m1") for i, v in enumerate(vectors)])
    else:
        for i, v in enumerate(vectors):
            await store.add("ana", f"m{i}", "fact", v.tolist(), model="m1")
    query = rng.normal(size=32).astype(np.float32)
    normed = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    expected = [f"m{i}" for i in np.argsort(-(normed @ (query / np.linalg.norm(query))))[:5]]
    hits = await store.search("ana", query.tolist(), k=5, model="m1")
    assert [h.content for h in hits] == expected


async def test_an_edited_memory_is_found_by_its_new_text_and_keeps_where_it_came_from(store):
    """Issue 46.4: the Memories list edits a memory in place: new text, kind and vector; found by the new vector
    only; its metadata (where it was learned) kept unless replaced; another user's memory is out of reach."""
    mid = await store.add("ana", "I work in EPSG:2154", "preference", unit(1, 0, 0), {"session_id": "s1"}, "m1")
    assert await store.update("ana", mid, "I work in EPSG:3035", "fact", unit(0, 1, 0), "m1") is True
    hits = await store.search("ana", unit(0, 1, 0), k=1, model="m1")
    assert [(h.id, h.content, h.kind, h.metadata) for h in hits] == [(mid, "I work in EPSG:3035", "fact",
                                                                     {"session_id": "s1"})]
    assert hits[0].score == pytest.approx(1.0, abs=1e-3)
    assert [h.content for h in await store.recent("ana", 5)] == ["I work in EPSG:3035"]
    assert await store.update("ana", mid, "I work in EPSG:3035", "fact", unit(0, 1, 0), "m1",
                              {"session_id": "s1", "edited_at": 5.0}) is True
    assert (await store.recent("ana", 1))[0].metadata == {"session_id": "s1", "edited_at": 5.0}
    assert await store.update("bob", mid, "bob's now", "fact", unit(1, 0, 0), "m1") is False
    assert await store.update("ana", "no-such-id", "x", "fact", unit(1, 0, 0), "m1") is False
