"""Redis URLs with and without their credentials (stdlib only: the settings code imports it
before the plugin's requirements are checked)."""

from __future__ import annotations

from urllib.parse import quote, unquote, urlsplit, urlunsplit


def split_credentials(url: str) -> tuple[str, str, str]:
    """(the URL without user and password, user, password) of a redis:// or rediss:// URL whose host part
    starts with `user:password@`.
    Settings keep the first; QGIS's authentication database keeps the other two."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss") or "@" not in parts.netloc:
        return url, "", ""
    userinfo, _, hostport = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    return urlunsplit(parts._replace(netloc=hostport)), unquote(user), unquote(password)


def url_with_credentials(url: str, *, user: str | None = None, password: str | None = None) -> str:
    """The URL as stored plus the credentials from the auth manager, for the connection only
    (never saved, never shown: messages use `redacted`)."""
    if not (user or password):
        return url
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        return url  # a unix:// socket is protected by file permissions, not by a URL password
    bare, _, _ = split_credentials(url)
    parts = urlsplit(bare)
    userinfo = quote(user or "", safe="") + (":" + quote(password, safe="") if password else "")
    return urlunsplit(parts._replace(netloc=f"{userinfo}@{parts.netloc}"))


def redacted(url: str) -> str:
    """The URL without its credentials or options, for messages."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return f"unix://{parts.path}"
    host = parts.hostname or "localhost"
    return f"{parts.scheme}://{host}:{parts.port or 6379}"
