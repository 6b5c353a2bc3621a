"""Secrets taken out of text we pass on or print: GDAL's and QGIS's messages, tool errors, the session log.

A Planetary Computer read that fails makes GDAL print the whole SAS-signed URL (`…&sig=…`); logs travel in bug
reports. What is kept says where the secret was (`sig=…redacted`), so the message still explains the failure.
"""

from __future__ import annotations

import re
from typing import Any

REDACTED = "…redacted"

# query parameters that carry a secret: Azure SAS, AWS/GCS presigned URLs, OAuth and API keys
_QUERY_SECRETS = ("sig", "signature", "token", "access_token", "id_token", "refresh_token", "api_key", "apikey",
                  "api-key", "key", "password", "passwd", "pwd", "secret", "client_secret", "x-amz-signature",
                  "x-amz-credential", "x-amz-security-token", "x-goog-signature", "x-goog-credential")
_NAMES = "|".join(re.escape(k) for k in _QUERY_SECRETS)
# a value ends where the URL does: signatures and keys hold no ':', ',' or ')' (GDAL writes "…&sig=X: 403")
_QUERY = re.compile(r"([?&;](?:" + _NAMES + r")=)[^&\s#'\"<>:,;)]+", re.I)
# the same URL quoted inside another one (`/vsicurl?…&url=https%3A…%26sig%3D…`): its value ends at %26 or %23
_QUOTED_QUERY = re.compile(r"((?:%3F|%26)(?:" + _NAMES + r")%3D)(?:[^%&\s'\"<>:,;)]|%(?!26|23)[0-9A-F]{2})+", re.I)
_USERINFO = re.compile(r"(\b[a-z][a-z0-9+.-]*://[^/\s:@]*:)[^/\s@]+@", re.I)
_AUTHORIZATION = re.compile(r"(\bauthorization[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|basic|token|digest|sharedkey)\s+)?)"
                            r"[^\s,;'\"]+", re.I)
_KEY_HEADERS = re.compile(r"(\b(?:x-api-key|api-key|apikey|ocp-apim-subscription-key|x-amz-security-token|"
                          r"aws_secret_access_key|aws_session_token)[\"']?\s*[:=]\s*[\"']?)[^\s,;'\"]+", re.I)


def redacted(text: str) -> str:
    """`text` with the values of signatures, tokens, keys, passwords in URLs and Authorization headers replaced."""
    if not text:
        return text
    text = _QUERY.sub(r"\1" + REDACTED, text)
    text = _QUOTED_QUERY.sub(r"\1" + REDACTED, text)
    text = _USERINFO.sub(r"\1" + REDACTED + "@", text)
    text = _AUTHORIZATION.sub(r"\1" + REDACTED, text)
    return _KEY_HEADERS.sub(r"\1" + REDACTED, text)


def redacted_in(value: Any) -> Any:
    """Every string inside JSON-like data redacted (dict keys kept)."""
    if isinstance(value, str):
        return redacted(value)
    if isinstance(value, dict):
        return {k: redacted_in(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redacted_in(v) for v in value]
    return value
