"""What the interactive pages (May I play this card?, Score a deal, Check my house rules) share: the
addresses of pages once served, the links to the rules' sections, and the JSON a page's script reads."""

from __future__ import annotations

import html
import json
import posixpath
from typing import Any

from belote_ref.site.data import SiteData
from belote_ref.site.markup import param_page

__all__ = ["interactive_md", "rule_links", "script_json", "served_link", "served_url"]


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


def interactive_md(prefix: str, heading: list[str], form: str, no_script: str, config: Any, script: str) -> str:
    """An interactive page's Markdown: ``heading`` (its title, language switch and introduction, as
    Markdown lines), the ``form`` (hidden until the script shows it), the status line, the answer's
    box, the ``config`` the script reads and the script (``prefix``: the page's id prefix, ``bt-mip``)."""
    return "\n".join([
        *heading, form, "",
        # Until the script runs, the status says what the page needs: it stays if the script cannot run
        # (no JavaScript, or a page opened from a file, where the browser refuses module scripts).
        f'<p id="{prefix}-status" role="status" aria-live="polite">{html.escape(no_script)}</p>', "",
        f'<div id="{prefix}-answer" aria-live="polite"></div>', "",
        f'<script type="application/json" id="{prefix}-config">{script_json(config)}</script>', "",
        f'<script type="module" src="{script}"></script>', "",
    ])
