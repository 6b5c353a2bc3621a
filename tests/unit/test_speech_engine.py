"""The plain parts of voice input: the word error rate the e2e test reports (on words written one way), the
resampling a microphone at another rate goes through, the words that prime Whisper, the check of its bundled
model, and the request language model the pocketsphinx fallback reads (ARPA, every word spelled)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from stacgis_agent.tools.engine import speech, speech_sphinx, speech_whisper, speech_words


def test_word_error_rate_counts_substitutions_insertions_and_deletions():
    assert speech.word_error_rate("zoom to Lyon", "zoom to lyon") == 0
    assert speech.word_error_rate("zoom to Lyon", "zoom to iowa") == 1 / 3
    assert speech.word_error_rate("list the layers", "layers") == 2 / 3
    assert speech.word_error_rate("add a basemap", "add a basemap now please") == 2 / 3


def test_a_request_written_another_way_is_not_an_error():
    """Whisper writes "Sentinel-2", "20%" and "2023" where a person says "sentinel two", "twenty percent"."""
    said = "load sentinel two images with less than twenty percent clouds in twenty twenty three"
    assert speech.word_error_rate(said, "Load Sentinel-2 images with less than 20% clouds in 2023.") == 0
    assert speech_words.normalise("what changed between twenty twenty and twenty twenty three") == [
        "what", "changed", "between", "2020", "and", "2023"]
    assert speech_words.normalise("two thousand and five hundred metres") == ["2500", "meters"]
    assert speech_words.normalise("Add OpenStreetMap in grey colour") == ["add", "open", "street", "map", "in",
                                                                          "gray", "color"]
    assert speech_words.normalise("Sentinel-2 L2A, 500m") == ["sentinel", "2", "l2a", "500", "meters"]
    assert speech.word_error_rate("show the NDVI of June", "Show the NDVI on June.") == 1 / 5


def test_key_words_are_heard_only_when_each_one_is():
    assert speech_words.keys_heard(["sentinel", "2", "clouds"], "Load Sentinel-2 with few clouds")
    assert not speech_words.keys_heard(["sentinel", "2"], "Load Sentinel images")
    assert speech_words.keys_heard(["two", "changes"], "undo the last 2 changes")


def test_whisper_is_primed_with_the_domain_and_the_projects_names_within_its_prompt_window():
    prompt = speech_words.vocabulary_prompt(["parcels_2024", "Lyon DEM", "NDVI", "x" * 200])
    assert "NDVI" in prompt and "Sentinel-2" in prompt and "parcels 2024" in prompt and "Lyon DEM" in prompt
    assert prompt.count("NDVI,") == 1 and "x" * 200 not in prompt  # each name once; a name too long is left out
    many = speech_words.vocabulary_prompt([f"layer number {i}" for i in range(100)])
    assert len(many) - len(speech_words.vocabulary_prompt()) <= speech_words.PROJECT_NAMES_CHARS + 2


def test_only_the_bundled_model_with_the_pinned_hash_or_a_complete_folder_is_used(tmp_path, monkeypatch):
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "model.bin").write_bytes(b"weights")
    with pytest.raises(speech_whisper.ModelProblem, match="config.json, tokenizer.json"):
        speech_whisper.model_folder(str(folder))
    for name in ("config.json", "tokenizer.json"):
        (folder / name).write_text("{}")
    assert speech_whisper.model_folder(str(folder / "model.bin")) == (folder, False)  # the analyst's own: no pin
    monkeypatch.setattr(speech_whisper, "bundled_model", lambda: folder)
    monkeypatch.setattr(speech_whisper, "available", lambda: True)
    assert speech_whisper.model_folder("") == (folder, True)
    with pytest.raises(speech_whisper.ModelProblem, match="hash differs"):
        speech_whisper.WhisperRecogniser()._load()  # another model.bin in the package's place is refused
    monkeypatch.setattr(speech_whisper, "bundled_model", lambda: None)
    with pytest.raises(speech_whisper.ModelProblem, match="Install voice input"):
        speech_whisper.model_folder("")


def test_resampling_keeps_a_tone_and_drops_what_the_new_rate_cannot_hold():
    rate = 22_050
    t = np.arange(rate) / rate
    tone = 8000 * np.sin(2 * np.pi * 440 * t) + 8000 * np.sin(2 * np.pi * 10_000 * t)  # 10 kHz > 8 kHz Nyquist
    out = np.frombuffer(speech.resample(tone.astype("<i2"), rate), "<i2").astype(float)
    assert out.size == speech.SAMPLE_RATE
    spectrum = np.abs(np.fft.rfft(out))
    assert spectrum.argmax() == 440  # 1 Hz bins over one second
    folded = 16_000 - 10_000  # where a 10 kHz tone would alias to without the band limit
    assert spectrum[folded - 5:folded + 5].max() < spectrum[440] / 100


def test_the_request_model_is_a_valid_bigram_arpa_of_the_templates(tmp_path):
    sentences = list(speech_sphinx.requests(["lyon", "new york"]))
    assert ["zoom", "to", "lyon"] in sentences and ["zoom", "to", "new", "york"] in sentences
    words = speech_sphinx.write_arpa(sentences, tmp_path / "r.lm")
    lines = (tmp_path / "r.lm").read_text().splitlines()
    unigrams = [line.split() for line in lines[lines.index("\\1-grams:") + 1:lines.index("\\2-grams:") - 1]]
    bigrams = [line.split() for line in lines[lines.index("\\2-grams:") + 1:lines.index("\\end\\") - 1]]
    assert int(lines[1].split("=")[1]) == len(unigrams) and int(lines[2].split("=")[1]) == len(bigrams)
    assert "ndvi" in words and "lyon" in words
    probability = sum(10 ** float(u[0]) for u in unigrams if u[1] != "<s>")
    assert math.isclose(probability, 1.0, rel_tol=0.01)  # the unigrams are a distribution
    after_zoom = sum(10 ** float(b[0]) for b in bigrams if b[1] == "zoom")
    backoff = 10 ** float(next(u[2] for u in unigrams if u[1] == "zoom"))
    seen = {b[2] for b in bigrams if b[1] == "zoom"}
    rest = sum(10 ** float(u[0]) for u in unigrams if u[1] not in seen and u[1] != "<s>")
    assert math.isclose(after_zoom + backoff * rest, 1.0, rel_tol=0.01)  # and so is what follows "zoom"


def test_the_second_opinion_is_whisper_base_joined_from_its_two_packages_only_when_its_hash_matches(tmp_path,
                                                                                                    monkeypatch):
    import hashlib
    import importlib.util
    from types import SimpleNamespace

    halves = {}
    for i, name in enumerate(speech_whisper.COMPANION_PACKAGES, 1):
        data = tmp_path / name / "data"
        data.mkdir(parents=True)
        (tmp_path / name / "__init__.py").write_text("")
        (data / f"model.bin.part{i}").write_bytes(b"half %d " % i)
        halves[name] = SimpleNamespace(origin=str(tmp_path / name / "__init__.py"))
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        (tmp_path / speech_whisper.COMPANION_PACKAGES[0] / "data" / name).write_text(name)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: halves.get(name))
    assert speech_whisper.companion_files() is None  # two halves that are not Whisper base's: not loaded
    monkeypatch.setattr(speech_whisper, "COMPANION_WEIGHTS_SHA256", hashlib.sha256(b"half 1 half 2 ").hexdigest())
    files = speech_whisper.companion_files()
    assert files["model.bin"] == b"half 1 half 2 " and files["tokenizer.json"] == b"tokenizer.json"
    del halves[speech_whisper.COMPANION_PACKAGES[1]]
    assert speech_whisper.companion_files() is None  # one half missing: the main model works alone
