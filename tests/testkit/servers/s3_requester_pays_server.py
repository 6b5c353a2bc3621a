"""Run with the moto venv's Python (`.build/moto-venv`, made by `make setup-test`), not the QGIS one:

    python s3_requester_pays_server.py PORT BUCKET FOLDER [--requester-pays]

An S3-compatible server on 127.0.0.1:PORT (moto in server mode) that checks every request's AWS signature
against one IAM user, and, for a requester-pays bucket, refuses reads without `x-amz-request-payer:
requester` with 403 AccessDenied, as AWS does (moto records the flag but does not enforce it). The bucket
holds FOLDER's files. Prints one JSON line {"key_id", "secret"} once it serves.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "0"  # every HTTP request is authenticated (set before moto loads)
os.environ.setdefault("AWS_DEFAULT_REGION", "us-west-2")

from moto.core import DEFAULT_ACCOUNT_ID  # noqa: E402
from moto.iam.models import iam_backends  # noqa: E402
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app  # noqa: E402
from moto.s3.models import s3_backends  # noqa: E402
from werkzeug.serving import run_simple  # noqa: E402

DENIED = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied'
          b'</Message></Error>')


def main() -> None:
    port, bucket, folder = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    requester_pays = "--requester-pays" in sys.argv
    iam = iam_backends[DEFAULT_ACCOUNT_ID]["global"]
    iam.create_user("us-west-2", "analyst")
    iam.put_user_policy("analyst", "read-all", json.dumps(
        {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
    key = iam.create_access_key("analyst")
    s3 = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    s3.create_bucket(bucket, "us-west-2")
    for path in sorted(folder.iterdir()):
        if path.is_file():
            s3.put_object(bucket, path.name, path.read_bytes())
    s3.get_bucket(bucket).payer = "Requester" if requester_pays else "BucketOwner"
    app = DomainDispatcherApplication(create_backend_app)

    def guarded(environ, start_response):
        on_bucket = environ.get("PATH_INFO", "").lstrip("/").split("/")[0] == bucket
        paying = environ.get("HTTP_X_AMZ_REQUEST_PAYER", "").lower() == "requester"
        if requester_pays and on_bucket and not paying:
            start_response("403 Forbidden", [("Content-Type", "application/xml"),
                                              ("Content-Length", str(len(DENIED)))])
            return [b"" if environ["REQUEST_METHOD"] == "HEAD" else DENIED]
        return app(environ, start_response)

    print(json.dumps({"key_id": key.access_key_id, "secret": key.secret_access_key}), flush=True)
    run_simple("127.0.0.1", port, guarded, threaded=True)


if __name__ == "__main__":
    main()
