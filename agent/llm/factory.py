"""The provider the user configured: Ollama, with an optional backup server or model."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..config import Settings
from .fallback import FallbackProvider
from .http_provider import HttpProvider
from .ollama import OllamaProvider
from .openai_compat import OpenAICompatProvider
from .tool_protocol import ProtocolMemory, ToolProtocolProvider
from .types import ChatOptions, Provider


def provider_from_settings(settings: Settings, *, known_tools: Iterable[str] | None = None,
                           backup_api_key: str = "", protocol_folder: str | Path | None = None) -> Provider:
    """OllamaProvider for the chat model; wrapped in a FallbackProvider when a backup is set.

    Each model gets native or constrained-JSON tool calling (remembered per model in
    `protocol_folder`, the plugin's data folder; in memory only when None).
    `backup_api_key` comes from QGIS's auth manager (secrets are not settings fields): the plugin reads
    the password of `settings.backup_auth_cfg` and passes it here; it is sent as a bearer token to an
    OpenAI-compatible backup only, never to Ollama.
    """
    memory = ProtocolMemory(protocol_folder)

    def choose_protocol(provider: HttpProvider) -> Provider:
        return ToolProtocolProvider(provider, force_constrained=settings.constrained_tools, memory=memory)

    options = ChatOptions.from_settings(settings)
    common = dict(options=options, timeout_s=settings.request_timeout_s,
                  known_tools=known_tools, embed_model=settings.embedding_model)
    primary = OllamaProvider(settings.ollama_url, settings.chat_model, **common)
    if not (settings.backup_provider_url or settings.backup_model):
        return choose_protocol(primary)
    url = settings.backup_provider_url or settings.ollama_url  # a backup may be just another model
    model = settings.backup_model or settings.chat_model
    backup: HttpProvider
    if settings.backup_kind == "openai":
        backup = OpenAICompatProvider(url, model, api_key=backup_api_key, **common)
    else:
        backup = OllamaProvider(url, model, **common)
    if (backup.kind, backup.base_url, backup.model) == (primary.kind, primary.base_url, primary.model):
        return choose_protocol(primary)
    return FallbackProvider(choose_protocol(primary), choose_protocol(backup))
