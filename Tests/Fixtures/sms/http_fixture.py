#!/usr/bin/python3
"""Loopback HTTP peers for the SMS sink tests: a Twilio-compatible REST API and a webhook
receiver. Both record every request (method, path, headers, body) as one JSON line.

    http_fixture.py --mode twilio|webhook --log FILE --port-file FILE [--auth USER:PASS]

Binds 127.0.0.1 on a free port and writes the port to --port-file once it is listening.
Behaviour is chosen by the recipient number so a test can ask for each answer:

twilio  +15005550009 → 400 code 21211; +15005550429 → 429 Retry-After: 7; +15005550500 → 503;
        anything else → 201 queued. Polling GET .../Messages/SID.json answers "sending" for the
        first poll, then "delivered" — or "undelivered" (30003) when the number ends in 2.
webhook +15005550503 → 503 Retry-After: 3; +15005550422 → 422; anything else → 200 {"id": …}.
"""
import argparse, base64, json, os, secrets, threading, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--mode", choices=["twilio", "webhook"], required=True)
parser.add_argument("--log", required=True)
parser.add_argument("--port-file", required=True)
parser.add_argument("--auth")
args = parser.parse_args()

lock = threading.Lock()
messages = {}  # sid -> {"to":…, "polls": n}
counter = [0]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, so the client can reuse its connection

    def log_message(self, *a):
        pass

    def record(self, body):
        entry = {"method": self.command, "path": self.path,
                 "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
        with lock, open(args.log, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def reply(self, status, obj, headers=None):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n).decode("utf-8") if n else ""

    def authorized(self):
        if not args.auth:
            return True
        expected = "Basic " + base64.b64encode(args.auth.encode()).decode()
        if self.headers.get("Authorization") == expected:
            return True
        self.reply(401, {"code": 20003, "message": "Authenticate", "status": 401})
        return False

    def do_GET(self):
        self.record("")
        if args.mode == "webhook":
            return self.reply(200, {"ok": True})
        if not self.authorized():
            return
        parts = self.path.split("?")[0].split("/")
        if len(parts) == 6 and parts[-1].endswith(".json"):  # /2010-04-01/Accounts/AC/Messages/SM.json
            sid = parts[-1][:-5]
            with lock:
                m = messages.get(sid)
                if m is None:
                    return self.reply(404, {"code": 20404, "message": "not found", "status": 404})
                m["polls"] += 1
                polls = m["polls"]
            if polls < 2:
                return self.reply(200, {"sid": sid, "status": "sending", "error_code": None})
            if m["to"].endswith("2"):
                return self.reply(200, {"sid": sid, "status": "undelivered", "error_code": 30003,
                                        "error_message": "Unreachable destination handset"})
            return self.reply(200, {"sid": sid, "status": "delivered", "error_code": None})
        return self.reply(200, {"sid": parts[-1].split(".")[0], "status": "active"})

    def do_POST(self):
        body = self.body()
        self.record(body)
        if args.mode == "webhook":
            to = (json.loads(body or "{}") or {}).get("to", "")
            if to == "+15005550503":
                return self.reply(503, {"error": "busy"}, {"Retry-After": "3"})
            if to == "+15005550422":
                return self.reply(422, {"error": "bad number"})
            with lock:
                counter[0] += 1
                n = counter[0]
            return self.reply(200, {"id": "wh-%d" % n})
        if not self.authorized():
            return
        form = dict(urllib.parse.parse_qsl(body, keep_blank_values=True))
        to = form.get("To", "")
        if to == "+15005550009":
            return self.reply(400, {"code": 21211, "message": "The 'To' number %s is not a valid phone number." % to,
                                    "status": 400})
        if to == "+15005550429":
            return self.reply(429, {"code": 20429, "message": "Too Many Requests", "status": 429}, {"Retry-After": "7"})
        if to == "+15005550500":
            return self.reply(503, {"code": 20500, "message": "Service Unavailable", "status": 503})
        sid = "SM" + secrets.token_hex(16)
        with lock:
            messages[sid] = {"to": to, "polls": 0}
        self.reply(201, {"sid": sid, "status": "queued", "to": to, "from": form.get("From"), "body": form.get("Body")})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
tmp = args.port_file + ".tmp"
with open(tmp, "w") as f:
    f.write(str(server.server_address[1]))
os.rename(tmp, args.port_file)
server.serve_forever()
