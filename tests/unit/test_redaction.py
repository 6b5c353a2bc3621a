"""Secrets never reach a log or an error text we pass on: SAS signatures, presigned-URL signatures, tokens, keys,
passwords in URLs and Authorization values are replaced by `…redacted`; the rest of the message still says what
failed and where."""

from __future__ import annotations

import pytest_asyncio

from stacgis_agent.agent.redaction import redacted, redacted_in
from testkit.llm.agent_harness import harness_factory
from testkit.llm.ollama_emulator import Turn
from testkit.servers.inmemory_stores import InMemorySessionStore

SAS = "https://sentinel2l2a01.blob.core.windows.net/s2/T31TFL_B04.tif?st=2024-06-01&se=2024-06-02&sp=rl&sv=2021-06-08" \
      "&sr=c&skoid=abc&sig=Zm9vYmFyQmF6K3F1eA%3D%3D"


def test_a_sas_signature_is_redacted_and_the_rest_of_gdals_warning_kept():
    warning = f"HTTP response code on {SAS}: 403"
    assert redacted(warning) == warning.replace("Zm9vYmFyQmF6K3F1eA%3D%3D", "…redacted")
    assert redacted(warning).endswith("&sig=…redacted: 403")


def test_presigned_urls_tokens_keys_and_passwords_are_redacted():
    cases = {
        "https://b.s3.amazonaws.com/k.tif?X-Amz-Credential=AKIAEXAMPLE%2F20240101&X-Amz-Signature=deadbeef01":
            "https://b.s3.amazonaws.com/k.tif?X-Amz-Credential=…redacted&X-Amz-Signature=…redacted",
        "https://api.example.org/search?limit=3&token=eyJhbGciOi.x.y": "https://api.example.org/search?limit=3&token=…redacted",
        "https://tiles.example.org/{z}/{x}/{y}.png?key=AIzaSyEXAMPLE": "https://tiles.example.org/{z}/{x}/{y}.png?key=…redacted",
        "cannot open https://ana:s3cret-pw@stac.example.org/items": "cannot open https://ana:…redacted@stac.example.org/items",
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc": "Authorization: Bearer …redacted",
        "headers {'authorization': 'Basic YW5hOnB3'}": "headers {'authorization': 'Basic …redacted'}",
        "X-API-Key: 0123456789abcdef": "X-API-Key: …redacted",
        "'/vsicurl?pc_url_signing=yes&url=http://h/B04.tif%3Fst%3Dnow%26sig%3Dc2Vj%252Bcg%26sp%3Drl'":
            "'/vsicurl?pc_url_signing=yes&url=http://h/B04.tif%3Fst%3Dnow%26sig%3D…redacted%26sp%3Drl'",
    }
    for text, expected in cases.items():
        assert redacted(text) == expected, text


def test_text_without_secrets_is_left_as_it_is():
    for text in ("/vsicurl?pc_url_signing=yes&pc_collection=sentinel-2-l2a&url=https://x.blob.core.windows.net/a.tif",
                 "The token endpoint is unreachable: check the network.", "key: value", "mean NDVI 0.42 (sig. 0.05)"):
        assert redacted(text) == text
    assert redacted_in({"items": [{"href": SAS, "n": 3}], "ok": True}) == \
        {"items": [{"href": redacted(SAS), "n": 3}], "ok": True}


@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


async def test_the_saved_session_log_holds_no_signature(make_harness):
    h = make_harness()
    store = InMemorySessionStore()
    h.make_loop(session_store=store, session_id="s1")
    # the thinking streams in fragments, joined in the log: the signature may be cut between two of them
    h.emu.script(Turn(thinking=f"The read of {SAS} failed with 403.", content=f"GDAL could not read {SAS}."))
    await h.run("Statistics of the B04 asset?")
    saved = str(store.saves[-1][2])
    assert "Zm9vYmFyQmF6K3F1eA" not in saved
    assert saved.count("sig=…redacted") >= 2
