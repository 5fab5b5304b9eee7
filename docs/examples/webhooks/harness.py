"""Runs verify.py for test/docs/webhooks-page.test.ts: cases in, outcomes out, as JSON.

stdin: {"verify": [{"name", "secret", "body", "headers"}],
        "serve": {"secret", "fail_once": [ids], "requests": [{"name", "body", "headers"}]}}
stdout: {"verify": [{"name", "ok", "type"}], "serve": {"statuses": [{"name", "status"}], "handled": [ids]}}
"""

import json
import sys
import threading
import urllib.error
import urllib.request
from http.server import ThreadingHTTPServer

from verify import WebhookVerificationError, make_handler, verify_webhook


def run_verify(case):
    headers = {name.lower(): value for name, value in case["headers"].items()}
    try:
        event = verify_webhook(case["secret"], case["body"].encode(), headers)
        return {"name": case["name"], "ok": True, "type": event["type"]}
    except (WebhookVerificationError, ValueError) as error:
        return {"name": case["name"], "ok": False, "error": str(error)}


def run_serve(serve):
    handled = []
    failing = set(serve.get("fail_once", []))

    def handle(msg_id, event):
        if msg_id in failing:
            failing.discard(msg_id)
            raise RuntimeError("failing once on purpose")
        handled.append(msg_id)

    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(serve["secret"], handle))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    statuses = []
    try:
        for request in serve["requests"]:
            post = urllib.request.Request(
                f"http://127.0.0.1:{server.server_address[1]}/webhooks/gatehouse",
                data=request["body"].encode(),
                headers={"content-type": "application/json", **request["headers"]},
                method="POST",
            )
            try:
                with urllib.request.urlopen(post, timeout=10) as answer:
                    status = answer.status
            except urllib.error.HTTPError as error:
                status = error.code
            statuses.append({"name": request["name"], "status": status})
    finally:
        server.shutdown()
    return {"statuses": statuses, "handled": handled}


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    json.dump({"verify": [run_verify(c) for c in cases["verify"]], "serve": run_serve(cases["serve"])}, sys.stdout)
