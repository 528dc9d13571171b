"""The rules website: turn the registry, the rulesets and the fixtures into Markdown pages.

Nothing on the site is written twice by hand. :func:`generate_pages` reads ``rules/registry.yaml``,
the shipped rulesets and the conformance corpus and returns the generated pages (path -> Markdown)
with the site's navigation; :func:`build_site` copies the hand-written ``docs/`` into a temporary
folder, adds the generated pages and runs MkDocs on it (strict: a broken link or anchor fails);
:func:`serve_site` serves the last build at once and builds again in the background.

One module per page family: ``rule_pages`` (home, topics, sources), ``ruleset_pages`` (rulesets,
comparison), ``fixture_pages`` (worked examples), ``implementations`` (conformance reports),
``pages`` (all of them and the nav) and ``build``. The wording is in ``locales/<lang>.yaml``,
the HTML of cards and tables in ``templates/``; parameter titles and the labels of values come
from the registry.

MkDocs and Material for MkDocs are the optional extra ``docs`` (``pip install '.[docs]'`` in a clone of the repository).

May import: :mod:`belote_ref.conformance` and every layer below it.
"""

from __future__ import annotations

import importlib
from typing import Any

# The names are loaded on first use: the wording (``belote_ref.site.wording``, used by the command
# line too) must not need MkDocs, Jinja2 or MarkupSafe, which come with the ``docs`` extra.
_WHERE = {
    "BuildResult": "build", "build_site": "build", "check_site": "check", "SiteCheck": "check",
    "serve_site": "live", "write_tree": "build",
    "find_config": "config", "SiteData": "data", "branch_index": "data", "load_site_data": "data",
    "Site": "pages", "generate_pages": "pages", "REPORTS_DIR": "reports", "Report": "reports",
    "find_reports_dir": "reports", "load_report": "reports", "load_reports": "reports",
    "LANGUAGES": "wording", "t": "wording",
}

__all__ = sorted(_WHERE)  # noqa: PLE0605 - the names imported lazily, listed once in _WHERE


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"belote_ref.site.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'belote_ref.site' has no attribute {name!r}")
