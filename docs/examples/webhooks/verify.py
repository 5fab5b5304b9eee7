"""A Gatehouse webhook receiver in Python, standard library only.

docs/webhooks.md quotes this file; test/docs/webhooks-page.test.ts runs it (harness.py).
Run it: GATEHOUSE_WEBHOOK_SECRET=whsec_... python3 verify.py
"""

import base64
import hashlib
import hmac
import json
import os
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 5 * 60
MAX_BODY_BYTES = 1024 * 1024


class WebhookVerificationError(Exception):
    pass


def verify_webhook(secret, body, headers, now=None):
    """Checks one delivery against the endpoint's secret (whsec_...) and returns its event.

    `body` is the bytes as received; `headers` maps lower-case header names to values.
    Raises WebhookVerificationError for a delivery that does not verify.
    """
    msg_id = headers.get("webhook-id", "")
    timestamp = headers.get("webhook-timestamp", "")
    signatures = headers.get("webhook-signature", "")
    if not msg_id or not timestamp.isdigit() or not signatures:
        raise WebhookVerificationError("missing or malformed webhook headers")
    # Older than 5 minutes, or as far ahead: a replayed or forged request.
    now = int(time.time()) if now is None else now
    if abs(now - int(timestamp)) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("timestamp outside the tolerance")
    key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())
    # Space-separated "v1,<base64>" entries: two during a secret rotation; any one will do.
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode(), expected):
            return json.loads(body)
    raise WebhookVerificationError("no matching signature")


def make_handler(secret, handle):
    """A request handler: 401 unverified, 204 handled, 500 when `handle` raises (Gatehouse retries).

    Every attempt of an event carries the same webhook-id and a delivery can come twice (a
    retry after a lost answer, a replay), so each id is handled once. `seen` is in memory
    here; keep the ids where the event's effect is written (a unique column, in the same
    transaction), so that a restart forgets nothing.
    """
    seen = set()

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            if length > MAX_BODY_BYTES:
                self.send_response(413)
                self.end_headers()
                return
            body = self.rfile.read(length)
            headers = {name.lower(): value for name, value in self.headers.items()}
            try:
                event = verify_webhook(secret, body, headers)
            except (WebhookVerificationError, ValueError):
                self.send_response(401)
                self.end_headers()
                return
            msg_id = headers["webhook-id"]
            if msg_id not in seen:  # handled already: answer 2xx, or it is sent again
                try:
                    # Events may arrive in any order: compare event["timestamp"] with what you hold.
                    handle(msg_id, event)
                except Exception:
                    self.send_response(500)
                    self.end_headers()
                    return
                seen.add(msg_id)
            self.send_response(204)
            self.end_headers()

        def log_message(self, format, *args):
            pass

    return Receiver


if __name__ == "__main__":
    secret = os.environ["GATEHOUSE_WEBHOOK_SECRET"]
    handler = make_handler(secret, lambda msg_id, event: print(msg_id, event["type"], flush=True))
    ThreadingHTTPServer(("", int(os.environ.get("PORT", "3000"))), handler).serve_forever()
