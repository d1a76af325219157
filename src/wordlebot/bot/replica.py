"""Serving the local replica of the game page (``page/``) on 127.0.0.1, with a word list.

Used by the tests and by ``wordlebot bot --demo``: the page is a static file, the word list and
any extra file (a test's broken page) are served from memory, and nothing listens beyond the
loopback interface.
"""

from __future__ import annotations

import http.server
import threading
import urllib.parse
from collections.abc import Iterable
from importlib import resources

PAGE_FILES = ("index.html", "game.js", "style.css")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}


def page_file(name: str) -> bytes:
    return (resources.files("wordlebot.bot") / "page" / name).read_bytes()


class ReplicaServer:
    """The replica page at ``/index.html`` and the word list at ``/words.txt``; ``extra`` maps
    more paths to their bytes.  Use as a context manager, or call ``close``."""

    def __init__(self, words: Iterable[str], *, extra: dict[str, bytes] | None = None) -> None:
        files = {f"/{n}": page_file(n) for n in PAGE_FILES}
        files["/words.txt"] = ("\n".join(words) + "\n").encode("ascii")
        files.update(extra or {})
        self.files = files
        self.requests: list[str] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                path = urllib.parse.urlsplit(self.path).path
                if path == "/":
                    path = "/index.html"
                server.requests.append(path)
                body = server.files.get(path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                ext = path[path.rfind(".") :]
                self.send_header("Content-Type", TYPES.get(ext, "application/octet-stream"))
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)  # any free port
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def url(self, answer: str, *, delay: int | None = None, rows: int | None = None, page: str = "index.html") -> str:
        q = {"answer": answer}
        if delay is not None:
            q["delay"] = str(delay)
        if rows is not None:
            q["rows"] = str(rows)
        return f"{self.base}/{page}?{urllib.parse.urlencode(q)}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> ReplicaServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
