#!/usr/bin/python3
"""A test SMTP server on aiosmtpd: saves every message as NNNN.eml (the exact bytes received)
with NNNN.json (the envelope), optionally requires STARTTLS with the given certificate and
AUTH with one user/password, refuses chosen recipients with 550 5.1.1, and can drop the
connection after the message data without replying. Writes READY_FILE once listening; exits
on SIGTERM (how the Swift fixture stops it, SIGKILL after a deadline) or SIGINT."""
import argparse, asyncio, json, os, signal, ssl, sys, threading
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

p = argparse.ArgumentParser()
p.add_argument("--port", type=int, required=True)
p.add_argument("--dir", required=True)
p.add_argument("--ready-file", required=True)
p.add_argument("--cert"); p.add_argument("--key")
p.add_argument("--auth", help="user:password required")
p.add_argument("--refuse", action="append", default=[])
p.add_argument("--drop-after-data", action="store_true")
args = p.parse_args()

class Handler:
    def __init__(self):
        self.count = 0
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in args.refuse:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            n = self.count
        base = os.path.join(args.dir, "%04d" % n)
        with open(base + ".eml.tmp", "wb") as f:
            f.write(envelope.original_content)
        with open(base + ".json", "w") as f:
            json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos}, f)
        os.rename(base + ".eml.tmp", base + ".eml")
        if args.drop_after_data:
            server.transport.abort()
            return "250 never sent"
        return "250 2.0.0 Ok: queued as Q%04d" % n

def authenticator(server, session, envelope, mechanism, auth_data):
    user, password = args.auth.split(":", 1)
    if isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \
            and auth_data.password.decode() == password:
        return AuthResult(success=True)
    return AuthResult(success=False, handled=False)

kwargs = {}
if args.cert:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(args.cert, args.key)
    kwargs.update(tls_context=context, require_starttls=True)
if args.auth:
    kwargs.update(authenticator=authenticator, auth_required=True,
                  auth_require_tls=bool(args.cert))
# Big messages (100 MB attachments) must not be refused.
controller = Controller(Handler(), hostname="127.0.0.1", port=args.port,
                        data_size_limit=1 << 30, **kwargs)
controller.start()
with open(args.ready_file, "w") as f:
    f.write(str(os.getpid()))
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
signal.signal(signal.SIGINT, lambda *_: stop.set())
while not stop.wait(0.2):
    pass
controller.stop()
