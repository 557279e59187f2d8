#!/usr/bin/python3
"""Signs S3 requests with botocore's S3SigV4Auth (Debian python3-botocore), an independent
implementation of AWS Signature Version 4, at a fixed time. Run with /usr/bin/python3 (the Debian
interpreter).

Usage: sigv4_botocore.py REQUESTS.json

The file holds a JSON array of requests, each an object:
  {"method", "scheme" ("http"/"https"), "host" (with ":port" when not the default), "path" (as
   sent, already URI-encoded), "query" ([[name, value], ...], decoded), "headers" ([[name,
   value], ...], repeats allowed), "body_hex" (the body, hashed by botocore) or
   "unsigned_payload": true, "access_key", "secret_key", "session_token" ("" for none),
   "region", "service", "amz_date" ("YYYYMMDDTHHMMSSZ")}
Prints a JSON array with, per request, the headers botocore added ("authorization",
"x-amz-date", "x-amz-content-sha256", "x-amz-security-token" or null) and its
"canonical_request".
"""
import datetime
import json
import sys
from unittest import mock

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials


class RecordingS3SigV4Auth(S3SigV4Auth):
    """S3SigV4Auth that keeps the canonical request it signed, to show on a mismatch."""

    last_canonical_request = None

    def canonical_request(self, request):
        text = super().canonical_request(request)
        self.last_canonical_request = text
        return text


class S3Config:
    """The client config botocore reads to sign with UNSIGNED-PAYLOAD."""

    def __init__(self, payload_signing_enabled):
        self.s3 = {"payload_signing_enabled": payload_signing_enabled}


def sign(spec):
    credentials = Credentials(spec["access_key"], spec["secret_key"], spec["session_token"] or None)
    auth = RecordingS3SigV4Auth(credentials, spec["service"], spec["region"])
    request = AWSRequest(
        method=spec["method"],
        url=spec["scheme"] + "://" + spec["host"] + spec["path"],
        data=bytes.fromhex(spec.get("body_hex", "")),
        params=[tuple(pair) for pair in spec["query"]],
    )
    for name, value in spec["headers"]:
        request.headers[name] = value  # appends: a repeated name keeps every value, in order
    if spec.get("unsigned_payload"):
        request.context["client_config"] = S3Config(False)
    when = datetime.datetime.strptime(spec["amz_date"], "%Y%m%dT%H%M%SZ")
    with mock.patch("botocore.auth.datetime") as clock:
        clock.datetime.utcnow.return_value = when
        clock.datetime.strptime = datetime.datetime.strptime
        auth.add_auth(request)
    return {
        "authorization": request.headers["Authorization"],
        "x-amz-date": request.headers["X-Amz-Date"],
        "x-amz-content-sha256": request.headers["X-Amz-Content-SHA256"],
        "x-amz-security-token": request.headers.get("X-Amz-Security-Token"),
        "canonical_request": auth.last_canonical_request,
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: sigv4_botocore.py REQUESTS.json")
    with open(sys.argv[1], encoding="utf-8") as f:
        specs = json.load(f)
    json.dump([sign(spec) for spec in specs], sys.stdout, ensure_ascii=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
