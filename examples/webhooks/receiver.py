#!/usr/bin/env python3
"""A receiver of `community-server watch <list> --forward-to URL`, with Python's standard library only.

Each delivery is a POST whose body is {"endpoint": "logs.list", "item": {...}} and whose header
Community-Server-Signature is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">, keyed by the
secret both sides share in COMMUNITY_SERVER_WEBHOOK_SECRET. The signature is checked over the body
exactly as received, before it is parsed; a delivery signed more than five minutes ago is refused
(one recorded and replayed later). Answering 2xx takes the delivery; anything else has the watch
send it again, and the items after it wait, so they arrive in order.

    COMMUNITY_SERVER_WEBHOOK_SECRET=... python3 receiver.py            # listens on 127.0.0.1:8000
    COMMUNITY_SERVER_WEBHOOK_SECRET=... community-server watch logs list --forward-to http://127.0.0.1:8000/

Each delivery taken is printed as one JSON line; PORT=0 picks a free port (printed on stderr).
"""
import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

SECRET = os.environ["COMMUNITY_SERVER_WEBHOOK_SECRET"].encode()
TOLERANCE_SECONDS = 300
MAX_BODY_BYTES = 10 * 1024 * 1024


def verify(body: bytes, header: str | None) -> bool:
    """Whether header signs body with SECRET, at a time within TOLERANCE_SECONDS of now."""
    if not header or len(header) > 2048:
        return False
    pairs = [field.strip().partition("=") for field in header.split(",")]
    times = [value for key, _, value in pairs if key == "t"]
    signatures = [value for key, _, value in pairs if key == "v1"]
    if len(times) != 1 or not times[0].isdigit() or not signatures:
        return False
    if abs(time.time() - int(times[0])) > TOLERANCE_SECONDS:
        return False
    expected = hmac.new(SECRET, times[0].encode() + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, signature) for signature in signatures)


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            self.send_response(413)
            self.end_headers()
            return
        body = self.rfile.read(length)
        if not verify(body, self.headers.get("Community-Server-Signature")):
            self.send_response(401)
            self.end_headers()
            return
        delivery = json.loads(body)
        handle(delivery["endpoint"], delivery["item"])
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass  # one line per delivery is handle()'s to print


def handle(endpoint: str, item: dict) -> None:
    """What the bot does with a new item: here, print it."""
    print(json.dumps({"endpoint": endpoint, "item": item}), flush=True)


if __name__ == "__main__":
    server = HTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8000"))), Receiver)
    print(f"listening on http://127.0.0.1:{server.server_port}/", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
