"""A corpus of malformed and hostile requests for every endpoint of the web API.

``http_corpus(gid)`` lists HTTP requests as ``(method, path, headers, body)``; ``ws_frames()`` lists WebSocket
text frames (str) and binary frames (bytes). ``{gid}`` in a path is a real game's id. Every entry is built from
a few families crossed with each other (paths x methods, bodies x endpoints, headers x endpoints), so that a new
endpoint or a new kind of bad input is one line here.
"""

from __future__ import annotations

import json

Request = tuple[str, str, dict[str, str], bytes | None]

# Paths: traversal, NUL and other control characters, unicode, overlong names and ids, odd encodings.
PATHS = [
    "/index.html%00.js",
    "/%00",
    "/assets/%00app.js",
    "/g/%00",
    "/api/games/%00",
    "/api/games/abc%00def",
    "/../../etc/passwd",
    "/..%2f..%2fetc%2fpasswd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/assets/../../../../etc/passwd",
    "/assets/..%5c..%5cwindows",
    "/" + "a" * 5000,
    "/" + "a/" * 2000,
    "/assets/" + "x" * 300 + ".js",
    "/api/games/" + "g" * 300,
    "/api/games/" + "g" * 300 + "/ws",
    "/%C3%A9t%C3%A9",
    "/%E2%80%AE%E2%80%8B",
    "/%F0%9F%90%8D.js",
    "/%ff%fe",
    "/%c0%af",
    "/%0d%0aSet-Cookie:%20x=1",
    "/api/%0d%0aX-Injected:%201",
    "/api/games/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "/api/nothing",
    "/api/games/{gid}/nothing",
    "/api/games/{gid}/sgf%00",
    "/g/{gid}/%2e%2e",
    "//double//slashes",
    "/api/games/{gid}?invite=%00&x=" + "y" * 2000,
]

ENDPOINTS = [
    ("GET", "/"),
    ("GET", "/g/{gid}"),
    ("GET", "/api/info"),
    ("GET", "/api/stats"),
    ("POST", "/api/games"),
    ("GET", "/api/games/{gid}"),
    ("POST", "/api/games/{gid}/join"),
    ("POST", "/api/games/{gid}/actions"),
    ("GET", "/api/games/{gid}/sgf"),
    ("GET", "/openapi.json"),
]
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

# Bodies: not JSON, not an object, wrong types, huge or non-finite numbers, deep nesting, oversized.
NESTED = b"[" * 5000 + b"]" * 5000
BODIES: list[bytes] = [
    b"",
    b"{",
    b"{not json",
    b"\x00\x01\x02",
    b"\xff\xfe\xfd",
    "{\"size\": 9, \"rules\": \"fran\u00e7ais\u202e\"}".encode(),
    b"null",
    b"[]",
    b"[1, 2, 3]",
    b'"play"',
    b"42",
    b"true",
    b'{"size": "nine"}',
    b'{"size": 1e400}',
    b'{"size": -1e400}',
    b'{"size": NaN}',
    b'{"komi": NaN}',
    b'{"komi": Infinity}',
    b'{"komi": -Infinity}',
    b'{"size": 99999999999999999999999999999999999999}',
    b'{"handicap": -99999999999999999999999999}',
    b'{"size": 9.0000000001}',
    b'{"size": true}',
    b'{"size": null}',
    b'{"clock": {"type": "byoyomi", "main": NaN, "period": Infinity, "periods": 1e308}}',
    b'{"clock": {"type": "fischer", "main": 1, "increment": -1, "max": 0}}',
    b'{"clock": []}',
    b'{"clock": "absolute"}',
    b'{"opponent": "bot", "bot_level": "\\u0000"}',
    b'{"code": ""}',
    b'{"code": null}',
    b'{"code": 12345}',
    b'{"code": "' + b"c" * 5000 + b'"}',
    b'{"type": "play", "move": 99999999999999999999999999999}',
    b'{"type": "play", "move": -99999999999999999999999999999}',
    b'{"type": "play", "move": NaN}',
    b'{"type": "play", "move": 1e400}',
    b'{"type": "play", "move": "\\u0000"}',
    b'{"type": "play", "move": "ZZ99"}',
    b'{"type": "play", "move": "A0"}',
    b'{"type": "play", "move": "D\\u0660"}',
    b'{"type": "play", "move": null}',
    b'{"type": "play", "move": {"x": 1}}',
    b'{"type": "play", "move": 40, "color": "X"}',
    b'{"type": "place_handicap", "points": [99999999999999999999, -1, "ZZ"]}',
    b'{"type": "place_handicap", "points": []}',
    b'{"type": "toggle_dead", "point": 99999999999999999999}',
    b'{"type": "toggle_dead", "point": -5}',
    b'{"type": "undo_answer", "accept": 1}',
    b'{"type": "__proto__"}',
    b'{"type": "' + b"<script>" * 1500 + b'"}',
    b'{"clock": {"type": "' + b"\\u202e" * 2000 + b'"}}',
    b'{"type": null}',
    b'{"type": ["play"]}',
    b'{"__proto__": {"admin": true}, "type": "pass"}',
    b'{"type": "pass", "type": "resign"}',
    b'{"type": "pass", "\\ud800": 1}',
    b'{"type": "pass", "' + b"k" * 5000 + b'": 1}',
    b'{"size": 9, "rules": "\\udfff\\ud800"}',
    NESTED,
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b'{"size": 9, "pad": "' + b"x" * 20000 + b'"}',
    b"[" + b"1," * 9000 + b"1]",
]

# Headers: malformed Origin, odd Host, cookies, content types and lengths, seat tokens.
HEADERS: list[dict[str, str]] = [
    {"origin": "http://[::1"},
    {"origin": "http://[::1]:99999"},
    {"origin": "::::"},
    {"origin": "null"},
    {"origin": "http://evil.example"},
    {"origin": "http://testserver\u00e9".encode("utf-8").decode("latin-1")},
    {"origin": "x" * 4000},
    {"host": ""},
    {"host": "[::1"},
    {"cookie": "keima_seat_x=" + "y" * 4000},
    {"cookie": "=; ;;; keima_seat_{gid}=\u00ff\u00fe".encode("utf-8").decode("latin-1")},
    {"cookie": "keima_seat_{gid}=%00%00%00%00%00%00%00%00"},
    {"x-keima-seat": ""},
    {"x-keima-seat": "\u00ff" * 50},
    {"x-keima-seat": "t" * 5000},
    {"content-type": "text/plain"},
    {"content-type": "application/json; charset=utf-16"},
    {"content-type": "application/x-www-form-urlencoded"},
    {"content-type": "multipart/form-data; boundary=xyz"},
    {"content-type": "\u00ff/\u00fe"},
    {"content-length": "0"},
    {"content-length": "5"},
    {"transfer-encoding": "chunked"},
    {"accept": "text/html"},
    {"x-forwarded-proto": "gopher"},
]

# WebSocket frames: not JSON, wrong shapes, huge numbers, deep nesting, oversized, binary.
WS_FRAMES: list[str | bytes] = [
    "",
    "{",
    "not json",
    "null",
    "[]",
    "42",
    '"ping"',
    "{}",
    '{"type": null}',
    '{"type": "pong"}',
    '{"type": "action"}',
    '{"type": "action", "id": 5, "action": {"type": "pass"}}',
    '{"type": "action", "id": "' + "i" * 500 + '", "action": {"type": "pass"}}',
    '{"type": "action", "id": "a", "action": null}',
    '{"type": "action", "id": "a", "action": {"type": "play", "move": NaN}}',
    '{"type": "action", "id": "a", "action": {"type": "play", "move": 1e400}}',
    '{"type": "action", "id": "a", "action": {"type": "play", "move": 99999999999999999999999999}}',
    '{"type": "action", "id": "a", "action": {"type": "play", "move": "\\u0000"}}',
    '{"type": "action", "id": "a", "action": {"type": "toggle_dead", "point": -1}}',
    '{"type": "action", "id": "a", "action": {"type": "place_handicap", "points": [1, 1, 1]}}',
    '{"type": "action", "id": "a", "action": {"type": "undo_answer", "accept": "yes"}}',
    '{"type": "action", "id": "\\ud800", "action": {"type": "pass"}}',
    '{"type": "ping", "extra": 1}',
    '{"type": "ping", "\\ud800": 1}',
    '{"type": "ping", "' + "k" * 5000 + '": 1}',
    "[" * 5000 + "]" * 5000,
    '{"a":' * 3000 + "1" + "}" * 3000,
    json.dumps({"type": "action", "id": "big", "action": {"type": "play", "move": "x" * 20000}}),
    b"\x00\x01",
    b'{"type": "ping"}',
]


def http_corpus(gid: str) -> list[Request]:
    """Every HTTP request of the corpus, with ``{gid}`` replaced by ``gid``."""
    out: list[Request] = []
    for path in PATHS:
        for method in ("GET", "POST"):
            out.append((method, path, {}, b"{}" if method == "POST" else None))
    for method, path in ENDPOINTS:
        for other in METHODS:
            out.append((other, path, {}, None))
        if method == "POST":
            for body in BODIES:
                out.append((method, path, {"content-type": "application/json"}, body))
        for headers in HEADERS:
            # A POST carries a valid JSON body, so that the odd header, not the body, is what gets checked.
            if method == "POST":
                body = b'{"code": "xyz"}' if path.endswith("/join") else b'{"type": "pass"}'
                if path == "/api/games":
                    body = b'{"size": 9}'
                out.append((method, path, {"content-type": "application/json"} | headers, body))
            else:
                out.append((method, path, headers, None))
    return [(m, p.replace("{gid}", gid), {k: v.replace("{gid}", gid) for k, v in h.items()}, b)
            for m, p, h, b in out]
