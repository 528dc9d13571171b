"""What the interactive pages (May I play this card?, Score a deal, Check my house rules) share: the
addresses of pages once served, the links to the rules' sections, and the JSON a page's script reads."""

from __future__ import annotations

import json
import posixpath
from typing import Any

from belote_ref.site.data import SiteData
from belote_ref.site.markup import param_page

__all__ = ["rule_links", "script_json", "served_link", "served_url"]


def served_url(page: str) -> str:
    """A page's address as MkDocs serves it (directory URLs), anchor kept:
    ``en/rules/play.md#x`` -> ``en/rules/play/#x``."""
    path, _, anchor = page.partition("#")
    return path.removesuffix(".md") + "/" + (f"#{anchor}" if anchor else "")


def served_link(src: str, dst: str) -> str:
    """The address of ``dst`` from the page ``src`` once served (both from the docs root)."""
    target = served_url(dst)
    path, _, anchor = target.partition("#")
    link = posixpath.relpath(path, served_url(src).rstrip("/")) + "/"
    return link + (f"#{anchor}" if anchor else "")


def rule_links(data: SiteData, lang: str, path: str) -> dict[str, dict[str, str]]:
    """Every registry parameter: its title in ``lang`` and its section's address from the page ``path``."""
    return {pid: {"title": parameter.title_in(lang), "href": served_link(path, param_page(data, lang, pid))}
            for pid, parameter in data.registry.parameters.items()}


def script_json(value: Any) -> str:
    """``value`` as JSON to put inside a page's ``<script>`` element."""
    # Inside <script> nothing may close the element: "<" never appears raw.
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")
