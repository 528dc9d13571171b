"""The page for an engine's author: which parameters each kind's answer can depend on.

Made from the corpus itself (each fixture's ``rules`` and ``depends_on``, which lint checks against the
reference engine), so it cannot drift from what the runner sends: an adapter that claims a kind must
implement the parameters listed for it, or claim only the values it plays (see the protocol page).
"""

from __future__ import annotations

from collections import Counter

from belote_ref.conformance.dependencies import dependencies_of
from belote_ref.site.data import SiteData
from belote_ref.site.markup import code, md, param_page, rel
from belote_ref.site.wording import kind_name, t

__all__ = ["dependencies_md", "dependencies_page"]


def dependencies_page(lang: str) -> str:
    return f"{lang}/dependencies.md"


def dependencies_md(data: SiteData, lang: str) -> str:
    path = dependencies_page(lang)
    out = [f"# {t(lang, 'deps_title')}", "", t(lang, "deps_intro"), ""]
    kinds = sorted({fixture.kind for fixture in data.fixtures})
    order = {pid: index for index, pid in enumerate(data.registry.parameters)}
    for kind in kinds:
        fixtures = [fixture for fixture in data.fixtures if fixture.kind == kind]
        named = Counter(pid for fixture in fixtures for pid in dependencies_of(fixture)
                        if pid in data.registry.parameters)
        out += [f"## {code(kind)}: {md(kind_name(kind, lang))} {{#{kind}}}", "",
                t(lang, "deps_kind", fixtures=len(fixtures), parameters=len(named)), "",
                f"| {t(lang, 'parameter')} | {t(lang, 'deps_id')} | {t(lang, 'deps_count')} |", "|---|---|---|"]
        for pid in sorted(named, key=order.__getitem__):
            parameter = data.registry.parameters[pid]
            number = f"§\u00a0{parameter.article} " if parameter.article else ""
            out.append(f"| [{number}{md(parameter.title_in(lang))}]({rel(path, param_page(data, lang, pid))}) | "
                       f"{code(pid)} | {named[pid]} |")
        out.append("")
    return "\n".join(out) + "\n"
