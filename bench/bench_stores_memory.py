"""Top-5 memory search at 1k / 10k / 100k memories: SQLite + numpy (exact) vs PostgreSQL + pgvector
HNSW. Prints latency and recall@5 against exact search, side by side, from one run.

    .venv/bin/python bench/bench_stores_memory.py [--sizes 1000,10000,100000] [--dim 384] [--queries 100]

Vectors are synthetic but clustered like text embeddings (random unit vectors would make HNSW
look worse than it is on real data). Each size uses fresh tables; the HNSW index is built after
the bulk load, as the store does on a first import.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import conftest  # noqa: E402,F401  (makes the checkout importable as stacgis_agent)
from stacgis_agent.agent.stores.pgvector_memory import PgVectorMemoryStore  # noqa: E402
from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore  # noqa: E402
from testkit.servers.pg_server import PgServer  # noqa: E402

USER, MODEL, K = "analyst", "bench-embed", 5
NOISE = 0.8  # spread around each topic centre: high enough that neighbours are not trivial to find


def clustered(n: int, dim: int, rng: np.random.Generator, centres: np.ndarray, noise: float) -> np.ndarray:
    picks = rng.integers(0, len(centres), size=n)
    vecs = centres[picks] + noise * rng.normal(size=(n, dim)).astype(np.float32) / np.sqrt(dim)
    return (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)


def exact_top(data: np.ndarray, queries: np.ndarray) -> list[set[int]]:
    scores = queries @ data.T
    return [set(np.argsort(-row)[:K].tolist()) for row in scores]


async def timed_searches(store, queries: np.ndarray, index_of: dict[str, int]) -> tuple[list[float], list[set[int]]]:
    latencies, found = [], []
    await store.search(USER, queries[0].tolist(), K, MODEL)  # warm: loads the matrix / the connection
    for q in queries:
        start = time.perf_counter()
        hits = await store.search(USER, q.tolist(), K, MODEL)
        latencies.append((time.perf_counter() - start) * 1000)
        found.append({index_of[h.content] for h in hits})
    return latencies, found


def recall(found: list[set[int]], truth: list[set[int]]) -> float:
    return float(np.mean([len(f & t) / K for f, t in zip(found, truth)]))


async def bench_size(n: int, dim: int, nq: int, noise: float, pg: PgServer, folder: Path,
                     rng: np.random.Generator) -> list[str]:
    centres = rng.normal(size=(max(20, n // 200), dim)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    data = clustered(n, dim, rng, centres, noise)
    queries = clustered(nq, dim, rng, centres, noise)
    truth = exact_top(data, queries)
    index_of = {f"m{i}": i for i in range(n)}
    rows = []

    sqlite = SqliteMemoryStore(folder / f"bench-{n}.sqlite")
    start = time.perf_counter()
    await sqlite.add_many([(USER, f"m{i}", "fact", data[i], MODEL) for i in range(n)])
    load_s = time.perf_counter() - start
    lat, found = await timed_searches(sqlite, queries, index_of)
    rows.append(row(n, "sqlite+numpy", load_s, lat, recall(found, truth)))
    await sqlite.aclose()

    dsn = pg.dsn + "?options=-c%20maintenance_work_mem%3D1GB"
    store = PgVectorMemoryStore(dsn, f"bench_{n}", timeout_s=30)
    start = time.perf_counter()
    await store.add_many([(USER, f"m{i}", "fact", data[i], MODEL) for i in range(n)])  # COPY + HNSW build
    load_s = time.perf_counter() - start
    lat, found = await timed_searches(store, queries, index_of)
    rows.append(row(n, "pgvector hnsw", load_s, lat, recall(found, truth)))
    lat_exact, found_exact = [], []
    for q in queries[: min(nq, 20)]:
        t0 = time.perf_counter()
        hits = await store.exact_search(USER, q.tolist(), K, MODEL)
        lat_exact.append((time.perf_counter() - t0) * 1000)
        found_exact.append({index_of[h.content] for h in hits})
    rows.append(row(n, "pgvector exact", float("nan"), lat_exact, recall(found_exact, truth[: len(found_exact)])))
    await store.aclose()
    return rows


def row(n: int, backend: str, load_s: float, lat: list[float], rec: float) -> str:
    p50, p95 = np.percentile(lat, 50), np.percentile(lat, 95)
    load = "" if np.isnan(load_s) else f"{load_s:8.1f}"
    return f"{n:>8} {backend:<15} {load:>8} {p50:9.2f} {p95:9.2f} {rec:9.3f}"


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--noise", type=float, default=NOISE,
                        help="spread around topic centres; 10 is close to uniform random (HNSW's worst case)")
    args = parser.parse_args()
    rng = np.random.default_rng(42)
    pg = PgServer().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"top-{K} search, dim {args.dim}, {args.queries} queries, noise {args.noise:g};"
                  " latency in ms, load in s")
            print(f"{'memories':>8} {'backend':<15} {'load s':>8} {'p50 ms':>9} {'p95 ms':>9} {'recall@5':>9}")
            for n in (int(s) for s in args.sizes.split(",")):
                for line in await bench_size(n, args.dim, args.queries, args.noise, pg, Path(tmp), rng):
                    print(line, flush=True)
    finally:
        pg.stop()


if __name__ == "__main__":
    asyncio.run(main())
