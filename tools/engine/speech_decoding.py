"""One loaded Whisper model at work on an utterance: encode it once, propose transcripts, score any transcript.

CTranslate2's Whisper is driven directly (faster-whisper loads it, extracts the features and holds the
tokenizer): `hypotheses` is a beam search that returns its BEAM best transcripts, primed with the domain prompt
or not; `scores` is Whisper's log probability of a given transcript given the audio (CTranslate2's alignment
pass reports each token's probability), which lets a transcript Whisper did not propose ("Search Landsat for
Texas", a near miss of speech_domain) be judged by what was said. CTranslate2 releases Python's lock while it
computes, so a recognition in a worker leaves the GUI thread free.
"""

from __future__ import annotations

import math

import numpy as np

SAMPLE_RATE = 16_000
WINDOW_S, WINDOW_FRAMES = 30, 3000  # Whisper hears 30 s at a time (100 feature frames a second)
PROMPT_TOKENS = 223  # Whisper reads at most the last 223 tokens of its prompt
BEAM = 5  # beam width, and how many transcripts each beam search proposes


class LoadedWhisper:
    """A faster-whisper model and its tokenizer (English, transcription)."""

    def __init__(self, source: str, threads: int, files: dict | None = None) -> None:
        from faster_whisper import WhisperModel
        from faster_whisper.tokenizer import Tokenizer

        # float32: tiny.en quantised to int8 misheard more (word error rate 0.24 against 0.21 on the tuning requests)
        self.model = WhisperModel(source, device="cpu", compute_type="float32", cpu_threads=threads, files=files)
        self.tokens = Tokenizer(self.model.hf_tokenizer, self.model.model.is_multilingual, task="transcribe",
                                language="en")

    def encode(self, audio: np.ndarray):
        """(the encoder's output, the number of feature frames that hold audio) for at most WINDOW_S seconds."""
        import ctranslate2

        features = self.model.feature_extractor(audio)
        frames = min(features.shape[-1], WINDOW_FRAMES)
        window = np.zeros((features.shape[0], WINDOW_FRAMES), np.float32)
        window[:, :frames] = features[:, :frames]
        return self.model.model.encode(ctranslate2.StorageView.from_array(window[None]), to_cpu=False), frames

    def _start(self, prompt: str) -> list[int]:
        primed = [self.tokens.sot_prev, *self.tokens.encode(" " + prompt.strip())[-PROMPT_TOKENS:]] if prompt else []
        return [*primed, *self.tokens.sot_sequence, self.tokens.no_timestamps]

    def hypotheses(self, encoded, prompt: str) -> list[str]:
        """Whisper's best transcripts (beam search), best first; `prompt` primes it ("" for none)."""
        result = self.model.model.generate(encoded, [self._start(prompt)], beam_size=BEAM, num_hypotheses=BEAM)[0]
        texts = (" ".join(self.tokens.decode(ids).split()) for ids in result.sequences_ids)
        return [text for text in texts if text]

    def scores(self, encoded, frames: int, texts: list[str]) -> dict[str, tuple[float, int]]:
        """Per transcript: (Whisper's log probability of its tokens given the audio, with no prompt; their count)."""
        start = list(self.tokens.sot_sequence)
        found = {}
        for text in texts:  # one at a time: CTranslate2 aligns a batch more slowly than its parts
            tokens = self.tokens.encode(" " + text.strip())
            aligned = self.model.model.align(encoded, start, [tokens], [frames], median_filter_width=1)[0]
            found[text] = (float(sum(math.log(max(p, 1e-12)) for p in aligned.text_token_probs)), max(1, len(tokens)))
        return found

    def transcribe_long(self, audio: np.ndarray, prompt: str) -> str:
        """Past the 30 s window: faster-whisper's own long-form decoding, primed."""
        segments, _info = self.model.transcribe(
            audio, language="en", beam_size=BEAM, initial_prompt=prompt, condition_on_previous_text=False,
            without_timestamps=True, vad_filter=False, no_speech_threshold=None, log_prob_threshold=None)
        return " ".join(" ".join(segment.text.strip() for segment in segments).split())
