"""An MkDocs hook that writes the site's navigation once for all the pages outside it of one folder.

Material writes the whole navigation (some hundred links, the current page's marked) into every page,
and the site has some 1,400 pages, most of them outside the navigation (the worked examples, the rule
sheets): writing it was a tenth of MkDocs' work. A page outside the navigation marks none of its links,
and its links are written relative to its folder, so every such page of one folder gets the same HTML
(its language is its folder's). The theme's ``partials/nav.html`` asks :class:`NavigationMemory` for it,
and has Material's own template (``material/partials/nav.html``) write it the first time.

A page is given the folder's navigation only when the navigation has no link into the page's own
address (which would be written relative to the page itself, not to its folder); any other page, and
any page of the navigation, has its navigation written by Material. MkDocs loads this file by its path
(``hooks:`` in mkdocs.yml); the memory is the build's own (a Jinja environment is made for each build).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

__all__ = ["MATERIAL_PREFIX", "NavigationMemory", "on_env"]

#: The prefix under which the theme reaches Material's own templates, those it overrides included.
MATERIAL_PREFIX = "material"


def _parts(url: str) -> tuple[str, ...]:
    return tuple(part for part in url.split("/") if part)


def _addresses(items: Any) -> set[tuple[str, ...]]:
    """Every address a navigation link or page points at, and every folder above it, as path parts."""
    found: set[tuple[str, ...]] = set()
    for item in items:
        url = getattr(item, "url", None)
        if isinstance(url, str):
            parts = _parts(url)
            found.update(parts[:end] for end in range(len(parts) + 1))
        found |= _addresses(getattr(item, "children", None) or ())
    return found


class NavigationMemory:
    """The navigation's HTML for the pages outside it, by folder; one build's."""

    def __init__(self) -> None:
        self._html: dict[str, str] = {}
        self._nav: Any = None
        self._in_nav: set[int] = set()
        self._addresses: set[tuple[str, ...]] = set()

    def _learn(self, nav: Any) -> None:
        self._nav = nav
        self._in_nav = {id(page) for page in nav.pages}
        self._addresses = _addresses(nav.items)

    def key(self, page: Any, nav: Any) -> str | None:
        """The folder whose pages share ``page``'s navigation, or None when the navigation is the page's own."""
        url = getattr(page, "url", None)
        if not isinstance(url, str) or not url.endswith("/"):
            return None
        if nav is not self._nav:
            self._learn(nav)
        if id(page) in self._in_nav or _parts(url) in self._addresses:
            return None
        return "/".join(_parts(url)[:-1])

    def has(self, key: str) -> bool:
        return key in self._html

    def get(self, key: str) -> str:
        return self._html[key]

    def put(self, key: str, html: str) -> str:
        """Keep the navigation of ``key``'s folder; returns it."""
        self._html[key] = html
        return html


def on_env(env: Any, config: Any, **_: Any) -> Any:
    # Material's templates are the theme's folders after the site's own (custom_dir, first).
    material = [folder for folder in config.theme.dirs if Path(folder, "partials", "nav.html").is_file()
                and Path(folder).resolve() != Path(str(config.theme.custom_dir or "")).resolve()]
    env.loader = ChoiceLoader([env.loader, PrefixLoader({MATERIAL_PREFIX: FileSystemLoader(material)})])
    env.globals["belote_ref_navigation"] = NavigationMemory()
    return env
