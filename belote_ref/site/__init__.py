"""The rules website: turn the registry, the rulesets and the fixtures into Markdown pages.

Nothing on the site is written twice by hand. :func:`generate_pages` reads ``rules/registry.yaml``,
the shipped rulesets and the conformance corpus and returns the generated pages (path -> Markdown)
with the site's navigation; :func:`build_site` copies the hand-written ``docs/`` into a temporary
folder, adds the generated pages and runs MkDocs on it (strict: a broken link or anchor fails);
:func:`serve_site` does the same with ``mkdocs serve``.

One module per page family: ``rule_pages`` (home, topics, sources), ``ruleset_pages`` (rulesets,
comparison), ``fixture_pages`` (worked examples), ``implementations`` (conformance reports),
``pages`` (all of them and the nav) and ``build``. The wording is in ``locales/<lang>.yaml``,
the HTML of cards and tables in ``templates/``; parameter titles and the labels of values come
from the registry.

MkDocs and Material for MkDocs are the optional extra ``docs`` (``pip install 'belote-ref[docs]'``).
"""

from __future__ import annotations

from belote_ref.site.build import BuildResult, build_site, serve_site, write_tree
from belote_ref.site.config import find_config
from belote_ref.site.data import SiteData, branch_index, load_site_data
from belote_ref.site.pages import Site, generate_pages
from belote_ref.site.reports import REPORTS_DIR, Report, find_reports_dir, load_report, load_reports
from belote_ref.site.wording import LANGUAGES, t

__all__ = ["LANGUAGES", "REPORTS_DIR", "BuildResult", "Report", "Site", "SiteData", "branch_index", "build_site",
           "find_config", "find_reports_dir", "generate_pages", "load_report", "load_reports", "load_site_data",
           "serve_site", "t", "write_tree"]
