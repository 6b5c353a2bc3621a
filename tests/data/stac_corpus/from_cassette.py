"""Turns a VCR.py cassette (pystac-client's recorded sessions) into the plain JSON the replay server reads:
one entry per request, {method, url, body, status, response}; gzip and base64 bodies decoded. Run by hand
when the corpus is rebuilt (see SOURCES.md); the tests read only the JSON it writes."""

from __future__ import annotations

import gzip
import json
import sys

import yaml


def interactions(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        recorded = yaml.safe_load(handle)
    out = []
    for step in recorded["interactions"]:
        request, response = step["request"], step["response"]
        body = response["body"]["string"]
        if isinstance(body, bytes):
            try:
                body = gzip.decompress(body)
            except OSError:
                pass
            body = body.decode("utf-8")
        out.append({"method": request["method"], "url": request["uri"],
                    "body": json.loads(request["body"]) if request.get("body") else None,
                    "status": response["status"]["code"], "response": json.loads(body)})
    return out


if __name__ == "__main__":
    json.dump(interactions(sys.argv[1]), sys.stdout, indent=1)
