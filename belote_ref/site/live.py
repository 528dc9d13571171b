"""``docs serve``: serve the site at once and build it in the background.

A build takes a minute the first time: the server starts before it, on the last build it made (kept
under the cache folder, so that the build reuses it: :mod:`belote_ref.site.reuse`), or on a page that
says the site is being built. Every HTML page it serves asks the server, every two seconds, which build
it holds, and reloads when a newer one is in place. The server is the standard library's: the site is
static files, and a build moves a whole new folder into place (:func:`belote_ref.site.build.build_site`).
"""

from __future__ import annotations

import hashlib
import html
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Sequence
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

from belote_ref.core.cache import cache_dir
from belote_ref.core.errors import BeloteRefError
from belote_ref.site.build import SITE_MARKER, build_site
from belote_ref.site.config import find_config
from belote_ref.site.wording import LANGUAGES, t

if TYPE_CHECKING:
    from belote_ref.site.reuse import Progress

__all__ = ["parse_address", "serve_site"]

#: The address a page asks for the number of the build it holds.
BUILD_NUMBER_PATH = "/.belote-ref-build"

#: The script added to every page served: it asks for the build number and reloads on a newer one.
RELOADER = Path(__file__).resolve().parent / "templates" / "reload.html"


def parse_address(address: str | None) -> tuple[str, int]:
    """``HOST:PORT`` (default ``127.0.0.1:8000``) as a host and a port; a one-line error otherwise."""
    host, _, port = (address or "127.0.0.1:8000").rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BeloteRefError(f"--dev-addr {address}: expected HOST:PORT, for example 127.0.0.1:8000", code="docs")
    return host.strip("[]"), int(port)


class _Builds:
    """The folder being served and the number of the build in it, shared by the server's threads."""

    def __init__(self, site: Path, waiting: Path) -> None:
        self.site = site
        self.waiting = waiting
        self.number = 0
        self.lock = threading.Lock()

    def folder(self) -> Path:
        return self.site if (self.site / SITE_MARKER).is_file() else self.waiting

    def show_waiting_page(self, key: str) -> None:
        paragraphs = "".join(f'<p lang="{lang}">{html.escape(t(lang, key))}</p>\n' for lang in LANGUAGES)
        self.waiting.mkdir(parents=True, exist_ok=True)
        (self.waiting / "index.html").write_text(
            f'<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>belote-ref</title></head>\n'
            f"<body>\n{paragraphs}</body>\n</html>\n", encoding="utf-8")

    def next_build(self) -> None:
        with self.lock:
            self.number += 1


class _Handler(SimpleHTTPRequestHandler):
    builds: _Builds

    def __init__(self, *args: Any, builds: _Builds, **kwargs: Any) -> None:
        self.builds = builds
        super().__init__(*args, directory=str(builds.folder()), **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # a line per request would bury the build's progress

    def do_GET(self) -> None:
        if self.path == BUILD_NUMBER_PATH:
            self._send(str(self.builds.number).encode(), "text/plain")
            return
        target = Path(self.translate_path(self.path))
        if target.is_dir() and self.path.split("?", 1)[0].endswith("/"):
            target = target / "index.html"
        if target.suffix == ".html" and target.is_file():
            page = target.read_bytes()
            script = (RELOADER.read_text(encoding="utf-8").replace("{build}", str(self.builds.number))
                      .replace("{path}", BUILD_NUMBER_PATH).encode())
            at = page.rfind(b"</body>")
            self._send(page[:at] + script + page[at:] if at >= 0 else page + script, "text/html; charset=utf-8")
            return
        super().do_GET()

    def _send(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def _serve_folder(config_path: Path) -> tuple[Path, tempfile.TemporaryDirectory[str] | None]:
    root = cache_dir()
    if root is None:
        temporary = tempfile.TemporaryDirectory(prefix="belote-ref-serve-")
        return Path(temporary.name), temporary
    digest = hashlib.sha256(str(config_path).encode("utf-8", "surrogatepass")).hexdigest()
    return root / "site-serve" / digest[:24], None


def serve_site(*, config_file: str | os.PathLike[str] | None = None, dev_addr: str | None = None,
               strict: bool = True, rulesets: Sequence[str | os.PathLike[str]] = (),
               progress: Progress | None = None) -> None:
    """Serve the site on ``dev_addr`` until interrupted, building it in the background (see the module)."""
    host, port = parse_address(dev_addr)
    config_path = find_config(config_file)
    folder, temporary = _serve_folder(config_path)
    for left in folder.glob(".site.building-*"):  # a build the last server was stopped in
        shutil.rmtree(left, ignore_errors=True)
    builds = _Builds(folder / "site", folder / "waiting")
    builds.show_waiting_page("serve_building")
    try:
        server = ThreadingHTTPServer((host, port), partial(_Handler, builds=builds))
    except OSError as error:
        raise BeloteRefError(f"--dev-addr {host}:{port}: cannot serve there: {error.strerror}", code="docs") from None
    server.daemon_threads = True

    def build() -> None:
        try:
            result = build_site(builds.site, config_file=config_path, strict=strict, rulesets=rulesets,
                                progress=progress)
            print(f"site built in {result.seconds:.1f} s", file=sys.stderr, flush=True)
        except BeloteRefError as error:
            print(f"error: {error}", file=sys.stderr, flush=True)
            if not (builds.site / SITE_MARKER).is_file():
                builds.show_waiting_page("serve_failed")
        builds.next_build()

    print(f"serving on http://{host}:{port}/; building", file=sys.stderr, flush=True)
    threading.Thread(target=build, name="site-build", daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if temporary is not None:
            temporary.cleanup()
