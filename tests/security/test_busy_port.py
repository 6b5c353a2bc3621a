"""A busy port never kills QGIS (issue 14 item 5): with the endpoint enabled on a port another program
holds, QGIS keeps running, the chat answers, the dock says what to do, and QGIS exits cleanly."""

from __future__ import annotations

import json
import socket

from testkit.qgis_drivers.qgis_host import start_host
from testkit.worlds.security_world import make_world


def test_a_port_held_by_another_program_is_reported_and_qgis_keeps_working(tmp_path):
    world = make_world(tmp_path)
    with socket.socket() as other_program:
        other_program.bind(("127.0.0.1", 0))
        other_program.listen()
        port = other_program.getsockname()[1]
        host = start_host(world, port)
        try:
            shown = host.expect("READY", "STATUS")
            turn = host.expect("TURN")
            layers = host.layers()
        finally:
            code = host.stop()
    assert shown.startswith("STATUS"), shown
    assert (f"MCP endpoint not started: port {port} is in use by another program: pick another port in Settings "
            "(Outside access).") in json.loads(shown.split(" ", 1)[1])
    assert json.loads(turn.split(" ", 1)[1]) == ["assistant", "The chat still answers."]
    assert "roads" in layers
    assert code == 0, "".join(host.stderr[-40:])
    assert "CLEAN EXIT" in "".join(host.stdout)
