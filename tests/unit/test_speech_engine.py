"""The plain parts of voice input: the word error rate the e2e test reports, the resampling a microphone at
another rate goes through, and the request language model pocketsphinx reads (ARPA, every word spelled)."""

from __future__ import annotations

import math

import numpy as np

from stacgis_agent.tools.engine import speech


def test_word_error_rate_counts_substitutions_insertions_and_deletions():
    assert speech.word_error_rate("zoom to Lyon", "zoom to lyon") == 0
    assert speech.word_error_rate("zoom to Lyon", "zoom to iowa") == 1 / 3
    assert speech.word_error_rate("list the layers", "layers") == 2 / 3
    assert speech.word_error_rate("add a basemap", "add a basemap now please") == 2 / 3


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
    sentences = list(speech.requests(["lyon", "new york"]))
    assert ["zoom", "to", "lyon"] in sentences and ["zoom", "to", "new", "york"] in sentences
    words = speech.write_arpa(sentences, tmp_path / "r.lm")
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
