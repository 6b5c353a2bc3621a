"""The COG reader's HTTP client never holds a whole file a server sends instead of the range asked: a server that
ignores Range answers 200 with the file, and 64 reads in flight each keeping a multi-gigabyte COG would take QGIS's
memory. Such an answer is refused (the caller then lets GDAL read the file)."""

from __future__ import annotations

import socket
import threading

import pytest

from stacgis_agent.tools.engine import cog_http

WHOLE_FILE = 16 * 1024 * 1024  # four times the least body the client takes, and far more than the range asked


class _RangeIgnoringServer:
    """Answers every request with the whole 16 MB 'file': with its length, or delimited by closing the connection."""

    def __init__(self, with_length: bool) -> None:
        self.with_length = with_length
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/big.tif"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            conn.recv(65_536)
            head = "HTTP/1.1 200 OK\r\n" + (f"Content-Length: {WHOLE_FILE}\r\n" if self.with_length else
                                           "Connection: close\r\n") + "\r\n"
            try:
                conn.sendall(head.encode() + bytes(WHOLE_FILE))
            except OSError:  # the client hung up: what it should do
                pass

    def close(self) -> None:
        self.sock.close()


@pytest.mark.parametrize("with_length", [True, False], ids=["content-length", "until-close"])
def test_a_whole_file_sent_for_a_range_is_refused_not_kept(with_length):
    server = _RangeIgnoringServer(with_length)
    try:
        future = cog_http.submit(cog_http.client().get_range(server.url, 0, 16_384))
        with pytest.raises(cog_http.HttpError, match="no range support"):
            future.result(timeout=60)
    finally:
        server.close()
