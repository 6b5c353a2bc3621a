"""The first request of a chat: its tokens, and whether the tools it shows still lead to the right one.

1. Records the first /api/chat request of a chat from the real agent loop (the plugin's real MCP tools,
   canvas family included, the offline demo catalog; the Ollama emulator answers), once with every
   tool in full (`tool_set=all`, the form before the held-back tools) and once as the default sends it
   (`auto`: rarely needed tools named in call_tool's description, agent/visible_tools.py).
2. Counts its tokens with a real tokenizer (Gemma 3 270M's, the GGUF the suite builds), rendered with the
   real Qwen3 and Llama 3.2 chat templates (tests/data/chat_templates).
3. Tool choice on the labelled analyst requests (tests/data/analyst_requests.json), both forms:
   - emulator: the Ollama emulator's bag-of-words embeddings + the plugin's keyword rule rank the tools
     by the text the model is shown for each (a listed tool's description, or a held-back tool's line in
     call_tool's catalogue); hit@1 = the top tool is one the request needs, recall@3 = every needed tool
     in the top 3;
   - with --model [N]: the real small model (Gemma 3 270M in llama.cpp) reads the whole first request
     (Qwen template) for N requests (default 40, spread over the file) and writes the name of the tool it
     calls first, constrained to the names it was shown (through call_tool for a held-back one);
     hit = that tool is one the request needs.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_first_prompt.py [--model [N]]
(the tokenizer and the model run in .build/llama-venv's python; `make setup-test` builds it).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "tests" / "data" / "chat_templates"
LABELS = ROOT / "tests" / "data" / "analyst_requests.json"
LLAMA_PY = ROOT / ".build" / "llama-venv" / "bin" / "python"
MODEL = ROOT / ".build" / "models" / "gemma-3-270m-q4_k_m.gguf"
LYON = [4.79, 45.73, 4.88, 45.79]
FIRST = "What elevation data do we have around Lyon?"
FORMS = (("every tool in full (all)", "all"), ("held back via call_tool (auto)", "auto"))


async def record(mode: str) -> dict:
    """The first chat request the agent loop sends in this tool-set mode."""
    from stacgis_agent.agent.config import Settings
    from stacgis_agent.agent.llm.ollama import OllamaProvider
    from stacgis_agent.agent.llm.types import ChatOptions
    from stacgis_agent.agent.loop import AgentLoop
    from stacgis_agent.agent.map_context import LayerInfo, MapContext
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.server import build_server
    from testkit.llm.ollama_emulator import OllamaEmulator, Turn

    context = MapContext(extent=tuple(LYON), crs="EPSG:4326", center_lonlat=(4.835, 45.76), scale=25000,
                         active_layer="parcels",
                         layers=(LayerInfo("parcels", "vector", geometry="Polygon", feature_count=42),))
    with OllamaEmulator() as emu:
        settings = Settings(chat_model="qwen3:8b", tool_set=mode, ollama_url=emu.url)
        provider = OllamaProvider(emu.url, settings.chat_model, options=ChatOptions(num_ctx=settings.num_ctx))
        deps = ToolDeps.from_settings(settings, embed=provider.embed)
        loop = AgentLoop(provider, build_server(deps, canvas=True), settings)
        try:
            emu.script(Turn(content="ok"))
            async for _ in loop.run(FIRST, context):
                pass
            return emu.chat_requests()[0]
        finally:
            await loop.aclose()
            await provider.aclose()
            await deps.http.aclose()


def shown_texts(body: dict) -> list[tuple[str, str]]:
    """(tool, the text the model is shown for it): a listed tool's description and parameter names,
    a held-back tool's line in call_tool's catalogue."""
    from stacgis_agent.agent.visible_tools import CALL_TOOL

    out = []
    for spec in body.get("tools") or ():
        function = spec["function"]
        if function["name"] == CALL_TOOL:
            for line in _catalogue(function["description"]):
                head, _, what = line.partition("): ")
                out.append((head.split("(", 1)[0], f"{what} {head.split('(', 1)[-1]}"))
            continue
        params = " ".join((function.get("parameters") or {}).get("properties") or {})
        out.append((function["name"], f"{function.get('description', '')} {params}"))
    return out


async def emulator_choice(body: dict, labels: list[dict]) -> dict[str, float]:
    from stacgis_agent.agent.tool_ranking import ToolSelector, ToolText
    from testkit.llm.ollama_replies import embed_text

    async def embed(texts):
        return [embed_text(t) for t in texts]

    selector = ToolSelector(embed)
    await selector.index(ToolText(name, text) for name, text in shown_texts(body) if name != "ask_user")
    hit1 = recall3 = 0
    for label in labels:
        top = selector.select(label["request"], embed_text(label["request"]), k=3)
        hit1 += top[0] in label["expected"]
        recall3 += all(e in top for e in label["expected"])
    return {"hit@1": hit1 / len(labels), "recall@3": recall3 / len(labels)}


def sample(labels: list[dict], n: int) -> list[dict]:
    step = max(1, len(labels) // n)
    return labels[::step][:n]


# ---- inside the llama venv ---------------------------------------------------------------------
def measure(bodies: dict[str, dict], labels: list[dict], run_model: bool) -> dict:
    import jinja2
    from llama_cpp import Llama, LlamaGrammar

    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    env.globals.update(raise_exception=lambda m: (_ for _ in ()).throw(jinja2.TemplateError(m)),
                       strftime_now=lambda fmt: "01 Dec 2026")
    templates = {name: env.from_string((TEMPLATES / f"{file}.jinja").read_text()) for name, file in (
        ("Qwen3", "Qwen-Qwen3-0.6B"), ("Llama 3.2", "meta-llama-Llama-3.2-3B-Instruct"))}
    vocab = Llama(model_path=str(MODEL), vocab_only=True, verbose=False)

    def count(text: str) -> int:
        return len(vocab.tokenize(text.encode(), add_bos=True, special=True))

    out: dict = {}
    for label, body in bodies.items():
        row = {name: count(t.render(messages=body["messages"], tools=body["tools"], add_generation_prompt=True))
               for name, t in templates.items()}
        row["system prompt"] = count(body["messages"][0]["content"])
        row["tools listed"] = len(body["tools"])
        out[label] = {"tokens": row}
    if not run_model:
        return out
    llm = Llama(model_path=str(MODEL), n_ctx=16384, n_batch=512, n_threads=max(1, os.cpu_count() or 1),
                verbose=False)
    qwen = templates["Qwen3"]
    for label, body in bodies.items():
        names = [t["function"]["name"] for t in body["tools"]]
        held = _held_names(body)
        alternatives = [json.dumps(n) for n in names if n != "call_tool"]
        if held:
            alternatives.append('"call_tool\\", \\"arguments\\": {\\"name\\": \\"" held')
        gbnf = ('root ::= "<tool_call>\\n{\\"name\\": \\"" name "\\""\n'
                f"name ::= {' | '.join(alternatives)}\n")
        if held:
            gbnf += f"held ::= {' | '.join(json.dumps(n) for n in held)}\n"
        grammar = LlamaGrammar.from_string(gbnf, verbose=False)
        user = body["messages"][1]["content"]
        tail = user[len(FIRST):]
        hits, picks = 0, []
        for item in labels:
            messages = [body["messages"][0], {"role": "user", "content": item["request"] + tail}]
            prompt = qwen.render(messages=messages, tools=body["tools"], add_generation_prompt=True)
            tokens = llm.tokenize(prompt.encode(), add_bos=True, special=True)
            text = llm.create_completion(tokens, max_tokens=40, temperature=0.0, grammar=grammar)["choices"][0]["text"]
            chosen = text.rstrip('"').rsplit('"', 1)[-1]
            picks.append(chosen)
            hits += chosen in item["expected"]
        out[label]["model"] = {"hit": hits / len(labels), "n": len(labels), "picks": picks}
    return out


def _catalogue(description: str) -> list[str]:
    """call_tool's description as its lines, 'name(params): purpose'."""
    return description.split(": ", 1)[1].rstrip(".").split("; ")


def _held_names(body: dict) -> list[str]:
    for spec in body["tools"]:
        if spec["function"]["name"] == "call_tool":
            return [line.split("(", 1)[0] for line in _catalogue(spec["function"]["description"])]
    return []


def main() -> None:
    if "--measure" in sys.argv:  # inside the llama venv
        src, dst = sys.argv[sys.argv.index("--measure") + 1:][:2]
        data = json.loads(Path(src).read_text())
        Path(dst).write_text(json.dumps(measure(data["bodies"], data["labels"], data["model"])))
        return
    sys.path.insert(0, str(ROOT / "tests"))
    import conftest  # noqa: F401  (makes stacgis_agent and testkit importable)

    labels = json.loads(LABELS.read_text())["labels"]
    bodies = {label: asyncio.run(record(mode)) for label, mode in FORMS}
    choice = {label: asyncio.run(emulator_choice(body, labels)) for label, body in bodies.items()}
    run_model = "--model" in sys.argv
    n = 40
    if run_model and sys.argv.index("--model") + 1 < len(sys.argv):
        n = int(sys.argv[sys.argv.index("--model") + 1])
    if not (LLAMA_PY.exists() and MODEL.exists()):
        print(f"No tokenizer to count with ({LLAMA_PY} and {MODEL}); run `make setup-test` first.")
        sys.exit(1)
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "bodies.json", Path(tmp) / "results.json"
        src.write_text(json.dumps({"bodies": bodies, "labels": sample(labels, n), "model": run_model}))
        subprocess.run([str(LLAMA_PY), __file__, "--measure", str(src), str(dst)], check=True)
        results = json.loads(dst.read_text())
    forms = list(bodies)
    print(f"First request of a chat ('{FIRST}'), Gemma 3 tokenizer:")
    print(f"{'':36}" + "".join(f"{f:>34}" for f in forms))

    def line(name: str, cells: list) -> None:
        print(f"{name:36}" + "".join(f"{c:>34}" for c in cells))

    for key, name in (("Qwen3", "Qwen3 template: tokens"), ("Llama 3.2", "Llama 3.2 template: tokens"),
                      ("system prompt", "  of which the system prompt"), ("tools listed", "tools listed")):
        line(f"  {name}", [f"{results[f]['tokens'][key]:,}" for f in forms])
    print(f"\nTool choice on {len(labels)} labelled requests ({LABELS.name}), emulator embeddings + keywords "
          "on the text shown:")
    for key in ("hit@1", "recall@3"):
        line(f"  {key}", [f"{choice[f][key]:.3f}" for f in forms])
    if run_model:
        m = [results[f]["model"] for f in forms]
        print(f"\nReal small model (Gemma 3 270M, Qwen template), first tool named, {m[0]['n']} requests:")
        line("  hit (a needed tool)", [f"{r['hit']:.3f}" for r in m])
        agree = sum(a == b for a, b in zip(m[0]["picks"], m[1]["picks"])) / max(len(m[0]["picks"]), 1)
        print(f"  same tool named in both forms: {agree:.2f}")


if __name__ == "__main__":
    main()
