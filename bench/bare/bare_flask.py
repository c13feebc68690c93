"""The ceiling of bench/http.py: a bare Flask app answering the benchmark's requests.

Under the same gunicorn (gthread) workers as ``scorekeeper serve``, with
no proxy, no store, no schemas, no limits: a 304 for the unchanged sheet,
a small JSON answer for ``/verify`` and for a create. What ``serve`` gets
of its rate is what the whole service costs above Flask itself.
Run by bench/http.py as ``gunicorn --chdir bench/bare bare_flask:app`` (a folder of its
own: bench/http.py would shadow the standard library's http package).
"""

from __future__ import annotations

from flask import Flask, jsonify, request

app = Flask(__name__)

ETAG = '"1"'


@app.post("/api/v1/games")
def create():
    """A made-up game (the floor phase creates one before reading it)."""
    return jsonify({"id": "A" * 16, "edit_token": "t"}), 201


@app.get("/api/v1/games/<game>")
def sheet(game: str):
    """A 304 when the client has the sheet, else a small one."""
    if request.headers.get("If-None-Match") == ETAG:
        return "", 304, {"ETag": ETAG}
    return jsonify({"id": game, "hands": []}), 200, {"ETag": ETAG}


@app.post("/api/v1/verify")
def verify():
    """The body read as JSON, a small answer."""
    knock = request.get_json()
    return jsonify({"knocker": len(knock["knocker"]), "ok": True})


@app.get("/api/openapi.json")
def ready():
    """What the harness asks while waiting for the server."""
    return jsonify({})
