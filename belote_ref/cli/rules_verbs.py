"""``belote-ref rules``: list, show, validate, diff and schema of rulesets."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from belote_ref.cli.options import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    english_title,
    format_value,
    search_path,
)
from belote_ref.core.errors import RulesetError
from belote_ref.rules.registry import load_registry, ruleset_schema
from belote_ref.rules.ruleset import (
    find_ruleset,
    iter_changes,
    load_ruleset,
    resolve_ruleset,
    settings_not_in_play,
    shipped_rulesets,
)
from belote_ref.site.wording import t as phrase


def cmd_rules_list(args: argparse.Namespace) -> int:
    classic = find_ruleset("classic")
    rows = []
    for ruleset_id in shipped_rulesets():
        ruleset = find_ruleset(ruleset_id)
        changes = list(iter_changes(ruleset, classic))
        rows.append({"id": ruleset.id, "version": ruleset.version, "title": english_title(ruleset),
                     "parent": ruleset.parent, "changes_from_classic": len(changes)})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return EXIT_OK
    print(f"{'id':<18} {'parent':<10} {'changes':>7}  title")
    for row in rows:
        print(f"{row['id']:<18} {row['parent'] or '-':<10} {row['changes_from_classic']:>7}  {row['title']}")
    return EXIT_OK


def cmd_rules_show(args: argparse.Namespace) -> int:
    ruleset = resolve_ruleset(args.ruleset, search_path(args))
    if args.json:
        print(json.dumps(ruleset.to_json(), ensure_ascii=False, indent=2))
        return EXIT_OK

    registry = load_registry()
    title = ruleset.title.get(args.lang) or english_title(ruleset)
    print(f"{ruleset.id} v{ruleset.version}: {title}")
    if ruleset.parent:
        print(phrase(args.lang, "cli_extends", parent=ruleset.parent))
    for area in registry.areas():
        print(f"\n[{area}]")
        for pid, parameter in registry.parameters.items():
            if parameter.area != area:
                continue
            marker = "*" if pid in ruleset.overrides else " "
            label = parameter.label_of(ruleset[pid], args.lang)
            idle = "" if registry.applies(pid, ruleset.params) else phrase(args.lang, "cli_not_in_play")
            sources = parameter.sources_of(ruleset[pid])
            cited = f" [{', '.join(sources)}]" if sources else ""
            print(f" {marker} {pid} = {format_value(ruleset[pid])}" + (f"  · {label}" if label else "") + cited + idle)
    return EXIT_OK


def cmd_rules_validate(args: argparse.Namespace) -> int:
    status = EXIT_OK
    for path in args.paths:
        try:
            ruleset = load_ruleset(path, search_path=search_path(args))
        except RulesetError as error:
            for diagnostic in error.diagnostics:
                print(diagnostic, file=sys.stderr)
            status = EXIT_BAD_INPUT
        else:
            for warning in settings_not_in_play(path, search_path=search_path(args)):
                print(warning, file=sys.stderr)
            print(f"{path}: ok ({ruleset.id} v{ruleset.version})")
    return status


def cmd_rules_diff(args: argparse.Namespace) -> int:
    left, right = resolve_ruleset(args.a, search_path(args)), resolve_ruleset(args.b, search_path(args))
    registry = load_registry()
    changed = list(iter_changes(right, left))
    if not changed:
        print(f"{left.id} and {right.id} resolve to the same parameters")
        return EXIT_OK
    colon = "\u00a0: " if args.lang == "fr" else ": "
    for pid in changed:
        parameter = registry[pid]
        print(f"{pid}")
        print(f"  {left.id}: {format_value(left[pid])}")
        print(f"  {right.id}: {format_value(right[pid])}")
        print(f"  {parameter.title_in(args.lang)} — {parameter.fr if args.lang == 'fr' else parameter.en}")
        for ruleset in (left, right):
            label = parameter.label_of(ruleset[pid], args.lang)
            explain = parameter.explain_of(ruleset[pid], args.lang)
            if label:
                print(f"    {ruleset.id} → {label}" + (f"{colon}{explain}" if explain else ""))
    return EXIT_OK


def cmd_rules_schema(args: argparse.Namespace) -> int:
    text = json.dumps(ruleset_schema(), ensure_ascii=False, indent=2) + "\n"
    if args.check:
        path = Path(args.check)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            print(f"{path}: out of date; regenerate with `belote-ref rules schema > {path}`", file=sys.stderr)
            return EXIT_FAILED
        print(f"{path}: up to date")
        return EXIT_OK
    sys.stdout.write(text)
    return EXIT_OK
