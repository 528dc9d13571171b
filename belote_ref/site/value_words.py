"""A rule's title and a rule value in players' words, as plain text, from the registry and the locale
files only: what the site's pages write (through :mod:`belote_ref.site.markup`) and what the
interactive pages compute in the reader's browser, where neither MkDocs nor MarkupSafe is installed.
"""

from __future__ import annotations

import json
from typing import Any

from belote_ref.rules.registry import Parameter, load_registry
from belote_ref.site.wording import phrases

__all__ = ["format_value", "label_of", "rank_text", "title_of"]


def rank_text(rank: Any, lang: str = "en") -> str:
    """A rank as the language writes it: 10 for the ten, R D V for K Q J in French."""
    token = "T" if str(rank) in ("T", "10") else str(rank)
    return str(phrases(lang)["ranks"].get(token, token))


def title_of(parameter_id: str, lang: str) -> str:
    parameter = load_registry().parameters.get(parameter_id)
    return parameter.title_in(lang) if parameter is not None else parameter_id


def label_of(value: Any, parameter: Parameter | None, lang: str) -> str:
    """A value in plain words: its registry label, else the value itself (plain text)."""
    label = parameter.label_of(value, lang) if parameter is not None else None
    return label if label else format_value(value, parameter, lang)


def format_value(value: Any, parameter: Parameter | None = None, lang: str = "en") -> str:
    """A parameter value in words short enough for a table cell (plain text)."""
    kind = parameter.type if parameter is not None else None
    if isinstance(value, bool):
        return "true" if value else "false"
    if kind == "rank_order" and isinstance(value, list):
        return " ".join(rank_text(r) for r in value)
    if kind == "rank_points" and isinstance(value, dict):
        return ", ".join(f"{rank_text(r)} {p}" for r, p in value.items())
    if kind == "packets" and isinstance(value, list):
        return " / ".join("+".join(str(n) for n in packet) for packet in value)
    if kind == "announcement_values" and isinstance(value, dict):
        parts = [f"{name} {value[name]}" for name in ("tierce", "quarte", "quinte") if name in value]
        carre = value.get("carre")
        if isinstance(carre, dict):
            parts.append("carré " + ", ".join(f"{rank_text(r)} {p}" for r, p in carre.items() if p))
        return "; ".join(parts)
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    return json.dumps(value, ensure_ascii=False)
