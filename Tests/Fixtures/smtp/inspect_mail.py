#!/usr/bin/python3
"""Parses a saved .eml with Python's email package (an independent MIME parser) and prints
what the tests check, as JSON: decoded headers, the raw header names, and every leaf part with
its type, filename, transfer encoding, sha256 of the decoded payload and decoded text."""
import email, email.policy, hashlib, json, sys

def inspect(path):
    with open(path, "rb") as f:
        raw = f.read()
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    parts = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True) or b""
        entry = {
            "content_type": part.get_content_type(),
            "filename": part.get_filename(),
            "disposition": part.get_content_disposition(),
            "transfer_encoding": part.get("Content-Transfer-Encoding"),
            "sha256": hashlib.sha256(payload).hexdigest(),
            "size": len(payload),
        }
        if part.get_content_maintype() == "text":
            # Decoded QP/base64 text keeps its CRLFs; the tests compare with \n line ends.
            entry["text"] = part.get_content().replace("\r\n", "\n")
        parts.append(entry)
    lines = raw.split(b"\r\n")
    return {
        "headers": {k: str(v) for k, v in msg.items()},
        "header_names": [k for k, _ in msg.items()],
        "defects": [str(d) for p in msg.walk() for d in p.defects],
        "content_type": msg.get_content_type(),
        "parts": parts,
        "max_line": max(len(l) for l in lines),
        "max_header_line": max(len(l) for l in raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n")),
        "bare_lf": raw.replace(b"\r\n", b"").count(b"\n"),
        "bare_cr": raw.replace(b"\r\n", b"").count(b"\r"),
        "raw_sha256": hashlib.sha256(raw).hexdigest(),
    }

print(json.dumps([inspect(p) for p in sys.argv[1:]]))
