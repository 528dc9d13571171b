"""The rules website: turn the registry, the rulesets and the fixtures into Markdown pages.

Nothing on the site is written twice by hand. :func:`generate_pages` reads ``rules/registry.yaml``,
the shipped rulesets and the conformance corpus and returns the generated pages (path -> Markdown)
with the site's navigation; :func:`build_site` copies the hand-written ``docs/`` into a temporary
folder, adds the generated pages and runs MkDocs on it (strict: a broken link or anchor fails);
:func:`serve_site` does the same with ``mkdocs serve``.

The site has an English section (``en/``) and a French one (``fr/``) with the same pages:

- ``<lang>/rules/<topic>.md``: the rules by topic; each parameter is a section whose anchor is its
  id (``en/rules/play.md#play.undertrump_partner``);
- ``<lang>/rulesets/<id>.md``: one page per shipped ruleset, its rules with its values substituted;
- ``<lang>/compare.md``: parameters x rulesets, differences from classic highlighted;
- ``<lang>/fixtures/<fixture-id>.md``: one worked example per hand fixture (card diagram, expected
  answer per branch, note, source, raw JSON); ``<lang>/examples.md`` groups them by rule and
  ``<lang>/regression.md`` lists the engine-generated regression fixtures;
- ``<lang>/sources.md``: the sources cited by the registry, one anchor per source id;
- ``<lang>/implementations.md``: the committed conformance reports of real implementations
  (``conformance/reports/*.jsonl``): per report a matrix kind x ruleset and the failing cases, each
  linked to its fixture. A malformed report fails the build with its file and line.

MkDocs and Material for MkDocs are the optional extra ``docs`` (``pip install 'belote-ref[docs]'``).
"""

from __future__ import annotations

import html
import json
import logging
import os
import posixpath
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from belote_ref.cards import Seat
from belote_ref.conformance.corpus import Fixture, load_corpus, predicate_holds
from belote_ref.conformance.runner import BAD_OUTCOMES, OUTCOMES
from belote_ref.errors import BeloteRefError
from belote_ref.registry import Parameter, Registry, load_registry
from belote_ref.rules import Ruleset, find_ruleset, iter_changes, shipped_rulesets

__all__ = ["LANGUAGES", "REPORTS_DIR", "Report", "SiteData", "build_site", "find_config", "find_reports_dir",
           "generate_pages", "load_reports", "load_site_data", "serve_site", "write_tree"]

LANGUAGES = ("en", "fr")

# The committed conformance reports of real implementations (``*.jsonl``), shown on the
# implementations page: this folder of the checkout, that is beside the site's mkdocs.yml (an
# absolute path is taken as it is). With no such folder the page says there is none yet.
REPORTS_DIR = Path("conformance", "reports")

# ------------------------------------------------------------------------------- fixed wording
#
# Topics group the registry's areas; parameter and group titles make the pages read like a rules
# page. A parameter or area missing here still gets a section, titled by its id.

TOPICS: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    ("cards", ("cards",), "Cards and orders", "Les cartes et leur ordre"),
    ("deal", ("table", "deal"), "The deal", "La donne"),
    ("auction", ("bidding",), "The auction", "Les enchères"),
    ("play", ("play",), "Playing a card", "Jouer une carte"),
    ("announcements", ("belote", "announcements"), "Announcements and belote", "Les annonces et la belote"),
    ("score", ("scoring",), "The score of a deal", "Le score d'une donne"),
    ("match", ("game",), "The end of a match", "La fin de la partie"),
)
OTHER_TOPIC = ("other", (), "Other rules", "Autres règles")

TOPIC_INTROS = {
    "cards": (
        "Which card beats which and what each card is worth: the order of the trump suit and of the "
        "plain suits, the natural order used for sequences, and the card points (the pack makes 152, "
        "162 with the dix de der).",
        "Quelle carte bat quelle autre et ce que vaut chacune : l'ordre à l'atout et hors atout, "
        "l'ordre naturel des suites, et la valeur des cartes (le jeu fait 152 points, 162 avec le dix de der).",
    ),
    "deal": (
        "Which way play goes round the table, how the pack is shuffled and cut, and how the cards are "
        "dealt: five to each player, a card turned (la retourne), then the completion once someone has taken.",
        "Le sens du jeu autour de la table, le mélange et la coupe, et la distribution : cinq cartes à "
        "chacun, une carte retournée (la retourne), puis le reste une fois que quelqu'un a pris.",
    ),
    "auction": (
        "The two rounds of bidding on the turned card: taking its suit as trumps in round one, naming "
        "another suit in round two, and what happens when all four players pass.",
        "Les deux tours d'enchères sur la retourne : prendre sa couleur à l'atout au premier tour, nommer "
        "une autre couleur au second, et ce qui se passe quand les quatre joueurs passent.",
    ),
    "play": (
        "The obligations when playing a card: follow suit, trump (couper), overtrump (monter, surcouper), "
        "undertrump (sous-couper, pisser), and the exception when one's partner is master of the trick.",
        "Les obligations du jeu de la carte : fournir, couper, monter (surcouper), sous-couper (pisser), "
        "et l'exception quand le partenaire est maître du pli.",
    ),
    "announcements": (
        "Belote and rebelote (the king and queen of trumps in one hand) and, where they are played, the "
        "announcements of sequences (tierce, quarte, quinte) and carrés during the first trick.",
        "La belote et la rebelote (le roi et la dame d'atout dans une même main) et, quand on les joue, "
        "les annonces de suites (tierce, quarte, quinte) et de carrés au premier pli.",
    ),
    "score": (
        "Counting a deal: the dix de der, capot, how the takers' contract is judged, the chute (dedans), "
        "the litige of an exact tie, and rounding.",
        "Le compte d'une donne : le dix de der, le capot, comment on juge le contrat des preneurs, la chute "
        "(dedans), le litige d'une égalité parfaite, et l'arrondi.",
    ),
    "match": (
        "How a match ends: a points target or a number of deals, and what happens on a tie.",
        "Comment finit une partie : un nombre de points ou de donnes, et ce qui se passe en cas d'égalité.",
    ),
    "other": ("Parameters of areas that have no topic yet.", "Paramètres des domaines qui n'ont pas encore de thème."),
}

GROUPS = {
    "cards": ("Cards", "Les cartes"),
    "table": ("The table", "La table"),
    "deal": ("Dealing", "La distribution"),
    "bidding": ("The auction", "Les enchères"),
    "play": ("Playing a card", "Jouer une carte"),
    "belote": ("Belote and rebelote", "Belote et rebelote"),
    "announcements": ("Announcements", "Les annonces"),
    "scoring": ("Card points and the dix de der", "Points et dix de der"),
    "scoring.capot": ("Capot", "Le capot"),
    "scoring.contract": ("The contract", "Le contrat"),
    "scoring.litige": ("Litige", "Le litige"),
    "scoring.chute": ("Chute (dedans)", "La chute (dedans)"),
    "scoring.rounding": ("Rounding", "L'arrondi"),
    "game": ("The match", "La partie"),
}


KINDS = {
    "deal": ("the deal", "la distribution"),
    "auction": ("the auction", "les enchères"),
    "legal_plays": ("legal plays", "cartes jouables"),
    "trick_winner": ("winner of a trick", "gagnant du pli"),
    "announcements": ("announcements in a hand", "annonces d'une main"),
    "score": ("score of a deal", "score d'une donne"),
    "replay": ("replay of a deal", "donne rejouée"),
    "match": ("a match", "une partie"),
}

TYPES = {
    "bool": ("true or false", "true ou false"),
    "enum": ("one of the values below", "une des valeurs ci-dessous"),
    "int": ("a whole number", "un nombre entier"),
    "rank_order": ("the eight ranks, highest first", "les huit rangs, du plus fort au plus faible"),
    "rank_points": ("points for each rank", "des points par rang"),
    "packets": ("the packets allowed for the first five cards", "les paquets permis pour les cinq premières cartes"),
    "contract_list": ("a list of contracts", "une liste de contrats"),
    "announcement_values": ("points for each combination", "des points par combinaison"),
}

SEAT_NAMES = {"en": {"N": "North", "E": "East", "S": "South", "W": "West"},
              "fr": {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"}}
SUIT_NAMES = {"en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
              "fr": {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "lang_name": "English",
        "colon": ": ",
        "other_lang": "Version française",
        "topics": "Rules by topic",
        "rulesets": "Rulesets",
        "compare": "Comparison of the rulesets",
        "compare_short": "Comparison",
        "examples": "Worked examples",
        "regression": "Regression deals",
        "sources": "Sources",
        "house_rules": "Write your house rules",
        "protocol": "Checking an implementation",
        "home": "Home",
        "id": "Id",
        "type": "Takes",
        "default": "default",
        "documentary": "documentary: changes how a game is told, never a result",
        "range": "from {minimum} to {maximum}",
        "value": "Value",
        "sources_col": "Sources",
        "rulesets_col": "Rulesets that choose it",
        "no_source": "no source cited",
        "none": "none",
        "fixtures_for": "Worked examples",
        "no_fixture": "No hand-checked example yet.",
        "changes_one": "classic + 1 change",
        "changes_many": "classic + {n} changes",
        "baseline": "classic: the baseline",
        "baseline_text": "This is the baseline ruleset: it sets every parameter, and every other ruleset is "
                         "described by its changes from it.",
        "extends": "Extends",
        "ruleset_sources": "Sources",
        "classic_value": "classic",
        "the_rules": "The rules",
        "changed_mark": "changed from classic",
        "use_it": "Use it",
        "applicable": "Worked examples that apply",
        "applicable_text": "{hand} hand-checked examples apply to this ruleset (with the expected answer "
                           "for its values), and {engine} regression deals.",
        "example": "Example",
        "kind": "Kind",
        "expected_under": "Expected here",
        "parameter": "Parameter",
        "differ_title": "Where the rulesets differ",
        "differ_text": "Only the parameters on which at least one ruleset differs from classic. A highlighted "
                       "cell differs from classic.",
        "all_title": "Every parameter",
        "rule": "Rule tested",
        "rules": "Rules tested",
        "provenance_hand": "hand-checked: worked out from the rule text",
        "provenance_engine": "regression: produced by the reference engine",
        "provenance": "Provenance",
        "normative_no": "not normative: the expected answer rests on a reading that no source settles",
        "situation": "The situation",
        "answers": "The expected answer",
        "when": "When",
        "always": "Under every ruleset it applies to",
        "rulesets_here": "Shipped rulesets",
        "no_shipped": "none of the shipped rulesets",
        "not_applicable": "Not applicable to",
        "applies_only": "Applies only when",
        "note": "How it was worked out",
        "source": "Source",
        "raw": "Raw fixture (JSON)",
        "trump": "Trump",
        "to_play": "to play",
        "hand_of": "Hand of {seat}",
        "hand": "Hand",
        "master": "{seat} is master with {card}",
        "master_partner": "partner of {seat}",
        "master_opponent": "opponent of {seat}",
        "trick_empty": "{seat} leads the trick.",
        "led": "led",
        "direction": "Play goes N → E → S → W, drawn counterclockwise as in classic (table.direction).",
        "dealer": "Dealer",
        "eldest": "Eldest",
        "turned": "Turned card",
        "taker": "Taker",
        "calls": "Calls",
        "round": "Round",
        "deck": "Deck, top card first",
        "tricks": "Tricks",
        "trick": "Trick",
        "winner": "Winner",
        "points": "Points",
        "plays": "Plays",
        "completion": "Completion",
        "first_five": "First five cards",
        "deal_n": "Deal {n}",
        "legal": "Legal",
        "illegal": "not allowed",
        "rejected": "Rejected",
        "rejected_text": "<code>{code}</code> at index {index}",
        "also_given": "Also given",
        "no_diagram": "No diagram for this situation: see the raw fixture below.",
        "regression_intro": "Random legal deals played by the reference engine under each shipped ruleset and "
                            "recorded as fixtures (provenance engine). They are regression material, not "
                            "hand-checked results, so they are listed here rather than given a page each. "
                            "`belote-ref conformance dump --ruleset ID` prints any of them in full.",
        "examples_intro": "Every hand-checked fixture of the conformance corpus is a worked example: a "
                          "situation, drawn as cards on a table, with the answer each ruleset expects. "
                          "They are grouped here under the rules they test (an example that tests several "
                          "rules appears under each). Each has a permanent address by its fixture id.",
        "other_examples": "Examples not tied to a parameter",
        "sources_intro": "The documents the registry cites for each value of each parameter. A fixture's "
                         "source is quoted on its page.",
        "cited_for": "Cited for",
        "file": "File",
        "rulesets_intro": "A ruleset sets a value for every parameter. `classic` sets them all; every other "
                          "shipped ruleset extends it and changes a few. A club's house rule is a small file "
                          "that extends one of these (see [{house}]({house_link})).",
        "changes_col": "Changes from classic",
        "title_col": "Ruleset",
        "compare_intro": "Rows are the rule parameters, columns the shipped rulesets; a highlighted cell "
                         "differs from classic. Each parameter links to its rule.",
        "glossary": "Terms of art",
        "term": "Term",
        "meaning": "Meaning",
        "where": "Where to look",
        "cards_label": "Cards",
        "answer_for": "Expected answer",
        "implementations": "Implementations",
        "impl_title": "Implementations checked against the suite",
        "impl_intro": "Conformance reports of real Belote implementations: each was run through its adapter by "
                      "`belote-ref conformance run --report` and the report committed in `conformance/reports/`. "
                      "This page is generated from those reports. In a matrix, a row is a kind of case and a "
                      "column a ruleset; a cell gives the cases passed out of the cases sent, then those not sent "
                      "(`n/a`: the implementation does not support that kind or those rule values), skipped "
                      "(`skip`: sent, but the implementation cannot express the case) and failed. A highlighted "
                      "cell has failures; the failing cases follow each matrix, linked to their fixtures.",
        "impl_none": "No conformance report has been committed yet: this page lists the implementations "
                     "checked against the suite once their reports are in `conformance/reports/`.",
        "impl_none_how": "How to check one: [{protocol}]({link}).",
        "summary": "Summary",
        "implementation": "Implementation",
        "version": "Version",
        "language": "Language",
        "passed_sent": "Passed / sent",
        "result": "Result",
        "result_ok": "no failure",
        "result_bad": "{n} failing",
        "report_file": "Report",
        "suite": "Suite",
        "run_on": "Run on",
        "explained": "Every failure is explained in",
        "matrix": "Kind × ruleset",
        "all_kinds": "All kinds",
        "adapter_rulesets": "Rulesets of the adapter, not shipped with belote-ref",
        "failing": "Failing cases",
        "no_failing": "No failing case.",
        "fixture": "Fixture",
        "failing_under": "Fails under",
        "not_in_corpus": "not in the current corpus",
    },
    "fr": {
        "lang_name": "Français",
        "colon": "\u00a0: ",
        "other_lang": "English version",
        "topics": "Les règles par thème",
        "rulesets": "Les variantes",
        "compare": "Comparaison des variantes",
        "compare_short": "Comparaison",
        "examples": "Exemples commentés",
        "regression": "Donnes de non-régression",
        "sources": "Sources",
        "house_rules": "Écrire ses règles maison",
        "protocol": "Vérifier une implémentation",
        "home": "Accueil",
        "id": "Identifiant",
        "type": "Valeur",
        "default": "par défaut",
        "documentary": "documentaire : change la façon de raconter une partie, jamais un résultat",
        "range": "de {minimum} à {maximum}",
        "value": "Valeur",
        "sources_col": "Sources",
        "rulesets_col": "Variantes qui la choisissent",
        "no_source": "aucune source citée",
        "none": "aucun",
        "fixtures_for": "Exemples commentés",
        "no_fixture": "Pas encore d'exemple vérifié à la main.",
        "changes_one": "classic + 1 changement",
        "changes_many": "classic + {n} changements",
        "baseline": "classic : la référence",
        "baseline_text": "C'est la variante de référence : elle fixe tous les paramètres, et chaque autre "
                         "variante est décrite par ce qu'elle y change.",
        "extends": "Étend",
        "ruleset_sources": "Sources",
        "classic_value": "classic",
        "the_rules": "Les règles",
        "changed_mark": "différent de classic",
        "use_it": "L'utiliser",
        "applicable": "Exemples commentés qui s'appliquent",
        "applicable_text": "{hand} exemples vérifiés à la main s'appliquent à cette variante (avec la réponse "
                           "attendue pour ses valeurs), et {engine} donnes de non-régression.",
        "example": "Exemple",
        "kind": "Nature",
        "expected_under": "Attendu ici",
        "parameter": "Paramètre",
        "differ_title": "Là où les variantes diffèrent",
        "differ_text": "Seulement les paramètres sur lesquels au moins une variante diffère de classic. Une "
                       "case surlignée diffère de classic.",
        "all_title": "Tous les paramètres",
        "rule": "Règle vérifiée",
        "rules": "Règles vérifiées",
        "provenance_hand": "vérifié à la main : déduit du texte de la règle",
        "provenance_engine": "non-régression : produit par le moteur de référence",
        "provenance": "Provenance",
        "normative_no": "non normatif : la réponse attendue repose sur une lecture qu'aucune source ne tranche",
        "situation": "La situation",
        "answers": "La réponse attendue",
        "when": "Quand",
        "always": "Pour toute variante à laquelle il s'applique",
        "rulesets_here": "Variantes livrées",
        "no_shipped": "aucune des variantes livrées",
        "not_applicable": "Ne s'applique pas à",
        "applies_only": "S'applique seulement quand",
        "note": "Comment on l'a établi (en anglais)",
        "source": "Source",
        "raw": "Le cas brut (JSON)",
        "trump": "Atout",
        "to_play": "doit jouer",
        "hand_of": "Main de {seat}",
        "hand": "Main",
        "master": "{seat} est maître avec {card}",
        "master_partner": "partenaire de {seat}",
        "master_opponent": "adversaire de {seat}",
        "trick_empty": "{seat} entame le pli.",
        "led": "entame",
        "direction": "On joue N → E → S → O, dessiné dans le sens inverse des aiguilles d'une montre "
                     "comme dans classic (table.direction).",
        "dealer": "Donneur",
        "eldest": "Premier à parler",
        "turned": "Retourne",
        "taker": "Preneur",
        "calls": "Enchères",
        "round": "Tour",
        "deck": "Le paquet, carte du dessus en premier",
        "tricks": "Les plis",
        "trick": "Pli",
        "winner": "Gagnant",
        "points": "Points",
        "plays": "Cartes jouées",
        "completion": "Seconde distribution",
        "first_five": "Cinq premières cartes",
        "deal_n": "Donne {n}",
        "legal": "Jouables",
        "illegal": "interdite",
        "rejected": "Refusé",
        "rejected_text": "<code>{code}</code> à l'indice {index}",
        "also_given": "Données aussi",
        "no_diagram": "Pas de dessin pour cette situation : voir le cas brut ci-dessous.",
        "regression_intro": "Des donnes légales tirées au hasard, jouées par le moteur de référence sous "
                            "chaque variante livrée et enregistrées comme cas (provenance engine). Ce sont des "
                            "cas de non-régression, pas des résultats vérifiés à la main : ils sont listés ici "
                            "sans page propre. `belote-ref conformance dump --ruleset ID` les affiche en entier.",
        "examples_intro": "Chaque cas vérifié à la main du corpus de conformité est un exemple commenté : une "
                          "situation, dessinée en cartes sur une table, avec la réponse qu'attend chaque "
                          "variante. Ils sont rangés ici sous les règles qu'ils vérifient (un exemple qui en "
                          "vérifie plusieurs apparaît sous chacune). Chacun a une adresse permanente, son "
                          "identifiant.",
        "other_examples": "Exemples qui ne portent pas sur un paramètre",
        "sources_intro": "Les documents que le registre cite pour chaque valeur de chaque paramètre. La "
                         "source d'un exemple est citée sur sa page.",
        "cited_for": "Cité pour",
        "file": "Fichier",
        "rulesets_intro": "Une variante fixe une valeur pour chaque paramètre. `classic` les fixe tous ; chaque "
                          "autre variante livrée l'étend et en change quelques-uns. Les règles maison d'un club "
                          "sont un petit fichier qui étend l'une d'elles (voir [{house}]({house_link})).",
        "changes_col": "Changements par rapport à classic",
        "title_col": "Variante",
        "compare_intro": "Les lignes sont les paramètres, les colonnes les variantes livrées ; une case "
                         "surlignée diffère de classic. Chaque paramètre renvoie à sa règle.",
        "glossary": "Les termes du jeu",
        "term": "Terme",
        "meaning": "Sens",
        "where": "Où chercher",
        "cards_label": "Cartes",
        "answer_for": "Réponse attendue",
        "implementations": "Implémentations",
        "impl_title": "Les implémentations vérifiées",
        "impl_intro": "Les rapports de conformité d'implémentations réelles de la belote : chacune a été vérifiée "
                      "à travers son adaptateur par `belote-ref conformance run --report`, et le rapport versé "
                      "dans `conformance/reports/`. Cette page est produite à partir de ces rapports. Dans un "
                      "tableau, une ligne est une nature de cas et une colonne une variante ; une case donne les "
                      "cas réussis sur les cas envoyés, puis ceux qui n'ont pas été envoyés (`n/a` : "
                      "l'implémentation ne gère pas cette nature de cas ou ces valeurs de règles), ceux qu'elle a "
                      "passés (`skip` : envoyés, mais l'implémentation ne sait pas exprimer le cas) et les échecs. "
                      "Une case surlignée contient des échecs ; les cas en échec suivent chaque tableau, avec un "
                      "lien vers leur exemple.",
        "impl_none": "Aucun rapport de conformité n'a encore été versé : cette page liste les implémentations "
                     "vérifiées dès que leurs rapports sont dans `conformance/reports/`.",
        "impl_none_how": "Comment en vérifier une : [{protocol}]({link}).",
        "summary": "Résumé",
        "implementation": "Implémentation",
        "version": "Version",
        "language": "Langage",
        "passed_sent": "Réussis / envoyés",
        "result": "Résultat",
        "result_ok": "aucun échec",
        "result_bad": "{n} en échec",
        "report_file": "Rapport",
        "suite": "Suite",
        "run_on": "Lancé le",
        "explained": "Chaque échec est expliqué dans",
        "matrix": "Nature × variante",
        "all_kinds": "Toutes natures",
        "adapter_rulesets": "Variantes de l'adaptateur, non livrées avec belote-ref",
        "failing": "Cas en échec",
        "no_failing": "Aucun cas en échec.",
        "fixture": "Exemple",
        "failing_under": "Échoue sous",
        "not_in_corpus": "absent du corpus actuel",
    },
}

HOME = {
    "en": (
        "The rules of Belote",
        "belote-ref writes down the rules of Belote, the French trick-taking card game, as data. Wherever "
        "the federation's rulebook, Pagat, club rulebooks and popular pages disagree, the point is a named "
        "rule parameter with its possible values and the sources behind each. A ruleset picks one value for "
        "every parameter; a club's house rule changes a few. Every rule page here is generated from those "
        "files and from the conformance corpus, so it says exactly what the reference engine checks.",
        "French terms of art stay in French in these pages: belote and rebelote, capot, dedans, litige, dix "
        "de der.",
    ),
    "fr": (
        "Les règles de la belote",
        "belote-ref écrit les règles de la belote sous forme de données. Partout où le règlement de la "
        "fédération, Pagat, les règlements de clubs et les pages populaires divergent, le point devient un "
        "paramètre nommé, avec ses valeurs possibles et les sources de chacune. Une variante choisit une "
        "valeur pour chaque paramètre ; les règles maison d'un club en changent quelques-unes. Chaque page "
        "de règles est produite à partir de ces fichiers et du corpus de conformité : elle dit exactement ce "
        "que vérifie le moteur de référence.",
        "Les exemples commentés gardent en anglais leur titre et leur explication ; tout le reste est traduit.",
    ),
}

GLOSSARY = (
    ("belote, rebelote",
     "the king and queen of trumps in one hand; the holder says \"belote\" with the first and \"rebelote\" "
     "with the second, and scores 20",
     "le roi et la dame d'atout dans une même main ; on dit « belote » en posant le premier et « rebelote » "
     "avec le second, pour 20 points"),
    ("capot", "one team wins all eight tricks", "une équipe fait les huit plis"),
    ("dedans, chute", "the takers fail their contract (\"ils sont dedans\")",
     "les preneurs ne font pas leur contrat (« ils sont dedans »)"),
    ("litige", "an exact tie of totals; under the federation's rule the takers' points wait in a pot for the "
     "next deal", "une égalité parfaite ; selon la fédération, les points des preneurs attendent la donne "
     "suivante"),
    ("dix de der", "the 10 points for winning the last trick", "les 10 points du dernier pli"),
    ("preneur", "the taker: the player who chose trumps; with his partner, the takers",
     "celui qui a choisi l'atout ; avec son partenaire, les preneurs"),
    ("retourne", "the card turned face up after the first deal, proposing its suit as trumps",
     "la carte retournée après la première distribution, qui propose sa couleur à l'atout"),
    ("couper, surcouper, sous-couper", "to trump, to overtrump, to undertrump",
     "jouer atout, monter sur un atout, jouer un atout plus faible"),
    ("maître", "winning the trick so far", "qui remporte le pli pour l'instant"),
    ("tierce, quarte, quinte, carré", "three, four, five cards in sequence; four of a rank",
     "trois, quatre, cinq cartes qui se suivent ; quatre cartes de même rang"),
)

FR_HAND_PAGES = {
    "house-rules.md": (
        "Écrire ses règles maison",
        "Des règles maison sont un petit fichier YAML qui part d'une variante livrée (`extends: classic`) et "
        "change quelques paramètres, écrits imbriqués selon leur identifiant "
        "(`play: {undertrump_over_opponent: optional}`). `belote-ref rules validate fichier.yaml` le vérifie, "
        "`belote-ref rules diff classic fichier.yaml` montre ce qu'il change, et `belote-ref conformance run "
        "--ruleset fichier.yaml` vérifie une implémentation contre tous les exemples qui s'y appliquent.",
    ),
    "protocol.md": (
        "Vérifier une implémentation",
        "belote-ref vérifie n'importe quel moteur de belote, dans n'importe quel langage, comme une boîte "
        "noire : un petit adaptateur lit un objet JSON par ligne sur l'entrée standard et répond un objet JSON "
        "par ligne. Le lanceur lui envoie les cas du corpus et compare ses réponses, variante par variante et "
        "règle par règle.",
    ),
}
HAND_PAGE_TITLES = {"house-rules.md": "house_rules", "protocol.md": "protocol"}


def lbl(lang: str, key: str) -> str:
    """A fixed phrase followed by a colon, spaced as the language wants."""
    return t(lang, key) + t(lang, "colon")


def t(lang: str, key: str, **values: Any) -> str:
    """A fixed phrase of the site in ``lang``."""
    text = TEXT[lang][key]
    return text.format(**values) if values else text


# ------------------------------------------------------------------------------------- the data


@dataclass
class SiteData:
    """Everything the pages are made from."""

    registry: Registry
    rulesets: list[Ruleset]
    fixtures: list[Fixture]
    topics: list[tuple[str, tuple[str, ...], str, str]]
    branches: dict[str, dict[str, int | None]] = field(default_factory=dict)
    hand_pages: frozenset[str] = frozenset()
    reports: list[Report] = field(default_factory=list)

    @property
    def classic(self) -> Ruleset:
        return next((r for r in self.rulesets if r.id == "classic"), self.rulesets[0])

    @property
    def hand(self) -> list[Fixture]:
        return [f for f in self.fixtures if f.provenance != "engine"]

    @property
    def engine(self) -> list[Fixture]:
        return [f for f in self.fixtures if f.provenance == "engine"]

    def topic_of(self, parameter_id: str) -> str:
        area = parameter_id.split(".", 1)[0]
        for slug, areas, _, _ in self.topics:
            if area in areas:
                return slug
        return OTHER_TOPIC[0]

    def parameters_of(self, topic: str) -> list[Parameter]:
        return [p for p in self.registry.parameters.values() if self.topic_of(p.id) == topic]

    def fixtures_of(self, parameter_id: str) -> list[Fixture]:
        """Hand fixtures that test ``parameter_id`` (named in ``rules`` or in a branch's ``when``)."""
        return [f for f in self.hand if parameter_id in _tested(f)]

    def changes(self, ruleset: Ruleset) -> list[str]:
        return list(iter_changes(ruleset, self.classic))


def _tested(fixture: Fixture) -> list[str]:
    tested = list(fixture.rules)
    for branch in fixture.data.get("expect") or ():
        for parameter_id in (branch.get("when") or {}):
            if parameter_id not in tested:
                tested.append(parameter_id)
    return tested


def branch_index(fixture: Fixture, params: Mapping[str, Any]) -> int | None:
    """The index of the first ``expect`` branch that holds under ``params``; None when not applicable."""
    if not predicate_holds(fixture.data.get("applies_to") or {}, params):
        return None
    for index, branch in enumerate(fixture.data["expect"]):
        if predicate_holds(branch.get("when") or {}, params):
            return index
    return None


def load_site_data(fixtures: Iterable[Fixture] | None = None,
                   reports_dir: str | os.PathLike[str] | None = None) -> SiteData:
    """Load the registry, the shipped rulesets, the corpus (valid fixtures, first of each id) and the reports.

    ``reports_dir`` holds the conformance reports (default: :func:`find_reports_dir`); a malformed
    report raises :class:`~belote_ref.errors.BeloteRefError` (code ``docs``) naming its file and line.
    """
    registry = load_registry()
    rulesets = [find_ruleset(ruleset_id) for ruleset_id in shipped_rulesets()]
    seen: set[str] = set()
    unique = []
    for fixture in load_corpus() if fixtures is None else fixtures:
        if fixture.id not in seen:
            seen.add(fixture.id)
            unique.append(fixture)
    areas = {p.area for p in registry.parameters.values()}
    known = {a for _, topic_areas, _, _ in TOPICS for a in topic_areas}
    topics = list(TOPICS) + ([OTHER_TOPIC] if areas - known else [])
    data = SiteData(registry, rulesets, unique, topics, reports=load_reports(reports_dir))
    for fixture in unique:
        data.branches[fixture.id] = {r.id: branch_index(fixture, r.params) for r in rulesets}
    return data


# ------------------------------------------------------------------------ conformance reports


@dataclass(frozen=True)
class Report:
    """One committed conformance report (``schema/report.schema.json``), checked line by line."""

    path: Path
    header: Mapping[str, Any]
    cases: list[Mapping[str, Any]]
    footer: Mapping[str, Any]
    root: Path | None = None  # the checkout the report is committed in, when it is in one

    @property
    def shown_path(self) -> str:
        """The report's path as the page shows it: from the checkout (``conformance/reports/...``)."""
        if self.root is not None:
            try:
                return self.path.resolve().relative_to(self.root).as_posix()
            except ValueError:
                pass
        return self.path.name

    @property
    def adapter(self) -> Mapping[str, Any]:
        return self.header["adapter"]

    @property
    def name(self) -> str:
        return str(self.adapter["name"])

    @property
    def version(self) -> str:
        version = self.adapter.get("version")
        return "" if version is None else str(version)

    @property
    def anchor(self) -> str:
        """The id of the report's section: its file name without ``.jsonl``, made safe for an anchor."""
        return "impl-" + (re.sub(r"[^A-Za-z0-9_.-]+", "-", self.path.stem).strip("-") or "report")

    @property
    def failing(self) -> list[Mapping[str, Any]]:
        return [case for case in self.cases if case["outcome"] in BAD_OUTCOMES]


def _bad_report(path: Path, number: int, what: str) -> BeloteRefError:
    return BeloteRefError(f"malformed conformance report {path}:{number}: {what}", code="docs")


def _check_case(path: Path, number: int, line: Mapping[str, Any]) -> None:
    for key in ("id", "kind", "ruleset"):
        if not isinstance(line.get(key), str) or not line[key].strip():
            raise _bad_report(path, number, f"a case line needs a non-empty string {key!r}")
    if line.get("outcome") not in OUTCOMES:
        raise _bad_report(path, number, f"unknown outcome {line.get('outcome')!r} (one of {', '.join(OUTCOMES)})")
    rules = line.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise _bad_report(path, number, "'rules' must be a list of parameter ids")
    if line.get("provenance", "hand") not in ("hand", "engine"):
        raise _bad_report(path, number, f"unknown provenance {line.get('provenance')!r} (hand or engine)")


def load_report(path: str | os.PathLike[str], root: Path | None = None) -> Report:
    """Read and check one JSON Lines report; a malformed one raises :class:`BeloteRefError` naming the line.

    Besides the schema's shape, the header must come first and name its adapter, the footer must
    come last, and the footer's counts must be those of the case lines.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise BeloteRefError(f"conformance report {path}: cannot read: {reason}", code="docs") from None
    header: Mapping[str, Any] | None = None
    footer: Mapping[str, Any] | None = None
    cases: list[Mapping[str, Any]] = []
    number = 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as error:
            raise _bad_report(path, number, f"not JSON: {error.msg} (column {error.colno})") from None
        kind = line.get("type") if isinstance(line, dict) else None
        if kind not in ("header", "case", "footer"):
            raise _bad_report(path, number, "not a report line (a JSON object whose type is header, case or footer)")
        if footer is not None:
            raise _bad_report(path, number, "a line after the footer")
        if header is None and kind != "header":
            raise _bad_report(path, number, "a report starts with its header line")
        if kind == "header":
            if header is not None:
                raise _bad_report(path, number, "a second header line")
            adapter = line.get("adapter")
            if not isinstance(adapter, dict) or not isinstance(adapter.get("name"), str) or not adapter["name"].strip():
                raise _bad_report(path, number, "the header's adapter has no name")
            if not isinstance(adapter.get("version", ""), (str, int, float)):
                raise _bad_report(path, number, "the header's adapter version is not a string")
            header = line
        elif kind == "case":
            _check_case(path, number, line)
            cases.append(line)
        else:
            counts = line.get("counts")
            if not isinstance(counts, dict) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                       for v in counts.values()):
                raise _bad_report(path, number, "the footer's counts must be an object of whole numbers")
            for outcome in OUTCOMES:
                found = sum(1 for case in cases if case["outcome"] == outcome)
                if counts.get(outcome, 0) != found:
                    raise _bad_report(path, number, f"the footer counts {counts.get(outcome, 0)} {outcome} "
                                                    f"but the report has {found} such case lines")
            if line.get("ok") is not (not any(case["outcome"] in BAD_OUTCOMES for case in cases)):
                raise _bad_report(path, number, f"the footer's ok is {json.dumps(line.get('ok'))} but the "
                                                "case lines say otherwise")
            footer = line
    if header is None:
        raise _bad_report(path, max(number, 1), "empty: a report starts with its header line")
    if footer is None:
        raise _bad_report(path, number, "the report ends without its footer line (an interrupted run?)")
    return Report(path, header, cases, footer, root)


def find_reports_dir(config_file: str | os.PathLike[str] | None = None) -> Path:
    """The folder of the committed reports: :data:`REPORTS_DIR` beside the site's ``mkdocs.yml``
    (:func:`find_config`), else beside the package."""
    try:
        base = find_config(config_file).parent
    except BeloteRefError:
        base = Path(__file__).resolve().parent.parent
    return base / REPORTS_DIR


def load_reports(reports_dir: str | os.PathLike[str] | None = None) -> list[Report]:
    """Every ``*.jsonl`` report in ``reports_dir`` (default :func:`find_reports_dir`), by file name.

    No folder, no report: the implementations page then says there is none yet.
    """
    folder = Path(reports_dir) if reports_dir is not None else find_reports_dir()
    if not folder.is_dir():
        return []
    resolved = folder.resolve()
    root = resolved.parents[1] if resolved.parts[-2:] == ("conformance", "reports") else None
    return [load_report(path, root) for path in sorted(folder.glob("*.jsonl"))]


# ----------------------------------------------------------------------------- text and links


def md(text: Any) -> str:
    """Plain text made safe for Markdown: HTML escaped, Markdown punctuation backslash-escaped."""
    escaped = html.escape(" ".join(str(text).split()), quote=False)
    return re.sub(r"([\\`*_\[\]{}#|!])", r"\\\1", escaped)


def md_paragraphs(text: Any) -> str:
    """Plain text with blank-line paragraphs, made safe for Markdown."""
    return "\n\n".join(md(p) for p in re.split(r"\n\s*\n", str(text)) if p.strip())


_CARD_IN_TEXT = re.compile(r"(?<![\w\\])(?:10|[789TJQKA])[SHDC](?!\w)")


def md_with_cards(text: Any) -> str:
    """Like :func:`md_paragraphs`, with card tokens (``JD``, ``10H``) drawn as cards."""
    return _CARD_IN_TEXT.sub(lambda m: card_html(m.group(0)), md_paragraphs(text))


def code(text: Any) -> str:
    """A Markdown code span for ``text``."""
    text = str(text)
    fence = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def rel(src: str, dst: str) -> str:
    """The relative link from page ``src`` to ``dst`` (both paths from the docs root, ``#anchor`` kept)."""
    path, _, anchor = dst.partition("#")
    link = posixpath.relpath(path, posixpath.dirname(src) or ".") if path else ""
    return link + (f"#{anchor}" if anchor else "")


def title_of(parameter_id: str, lang: str) -> str:
    parameter = load_registry().parameters.get(parameter_id)
    return parameter.title_in(lang) if parameter is not None else parameter_id


def label_of(value: Any, parameter: Parameter | None, lang: str) -> str:
    """A value in plain words: its registry label, else the value itself (plain text)."""
    label = parameter.label_of(value, lang) if parameter is not None else None
    return label if label else format_value(value, parameter, lang)


def label_md(value: Any, parameter: Parameter | None, lang: str) -> str:
    """A value's label (Markdown) with the value itself in code after it; the explanation as a tooltip."""
    label = parameter.label_of(value, lang) if parameter is not None else None
    if not label:
        return value_md(value, parameter, lang)
    explain = parameter.explain_of(value, lang) if parameter is not None else None
    tip = f' title="{html.escape(explain)}"' if explain else ""
    return f'<span class="bt-label-value"{tip}>{md(label)}</span> <small>{value_md(value, parameter, lang)}</small>'


def ruleset_title(ruleset: Ruleset, lang: str) -> str:
    return ruleset.title.get(lang) or ruleset.title.get("en") or ruleset.id


def ruleset_description(ruleset: Ruleset, lang: str) -> str:
    return ruleset.description.get(lang) or ruleset.description.get("en") or ""


def param_page(data: SiteData, lang: str, parameter_id: str) -> str:
    return f"{lang}/rules/{data.topic_of(parameter_id)}.md#{parameter_id}"


def fixture_page(lang: str, fixture: Fixture) -> str:
    if fixture.provenance == "engine":
        return f"{lang}/regression.md#{fixture.id}"
    return f"{lang}/fixtures/{fixture.id}.md"


def format_value(value: Any, parameter: Parameter | None = None, lang: str = "en") -> str:
    """A parameter value in words short enough for a table cell (plain text)."""
    kind = parameter.type if parameter is not None else None
    if isinstance(value, bool):
        return "true" if value else "false"
    if kind == "rank_order" and isinstance(value, list):
        return " ".join(_rank(r) for r in value)
    if kind == "rank_points" and isinstance(value, dict):
        return ", ".join(f"{_rank(r)} {p}" for r, p in value.items())
    if kind == "packets" and isinstance(value, list):
        return (" / " if lang == "en" else " / ").join("+".join(str(n) for n in packet) for packet in value)
    if kind == "announcement_values" and isinstance(value, dict):
        parts = [f"{name} {value[name]}" for name in ("tierce", "quarte", "quinte") if name in value]
        carre = value.get("carre")
        if isinstance(carre, dict):
            parts.append("carré " + ", ".join(f"{_rank(r)} {p}" for r, p in carre.items() if p))
        return "; ".join(parts)
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    return json.dumps(value, ensure_ascii=False)


def _rank(rank: Any) -> str:
    return "10" if str(rank) in ("T", "10") else str(rank)


def value_md(value: Any, parameter: Parameter | None, lang: str) -> str:
    return code(format_value(value, parameter, lang))


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


# ----------------------------------------------------------------------------------- cards (HTML)

_CARD = re.compile(r"^(10|[789TJQKA])([SHDC])$")


def is_card(token: Any) -> bool:
    return isinstance(token, str) and bool(_CARD.match(token))


def is_cards(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(is_card(v) for v in value)


def card_html(token: str, extra: str = "", badge: str = "") -> str:
    """One card as a small HTML chip: rank and suit symbol, hearts and diamonds in red."""
    match = _CARD.match(token)
    if not match:
        return html.escape(token)
    rank, suit = match.groups()
    colour = "bt-red" if suit in "HD" else "bt-black"
    classes = " ".join(c for c in ("bt-card", colour, extra) if c)
    badge_html = f'<sup class="bt-order">{html.escape(badge)}</sup>' if badge else ""
    return (f'<span class="{classes}" title="{html.escape(token)}">{_rank(rank)}'
            f'<span class="bt-suit">{SUIT_SYMBOLS[suit]}</span>{badge_html}</span>')


def cards_html(tokens: Sequence[str], classes: Mapping[str, str] | None = None) -> str:
    return f'<span class="bt-cards">{"".join(card_html(t, (classes or {}).get(t, "")) for t in tokens)}</span>'


def suit_html(letter: str, lang: str) -> str:
    if letter not in SUIT_SYMBOLS:
        return html.escape(str(letter))
    colour = "bt-red" if letter in "HD" else "bt-black"
    return (f'<span class="bt-suit-name"><span class="bt-trump {colour}">{SUIT_SYMBOLS[letter]}</span> '
            f'{SUIT_NAMES[lang][letter]}</span>')


def value_html(value: Any, lang: str) -> str:
    """Any given or result value as inline HTML (cards drawn, seats named, the rest as code)."""
    if value is None:
        return f"<em>{t(lang, 'none')}</em>"
    if is_card(value):
        return card_html(value)
    if is_cards(value):
        return cards_html(value)
    if isinstance(value, dict):
        if value and all(k in "NESW" and len(k) == 1 for k in value):
            return " ".join(f'<span class="bt-kv"><b>{k}</b> {value_html(v, lang)}</span>' for k, v in value.items())
        return " ".join(f'<span class="bt-kv"><b>{html.escape(str(k))}</b> {value_html(v, lang)}</span>'
                        for k, v in value.items())
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            return "<br>".join(value_html(v, lang) for v in value)
        if not value:
            return f"<em>{t(lang, 'none')}</em>"
        return ", ".join(value_html(v, lang) for v in value)
    if isinstance(value, bool):
        return f"<code>{'true' if value else 'false'}</code>"
    return f"<code>{html.escape(str(value))}</code>"


# ------------------------------------------------------------------------------ card diagrams


def _seat(value: Any) -> Seat:
    return Seat.parse(str(value))


def _positions(bottom: Seat) -> dict[Seat, str]:
    """Where each seat is drawn: ``bottom`` at the bottom and play going counterclockwise (classic)."""
    return {bottom: "bottom", bottom.next: "right", bottom.next.next: "top", bottom.next.next.next: "left"}


Orders = list[tuple[tuple[str, ...], tuple[str, ...]]]


def _order_options(wanted: Any, default: Sequence[str]) -> list[tuple[str, ...]]:
    """The card orders a predicate entry allows (``one_of`` gives several); the default when it names none."""
    options = wanted["one_of"] if isinstance(wanted, Mapping) and "one_of" in wanted else [wanted]
    found = []
    for option in options:
        if isinstance(option, list):
            ranks = tuple("T" if str(r) in ("10", "T") else str(r) for r in option)
            if sorted(ranks) == sorted("789TJQKA"):
                found.append(ranks)
    return found or [tuple(default)]


def card_orders(fixture: Fixture) -> Orders:
    """Every (trump order, plain order) under which one of the fixture's branches applies."""
    classic = find_ruleset("classic")
    orders: Orders = []
    for branch in fixture.data.get("expect") or [{}]:
        predicate = {**(fixture.data.get("applies_to") or {}), **((branch or {}).get("when") or {})}
        for trump in _order_options(predicate.get("cards.trump_order"), classic["cards.trump_order"]):
            for plain in _order_options(predicate.get("cards.plain_order"), classic["cards.plain_order"]):
                if (trump, plain) not in orders:
                    orders.append((trump, plain))
    return orders


def _winner_index(cards: Sequence[str], trump: str, orders: Orders) -> int | None:
    """The index of the card winning ``cards`` so far, when every applicable card order agrees."""
    tokens = [c if len(c) == 2 else "T" + c[-1] for c in cards]
    led = tokens[0][1]
    winners = set()
    for trump_order, plain_order in orders:
        strengths = [100 - trump_order.index(c[0]) if c[1] == trump else
                     50 - plain_order.index(c[0]) if c[1] == led else 0 for c in tokens]
        winners.add(max(range(len(tokens)), key=strengths.__getitem__))
    return winners.pop() if len(winners) == 1 else None


def _table_html(lang: str, trump: str, leader: Seat, cards: Sequence[str], bottom: Seat, orders: Orders,
                to_play: Seat | None = None) -> str:
    """A table seen from above: each seat's card of the trick, the master marked, trump in the centre."""
    master = _winner_index(cards, trump, orders) if cards else None
    played = {leader.__class__((leader + i) & 3): (card, i) for i, card in enumerate(cards)}
    cells = []
    for seat, position in _positions(bottom).items():
        name = html.escape(SEAT_NAMES[lang][seat.name])
        label = f'<span class="bt-seat-name" title="{name}">{seat.name}</span>'
        if seat in played:
            card, index = played[seat]
            extra = "bt-master" if index == master else ""
            badge = t(lang, "led") if index == 0 else str(index + 1)
            inner = card_html(card, extra, badge)
        elif to_play is not None and seat == to_play:
            inner = f'<span class="bt-card bt-empty">?</span><span class="bt-to-play">{t(lang, "to_play")}</span>'
        else:
            inner = '<span class="bt-card bt-empty">&nbsp;</span>'
        cells.append(f'<div class="bt-seat bt-pos-{position}">{label}{inner}</div>')
    centre = f'<div class="bt-centre">{t(lang, "trump")}<br>{suit_html(trump, lang)}</div>'
    return (f'<div class="bt-table">{"".join(cells)}{centre}</div>'
            f'<p class="bt-caption bt-direction">{t(lang, "direction")}</p>')


def _caption(lang: str, text: str) -> str:
    return f'<p class="bt-caption">{text}</p>'


def diagram_legal_plays(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    trump, seat = str(given["trump"]), _seat(given["seat"])
    trick = given.get("trick") or {}
    cards = list(trick.get("cards") or [])
    leader = _seat(trick["leader"]) if trick.get("leader") is not None else seat
    parts = [_table_html(lang, trump, leader, cards, seat, orders, to_play=seat)]
    index = _winner_index(cards, trump, orders) if cards else None
    if index is not None:
        master = Seat((leader + index) & 3)
        relation = t(lang, "master_partner" if master == seat.partner else "master_opponent", seat=seat.name)
        parts.append(_caption(lang, t(lang, "master", seat=master.name, card=card_html(cards[index])) + f" ({relation})."))
    elif not cards:
        parts.append(_caption(lang, t(lang, "trick_empty", seat=leader.name)))
    hand = list(given.get("hand") or [])
    parts.append(f'<div class="bt-hand"><span class="bt-label">{t(lang, "hand_of", seat=seat.name)}</span>'
                 f'{cards_html(hand)}</div>')
    return "".join(parts), {"trump", "seat", "trick", "hand"}


def diagram_trick_winner(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    trump = str(given["trump"])
    trick = given["trick"]
    cards = list(trick["cards"])
    leader = _seat(trick["leader"])
    return _table_html(lang, trump, leader, cards, Seat.S, orders), {"trump", "trick"}


def diagram_announcements(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    hand = list(given["hand"])
    label = t(lang, "hand_of", seat=given["seat"]) if given.get("seat") else t(lang, "hand")
    html_ = (f'<p class="bt-caption">{lbl(lang, "trump")}{suit_html(str(given["trump"]), lang)}</p>'
             f'<div class="bt-hand"><span class="bt-label">{html.escape(label)}</span>{cards_html(hand)}</div>')
    return html_, {"trump", "hand", "seat"}


def _seat_rows(lang: str, hands: Mapping[str, Any]) -> str:
    rows = "".join(f'<tr><th>{html.escape(str(seat))}</th><td>{value_html(cards, lang)}</td></tr>'
                   for seat, cards in hands.items())
    return f'<table class="bt-grid">{rows}</table>'


def diagram_auction(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    dealer = _seat(given["dealer"])
    eldest = dealer.next
    calls = list(given.get("calls") or [])
    head = (f'<p class="bt-caption">{lbl(lang, "dealer")}<b>{dealer.name}</b> · {lbl(lang, "eldest")}'
            f'<b>{eldest.name}</b> · {lbl(lang, "turned")}{card_html(str(given["turned"]))}</p>')
    seats = [Seat((eldest + i) & 3) for i in range(4)]
    header = "".join(f"<th>{s.name}</th>" for s in seats)
    rows = []
    for start in range(0, max(len(calls), 1), 4):
        chunk = calls[start:start + 4]
        cells = "".join(f"<td>{_call_html(c, lang)}</td>" for c in chunk) + "<td></td>" * (4 - len(chunk))
        rows.append(f"<tr><th>{t(lang, 'round')} {start // 4 + 1}</th>{cells}</tr>")
    table = f'<table class="bt-grid"><tr><th>{t(lang, "calls")}</th>{header}</tr>{"".join(rows)}</table>'
    return head + table, {"dealer", "turned", "calls"}


def _call_html(call: Any, lang: str) -> str:
    if isinstance(call, str) and call in SUIT_SYMBOLS:
        return suit_html(call, lang)
    return f"<code>{html.escape(str(call))}</code>"


def diagram_deal(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    dealer = _seat(given["dealer"])
    deck = list(given["deck"])
    head = (f'<p class="bt-caption">{lbl(lang, "dealer")}<b>{dealer.name}</b> · {lbl(lang, "eldest")}'
            f'<b>{dealer.next.name}</b></p><p class="bt-label">{t(lang, "deck")}</p>')
    cards = "".join(card_html(c, badge=str(i)) for i, c in enumerate(deck))
    return head + f'<div class="bt-hand bt-deck">{cards}</div>', {"dealer", "deck"}


def _tricks_table(lang: str, trump: str, tricks: Sequence[Mapping[str, Any]], orders: Orders) -> str:
    header = "".join(f"<th>{s.name}</th>" for s in Seat)
    rows = []
    for number, trick in enumerate(tricks, 1):
        leader = _seat(trick["leader"])
        cards = list(trick["cards"])
        master = _winner_index(cards, trump, orders) if len(cards) else None
        by_seat: dict[Seat, str] = {}
        for index, card in enumerate(cards):
            extra = "bt-master" if index == master else ""
            by_seat[Seat((leader + index) & 3)] = card_html(card, extra, t(lang, "led") if index == 0 else "")
        cells = "".join(f"<td>{by_seat.get(s, '')}</td>" for s in Seat)
        winner = Seat((leader + master) & 3).name if master is not None else ""
        rows.append(f"<tr><th>{number}</th>{cells}<td><b>{winner}</b></td></tr>")
    return (f'<table class="bt-grid bt-tricks"><tr><th>{t(lang, "trick")}</th>{header}'
            f'<th>{t(lang, "winner")}</th></tr>{"".join(rows)}</table>')


def diagram_score(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    trump = str(given["trump"])
    head = (f'<p class="bt-caption">{lbl(lang, "dealer")}<b>{html.escape(str(given["dealer"]))}</b> · '
            f'{lbl(lang, "taker")}<b>{html.escape(str(given["taker"]))}</b> · {lbl(lang, "trump")}'
            f'{suit_html(trump, lang)}</p>')
    return head + _tricks_table(lang, trump, given["tricks"], orders), {"dealer", "taker", "trump", "tricks"}


def diagram_match(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    parts = []
    for number, deal in enumerate(given["deals"], 1):
        body, used = diagram_score(deal, lang, orders)
        rest = _also_given(deal, used, lang)
        parts.append(f'<p class="bt-label">{t(lang, "deal_n", n=number)}</p>{body}{rest}')
    return "".join(parts), {"deals"}


def diagram_replay(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    dealer = _seat(given["dealer"])
    turned = str(given["turned"])
    calls = list(given.get("calls") or [])
    trump = turned[-1]
    for call in calls:
        if isinstance(call, str) and call in SUIT_SYMBOLS:
            trump = call
    head = (f'<p class="bt-caption">{lbl(lang, "dealer")}<b>{dealer.name}</b> · {lbl(lang, "turned")}'
            f'{card_html(turned)} · {lbl(lang, "calls")}{", ".join(_call_html(c, lang) for c in calls)}</p>')
    hands = f'<p class="bt-label">{t(lang, "first_five")}</p>{_seat_rows(lang, given["hands"])}'
    completion = given.get("completion")
    if completion:
        hands += f'<p class="bt-label">{t(lang, "completion")}</p>{_seat_rows(lang, completion)}'
    plays = list(given.get("plays") or [])
    tricks = []
    leader = dealer.next
    for start in range(0, len(plays), 4):
        cards = plays[start:start + 4]
        tricks.append({"leader": leader.name, "cards": cards})
        winner = _winner_index(cards, trump, orders[:1]) if len(cards) == 4 else None
        if winner is not None:
            leader = Seat((leader + winner) & 3)
    body = head + hands
    if tricks:
        body += f'<p class="bt-label">{t(lang, "plays")}</p>' + _tricks_table(lang, trump, tricks, orders)
    return body, {"dealer", "turned", "calls", "hands", "completion", "plays"}


DIAGRAMS = {
    "legal_plays": diagram_legal_plays,
    "trick_winner": diagram_trick_winner,
    "announcements": diagram_announcements,
    "auction": diagram_auction,
    "deal": diagram_deal,
    "score": diagram_score,
    "match": diagram_match,
    "replay": diagram_replay,
}


def _also_given(given: Mapping[str, Any], used: set[str], lang: str) -> str:
    rest = [(k, v) for k, v in given.items() if k not in used]
    if not rest:
        return ""
    rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{value_html(v, lang)}</td></tr>" for k, v in rest)
    return f'<table class="bt-grid bt-also">{rows}</table>'


def diagram(fixture: Fixture, lang: str) -> str:
    """The card diagram of a fixture's ``given`` (raw HTML); any shape the drawing does not know is listed."""
    given = fixture.given if isinstance(fixture.given, Mapping) else {}
    drawer = DIAGRAMS.get(fixture.kind)
    body, used = "", set[str]()
    if drawer is not None:
        try:
            body, used = drawer(given, lang, card_orders(fixture))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            body, used = "", set()
    if not body:
        body = _caption(lang, t(lang, "no_diagram"))
    return f'<div class="bt-diagram">{body}{_also_given(given, used, lang)}</div>'


def _rejected_item(fixture: Fixture, rejected: Mapping[str, Any]) -> str:
    """The call or card a rejection points at, when ``given`` has it."""
    given = fixture.given if isinstance(fixture.given, Mapping) else {}
    index, code_ = rejected.get("index"), str(rejected.get("code", ""))
    items = given.get("plays") if "play" in code_ else given.get("calls") if "call" in code_ else None
    if not isinstance(index, int) or isinstance(index, bool) or not isinstance(items, list) or not 0 <= index < len(items):
        return ""
    item = items[index]
    return card_html(item) if is_card(item) else f"<code>{html.escape(str(item))}</code>"


def result_html(fixture: Fixture, result: Any, lang: str) -> str:
    """An expected result as raw HTML: legal cards marked in the hand, a rejection in words, else a table."""
    if isinstance(result, Mapping) and isinstance(result.get("rejected"), Mapping):
        rejected = result["rejected"]
        text = t(lang, "rejected_text", code=html.escape(str(rejected.get("code"))),
                 index=html.escape(str(rejected.get("index"))))
        what = _rejected_item(fixture, rejected)
        if what:
            text += f" ({what})"
        return f'<div class="bt-result"><p><b>{t(lang, "rejected")}</b>{t(lang, "colon")}{text}</p></div>'
    if (fixture.kind == "legal_plays" and isinstance(result, Mapping) and is_cards(result.get("legal"))
            and isinstance(fixture.given, Mapping) and is_cards(fixture.given.get("hand"))):
        legal = set(result["legal"])
        hand = list(fixture.given["hand"])
        classes = {c: ("bt-legal" if c in legal else "bt-illegal") for c in hand}
        extra = [c for c in result["legal"] if c not in hand]
        chips = cards_html(hand + extra, classes)
        return f'<div class="bt-result"><p><b>{t(lang, "legal")}</b>{t(lang, "colon")}{chips}</p></div>'
    if isinstance(result, Mapping):
        rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{value_html(v, lang)}</td></tr>"
                       for k, v in result.items())
        return f'<div class="bt-result"><table class="bt-grid">{rows}</table></div>'
    return f'<div class="bt-result"><p>{value_html(result, lang)}</p></div>'


# ------------------------------------------------------------------------------------- pages


@dataclass
class Site:
    """The generated pages (docs path -> Markdown) and the navigation."""

    pages: dict[str, str]
    nav: list[Any]


def generate_pages(data: SiteData | None = None, hand_pages: Iterable[str] = ()) -> Site:
    """Every generated page and the nav (``hand_pages``: the hand-written pages found in ``docs/``)."""
    data = data or load_site_data()
    hand_pages = sorted(hand_pages)
    data.hand_pages = frozenset(hand_pages)
    pages: dict[str, str] = {"index.md": landing_page(data)}
    for lang in LANGUAGES:
        pages[f"{lang}/index.md"] = home_page(data, lang)
        for slug, _, _, _ in data.topics:
            pages[f"{lang}/rules/{slug}.md"] = topic_page(data, lang, slug)
        pages[f"{lang}/rulesets.md"] = rulesets_page(data, lang)
        for ruleset in data.rulesets:
            pages[f"{lang}/rulesets/{ruleset.id}.md"] = ruleset_page(data, lang, ruleset)
        pages[f"{lang}/compare.md"] = compare_page(data, lang)
        pages[f"{lang}/examples.md"] = examples_page(data, lang)
        pages[f"{lang}/regression.md"] = regression_page(data, lang)
        pages[f"{lang}/sources.md"] = sources_page(data, lang)
        pages[f"{lang}/implementations.md"] = implementations_page(data, lang)
        for fixture in data.hand:
            pages[f"{lang}/fixtures/{fixture.id}.md"] = fixture_md(data, lang, fixture)
    for name, (title, text) in FR_HAND_PAGES.items():
        if name in hand_pages:
            pages[f"fr/{name}"] = f"# {md(title)}\n\n{text}\n\n[{t('fr', 'other_lang')} →]({rel('fr/' + name, name)})\n"
    return Site(pages, site_nav(data, pages, hand_pages))


def site_nav(data: SiteData, pages: Mapping[str, str], hand_pages: Sequence[str]) -> list[Any]:
    nav: list[Any] = [{"belote-ref": "index.md"}]
    for lang in LANGUAGES:
        section: list[Any] = [{t(lang, "home"): f"{lang}/index.md"}]
        section.append({t(lang, "topics"): [{_topic_title(data, s, lang): f"{lang}/rules/{s}.md"}
                                            for s, _, _, _ in data.topics]})
        section.append({t(lang, "rulesets"): [{t(lang, "rulesets"): f"{lang}/rulesets.md"}]
                        + [{ruleset_title(r, lang): f"{lang}/rulesets/{r.id}.md"} for r in data.rulesets]})
        section.append({t(lang, "compare_short"): f"{lang}/compare.md"})
        section.append({t(lang, "examples"): [{t(lang, "examples"): f"{lang}/examples.md"},
                                              {t(lang, "regression"): f"{lang}/regression.md"}]})
        for name in hand_pages:
            key = HAND_PAGE_TITLES.get(name)
            if lang == "en":
                section.append({t(lang, key) if key else name.removesuffix(".md"): name})
            elif f"{lang}/{name}" in pages:
                section.append({t(lang, key) if key else name.removesuffix(".md"): f"{lang}/{name}"})
        section.append({t(lang, "implementations"): f"{lang}/implementations.md"})
        section.append({t(lang, "sources"): f"{lang}/sources.md"})
        nav.append({t(lang, "lang_name"): section})
    return nav


def _topic_title(data: SiteData, slug: str, lang: str) -> str:
    for topic_slug, _, en, fr in data.topics:
        if topic_slug == slug:
            return en if lang == "en" else fr
    return slug


def _lang_switch(path: str, lang: str) -> str:
    other = "fr" if lang == "en" else "en"
    target = other + path[len(lang):]
    return f'<p class="bt-lang" markdown>[{t(lang, "other_lang")}]({rel(path, target)})</p>\n\n'


def landing_page(data: SiteData) -> str:
    lines = ["---", "hide: [navigation, toc]", "---", "", "# belote-ref", ""]
    lines.append('<div class="grid cards" markdown>')
    lines.append("")
    for lang in LANGUAGES:
        title, intro, _ = HOME[lang]
        lines.append(f"-   **[{md(title)}]({lang}/index.md)** ({t(lang, 'lang_name')})")
        lines.append("")
        lines.append(f"    {md(intro)}")
        lines.append("")
        links = " · ".join(f"[{md(_topic_title(data, s, lang))}]({lang}/rules/{s}.md)" for s, _, _, _ in data.topics)
        lines.append(f"    {links}")
        lines.append("")
        lines.append(f"    [{t(lang, 'rulesets')}]({lang}/rulesets.md) · [{t(lang, 'compare_short')}]({lang}/compare.md)"
                     f" · [{t(lang, 'examples')}]({lang}/examples.md)"
                     f" · [{t(lang, 'implementations')}]({lang}/implementations.md)")
        lines.append("")
    lines.append("-   **belote-ref**")
    lines.append("")
    if "house-rules.md" in data.hand_pages:
        lines.append("    For a club, pour un club : [Write your house rules](house-rules.md) · "
                     "[Écrire ses règles maison](fr/house-rules.md)")
        lines.append("")
    if "protocol.md" in data.hand_pages:
        lines.append("    For an app author, pour un développeur : [Checking an implementation](protocol.md) · "
                     "[Vérifier une implémentation](fr/protocol.md)")
        lines.append("")
    lines.append(f"    {len(data.registry.parameters)} parameters, paramètres · {len(data.rulesets)} rulesets, "
                 f"variantes · {len(data.hand)} worked examples, exemples commentés · {len(data.engine)} "
                 "regression deals, donnes de non-régression")
    lines.append("")
    lines.append('    <p class="bt-fan">' + "".join(card_html(c) for c in ("JH", "9H", "AS", "TD", "KC", "QH")) + "</p>")
    lines.append("")
    lines.append("</div>")
    return "\n".join(lines) + "\n"


def home_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/index.md"
    title, intro, terms = HOME[lang]
    out = [f"# {md(title)}", "", _lang_switch(path, lang), md(intro), "", md(terms), "", f"## {t(lang, 'where')}", ""]
    for slug, _, _, _ in data.topics:
        count = len(data.parameters_of(slug))
        out.append(f"- [{md(_topic_title(data, slug, lang))}]({rel(path, f'{lang}/rules/{slug}.md')}) ({count})")
    out.append("")
    out.append(f"- [{t(lang, 'rulesets')}]({rel(path, f'{lang}/rulesets.md')}){t(lang, 'colon')}"
               + ", ".join(f"[{r.id}]({rel(path, f'{lang}/rulesets/{r.id}.md')})" for r in data.rulesets))
    out.append(f"- [{t(lang, 'compare')}]({rel(path, f'{lang}/compare.md')})")
    out.append(f"- [{t(lang, 'examples')}]({rel(path, f'{lang}/examples.md')}) ({len(data.hand)}), "
               f"[{t(lang, 'regression')}]({rel(path, f'{lang}/regression.md')}) ({len(data.engine)})")
    for name in sorted(data.hand_pages & set(HAND_PAGE_TITLES)):
        target = name if lang == "en" else f"{lang}/{name}"
        out.append(f"- [{t(lang, HAND_PAGE_TITLES[name])}]({rel(path, target)})")
    checked = ", ".join(md(f"{r.name} {r.version}".strip()) for r in data.reports)
    out.append(f"- [{t(lang, 'impl_title')}]({rel(path, f'{lang}/implementations.md')})"
               + (f"{t(lang, 'colon')}{checked}" if checked else ""))
    out.append(f"- [{t(lang, 'sources')}]({rel(path, f'{lang}/sources.md')})")
    out += ["", f"## {t(lang, 'glossary')}", "", f"| {t(lang, 'term')} | {t(lang, 'meaning')} |", "|---|---|"]
    for term, en, fr in GLOSSARY:
        out.append(f"| *{md(term)}* | {md(en if lang == 'en' else fr)} |")
    return "\n".join(out) + "\n"


def _source_links(path: str, lang: str, sources: Iterable[str], data: SiteData) -> str:
    links = []
    for source in sources:
        if source in data.registry.sources:
            links.append(f"[{md(source)}]({rel(path, f'{lang}/sources.md#{source}')})")
        else:
            links.append(md(source))
    return ", ".join(links) or f"*{t(lang, 'no_source')}*"


def _groups(parameters: Sequence[Parameter]) -> list[tuple[str, list[Parameter]]]:
    groups: dict[str, list[Parameter]] = {}
    for parameter in parameters:
        parts = parameter.id.split(".")
        key = ".".join(parts[:2]) if len(parts) > 2 else parts[0]
        groups.setdefault(key, []).append(parameter)
    return list(groups.items())


def _group_title(key: str, lang: str) -> str:
    pair = GROUPS.get(key)
    return pair[LANGUAGES.index(lang)] if pair else key


def topic_page(data: SiteData, lang: str, slug: str) -> str:
    path = f"{lang}/rules/{slug}.md"
    intro = TOPIC_INTROS.get(slug, ("", ""))[LANGUAGES.index(lang)]
    out = [f"# {md(_topic_title(data, slug, lang))}", "", _lang_switch(path, lang), md(intro), ""]
    groups = _groups(data.parameters_of(slug))
    level = "###" if len(groups) > 1 else "##"
    for key, parameters in groups:
        if len(groups) > 1:
            out += [f"## {md(_group_title(key, lang))}", ""]
        for parameter in parameters:
            out += parameter_section(data, lang, path, parameter, level)
    return "\n".join(out) + "\n"


def parameter_section(data: SiteData, lang: str, path: str, parameter: Parameter, level: str) -> list[str]:
    pid = parameter.id
    kind = TYPES.get(parameter.type, (parameter.type, parameter.type))[LANGUAGES.index(lang)]
    if parameter.type == "int" and parameter.minimum is not None and parameter.maximum is not None:
        kind += " " + t(lang, "range", minimum=parameter.minimum, maximum=parameter.maximum)
    meta = f"{code(pid)} · {md(kind)} · {t(lang, 'default')} {value_md(parameter.default, parameter, lang)}"
    if not parameter.outcome:
        meta += f" · *{md(t(lang, 'documentary'))}*"
    prose = parameter.en if lang == "en" else parameter.fr
    out = [f"{level} {md(title_of(pid, lang))} {{#{pid}}}", "", meta, "", md_paragraphs(prose), ""]
    out += [f"| {t(lang, 'value')} | {t(lang, 'meaning')} | {t(lang, 'sources_col')} | {t(lang, 'rulesets_col')} |",
            "|---|---|---|---|"]
    values = list(zip(parameter.values, parameter.sources, strict=True))
    for ruleset in data.rulesets:
        if not any(_same(ruleset[pid], v) for v, _ in values):
            values.append((ruleset[pid], ()))
    for value, sources in values:
        chosen = [r for r in data.rulesets if _same(r[pid], value)]
        rulesets = ", ".join(f"[{r.id}]({rel(path, f'{lang}/rulesets/{r.id}.md')})" for r in chosen) or "—"
        label = parameter.label_of(value, lang)
        shown = (f"**{md(label)}**<br>" if label else "") + value_md(value, parameter, lang)
        if _same(value, parameter.default):
            shown += f" ({t(lang, 'default')})"
        explain = md(parameter.explain_of(value, lang) or "")
        out.append(f"| {shown} | {explain} | {_source_links(path, lang, sources, data)} | {rulesets} |")
    out.append("")
    fixtures = data.fixtures_of(pid)
    if fixtures:
        items = [f"- [{md(fixture.data['title'])}]({rel(path, fixture_page(lang, fixture))})" for fixture in fixtures]
        if len(fixtures) > 6:
            out += [f'??? example "{t(lang, "fixtures_for")} ({len(fixtures)})"', ""] + [f"    {i}" for i in items]
        else:
            out += [f"**{t(lang, 'fixtures_for')}** ({len(fixtures)})", ""] + items
    else:
        out.append(f"*{t(lang, 'no_fixture')}*")
    out.append("")
    return out


def _banner(data: SiteData, lang: str, path: str, ruleset: Ruleset) -> list[str]:
    changes = data.changes(ruleset)
    if ruleset.id == data.classic.id:
        return [f'!!! note bt-banner "{t(lang, "baseline")}"', "", f"    {t(lang, 'baseline_text')}", ""]
    title = t(lang, "changes_one") if len(changes) == 1 else t(lang, "changes_many", n=len(changes))
    out = [f'!!! abstract bt-banner "{title}"', ""]
    for pid in changes:
        parameter = data.registry[pid]
        out.append(f"    - [{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))}) "
                   f"({code(pid)}): {label_md(data.classic[pid], parameter, lang)} → "
                   f"<span class=\"bt-changed\">{label_md(ruleset[pid], parameter, lang)}</span>")
    if not changes:
        out.append(f"    {t(lang, 'baseline_text')}")
    out.append("")
    return out


def ruleset_page(data: SiteData, lang: str, ruleset: Ruleset) -> str:
    path = f"{lang}/rulesets/{ruleset.id}.md"
    out = [f"# {md(ruleset_title(ruleset, lang))}", "", _lang_switch(path, lang)]
    out += _banner(data, lang, path, ruleset)
    description = ruleset_description(ruleset, lang)
    if description:
        out += [md_paragraphs(description), ""]
    facts = [f"{lbl(lang, 'id')}{code(ruleset.id)} (version {ruleset.version})"]
    if ruleset.parent:
        parent = (f"[{ruleset.parent}]({rel(path, f'{lang}/rulesets/{ruleset.parent}.md')})"
                  if any(r.id == ruleset.parent for r in data.rulesets) else code(ruleset.parent))
        facts.append(f"{lbl(lang, 'extends')}{parent}")
    if ruleset.sources:
        facts.append(f"{lbl(lang, 'ruleset_sources')}{_source_links(path, lang, ruleset.sources, data)}")
    facts.append(f"{lbl(lang, 'use_it')}{code(f'belote-ref rules show {ruleset.id}')}")
    out += [f"- {fact}" for fact in facts] + [""]
    out += [f"## {t(lang, 'the_rules')}", ""]
    changed = set(data.changes(ruleset))
    for slug, _, _, _ in data.topics:
        out += [f"### {md(_topic_title(data, slug, lang))}", ""]
        for parameter in data.parameters_of(slug):
            pid = parameter.id
            value = label_md(ruleset[pid], parameter, lang)
            if pid in changed:
                value = (f'<span class="bt-changed">{value}</span> '
                         f"({lbl(lang, 'classic_value')}{label_md(data.classic[pid], parameter, lang)})")
            explain = parameter.explain_of(ruleset[pid], lang)
            prose = explain or (parameter.en if lang == "en" else parameter.fr)
            out.append(f"- **[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))})**: {value}. "
                       f"{md(prose)}")
        out.append("")
    out += ruleset_fixtures(data, lang, path, ruleset)
    return "\n".join(out) + "\n"


def ruleset_fixtures(data: SiteData, lang: str, path: str, ruleset: Ruleset) -> list[str]:
    hand = [f for f in data.hand if data.branches[f.id][ruleset.id] is not None]
    engine = [f for f in data.engine if data.branches[f.id][ruleset.id] is not None]
    out = [f"## {t(lang, 'applicable')} ({len(hand)})", "",
           t(lang, "applicable_text", hand=len(hand), engine=f"[{len(engine)}]({rel(path, f'{lang}/regression.md')})"),
           ""]
    by_kind: dict[str, list[Fixture]] = {}
    for fixture in hand:
        by_kind.setdefault(fixture.kind, []).append(fixture)
    for kind, fixtures in by_kind.items():
        label = KINDS.get(kind, (kind, kind))[LANGUAGES.index(lang)]
        out += [f"### {md(label[0].upper() + label[1:])} ({len(fixtures)})", ""]
        for fixture in fixtures:
            out.append(f"- [{md(fixture.data['title'])}]({rel(path, fixture_page(lang, fixture))})")
        out.append("")
    return out


def rulesets_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/rulesets.md"
    intro = t(lang, "rulesets_intro", house=t(lang, "house_rules"),
              house_link=rel(path, "house-rules.md" if lang == "en" else f"{lang}/house-rules.md"))
    if "house-rules.md" not in data.hand_pages:
        intro = intro.split(" (")[0] + "."
    out = [f"# {t(lang, 'rulesets')}", "", _lang_switch(path, lang), intro, "",
           f"| {t(lang, 'title_col')} | {t(lang, 'id')} | {t(lang, 'changes_col')} |", "|---|---|---|"]
    for ruleset in data.rulesets:
        changes = data.changes(ruleset)
        listed = ", ".join(f"[{code(pid)}]({rel(path, param_page(data, lang, pid))})" for pid in changes) or "—"
        out.append(f"| [{md(ruleset_title(ruleset, lang))}]({rel(path, f'{lang}/rulesets/{ruleset.id}.md')}) | "
                   f"{code(ruleset.id)} | {len(changes)}{t(lang, 'colon')}{listed} |")
    return "\n".join(out) + "\n"


def _compare_table(data: SiteData, lang: str, path: str, parameters: Sequence[Parameter]) -> list[str]:
    head = "| " + t(lang, "parameter") + " | " + " | ".join(
        f"[{r.id}]({rel(path, f'{lang}/rulesets/{r.id}.md')})" for r in data.rulesets) + " |"
    out = ['<div class="bt-compare" markdown>', "", head, "|---" * (len(data.rulesets) + 1) + "|"]
    for parameter in parameters:
        pid = parameter.id
        cells = []
        for ruleset in data.rulesets:
            value = md(label_of(ruleset[pid], parameter, lang))
            explain = parameter.explain_of(ruleset[pid], lang)
            if explain:
                value = f'<span title="{html.escape(explain)}">{value}</span>'
            if not _same(ruleset[pid], data.classic[pid]):
                cells.append(f'<span class="bt-changed">{value}</span>')
            else:
                cells.append(f'<span class="bt-same">{value}</span>')
        link = (f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))})"
                f'<br><small class="bt-pid">{md(pid)}</small>')
        out.append(f"| {link} | " + " | ".join(cells) + " |")
    out += ["", "</div>", ""]
    return out


def compare_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/compare.md"
    out = ["---", "hide: [navigation, toc]", "---", "", f"# {t(lang, 'compare')}", "", _lang_switch(path, lang),
           t(lang, "compare_intro"), ""]
    differing = [p for p in data.registry.parameters.values()
                 if any(not _same(r[p.id], data.classic[p.id]) for r in data.rulesets)]
    out += [f"## {t(lang, 'differ_title')}", "", t(lang, "differ_text"), ""]
    out += _compare_table(data, lang, path, differing)
    out += [f"## {t(lang, 'all_title')}", ""]
    for slug, _, _, _ in data.topics:
        out += [f"### {md(_topic_title(data, slug, lang))}", ""]
        out += _compare_table(data, lang, path, data.parameters_of(slug))
    return "\n".join(out) + "\n"


def examples_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/examples.md"
    out = [f"# {t(lang, 'examples')}", "", _lang_switch(path, lang), t(lang, "examples_intro"), ""]
    placed: set[str] = set()
    for slug, _, _, _ in data.topics:
        sections = []
        for parameter in data.parameters_of(slug):
            fixtures = data.fixtures_of(parameter.id)
            if not fixtures:
                continue
            placed.update(f.id for f in fixtures)
            sections += [f"### [{md(title_of(parameter.id, lang))}]({rel(path, param_page(data, lang, parameter.id))})",
                         ""]
            sections += [_example_item(lang, path, f) for f in fixtures] + [""]
        if sections:
            out += [f"## {md(_topic_title(data, slug, lang))}", ""] + sections
    rest = [f for f in data.hand if f.id not in placed]
    if rest:
        out += [f"## {t(lang, 'other_examples')}", ""] + [_example_item(lang, path, f) for f in rest] + [""]
    out += [f"## {t(lang, 'regression')}", "", f"[{t(lang, 'regression')} ({len(data.engine)})]"
            f"({rel(path, f'{lang}/regression.md')})", ""]
    return "\n".join(out) + "\n"


def _adapter_readme(report: Report) -> str | None:
    """The README of the report's adapter in the checkout (it explains every failure), found from the command."""
    match = re.search(r"conformance/adapters/([A-Za-z0-9_.-]+)/", str(report.header.get("command") or ""))
    if match and report.root is not None and \
            (report.root / "conformance" / "adapters" / match.group(1) / "README.md").is_file():
        return f"conformance/adapters/{match.group(1)}/README.md"
    return None


def _outcome_counts(cases: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(OUTCOMES, 0)
    for case in cases:
        counts[case["outcome"]] += 1
    return counts


def _passed_sent(counts: Mapping[str, int]) -> tuple[int, int]:
    """Cases passed (an expected failure counts as passed, as in the text report) and cases sent (all but n/a)."""
    return counts["pass"] + counts["xfail"], sum(n for outcome, n in counts.items() if outcome != "n/a")


def _matrix_cell(cases: Sequence[Mapping[str, Any]]) -> str:
    """One kind x ruleset cell: passed / sent, then the other outcomes; highlighted when something failed."""
    if not cases:
        return '<span class="bt-cell bt-empty-cell">—</span>'
    counts = _outcome_counts(cases)
    passed, sent = _passed_sent(counts)
    bad = sum(counts[o] for o in BAD_OUTCOMES)
    state = "bt-fail" if bad else "bt-pass" if sent and passed == sent else "bt-partial" if sent else "bt-none-sent"
    extra = " · ".join(f"{outcome} {counts[outcome]}" for outcome in OUTCOMES
                       if outcome not in ("pass", "xfail") and counts[outcome])
    main = f"<b>{passed}/{sent}</b>" if sent else "<b>—</b>"
    return f'<span class="bt-cell {state}">{main}' + (f"<br><small>{extra}</small>" if extra else "") + "</span>"


def _kind_label(kind: str, lang: str) -> str:
    label = KINDS.get(kind, (kind, kind))[LANGUAGES.index(lang)]
    return md(label[0].upper() + label[1:])


def _ruleset_link(data: SiteData, lang: str, path: str, ruleset_id: str) -> str:
    if any(r.id == ruleset_id for r in data.rulesets):
        return f"[{md(ruleset_id)}]({rel(path, f'{lang}/rulesets/{ruleset_id}.md')})"
    return code(ruleset_id)


def _rule_links(data: SiteData, lang: str, path: str, rules: Iterable[str]) -> str:
    links = [f"[{code(pid)}]({rel(path, param_page(data, lang, pid))})" if pid in data.registry.parameters
             else code(pid) for pid in rules]
    return ", ".join(links) or "—"


def _report_matrix(data: SiteData, lang: str, path: str, report: Report) -> list[str]:
    shipped = [r.id for r in data.rulesets]
    seen = list(dict.fromkeys(case["ruleset"] for case in report.cases))
    ordered = [r for r in shipped if r in seen] + [r for r in seen if r not in shipped]
    sent = {case["ruleset"] for case in report.cases if case["outcome"] != "n/a"}
    # the rulesets the implementation was actually run under first, those it supports none of after
    rulesets = [r for r in ordered if r in sent] + [r for r in ordered if r not in sent]
    kinds = list(dict.fromkeys(case["kind"] for case in report.cases))
    kinds = [k for k in KINDS if k in kinds] + [k for k in kinds if k not in KINDS]
    cells: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for case in report.cases:
        cells.setdefault((case["kind"], case["ruleset"]), []).append(case)
    out = ['<div class="bt-compare bt-matrix" markdown>', "",
           f"| {t(lang, 'kind')} | " + " | ".join(_ruleset_link(data, lang, path, r) for r in rulesets) + " |",
           "|---" * (len(rulesets) + 1) + "|"]
    for kind in kinds:
        out.append(f"| {_kind_label(kind, lang)}<br><small class=\"bt-pid\">{md(kind)}</small> | "
                   + " | ".join(_matrix_cell(cells.get((kind, r), [])) for r in rulesets) + " |")
    out.append(f"| **{t(lang, 'all_kinds')}** | "
               + " | ".join(_matrix_cell([c for c in report.cases if c["ruleset"] == r]) for r in rulesets) + " |")
    out += ["", "</div>", ""]
    own = [r for r in rulesets if r not in shipped]
    if own:
        out += [f"{lbl(lang, 'adapter_rulesets')}{', '.join(code(r) for r in own)}.", ""]
    return out


def _report_failures(data: SiteData, lang: str, path: str, report: Report) -> list[str]:
    failing = report.failing
    out = [f"### {t(lang, 'failing')} ({len(failing)})", ""]
    if not failing:
        return out + [t(lang, "no_failing"), ""]
    fixtures = {f.id: f for f in data.fixtures}
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for case in failing:
        # A derived case (suits renamed, seats rotated, a generated branch) fails with its fixture.
        grouped.setdefault(case["id"].split("@", 1)[0].split("#", 1)[0], []).append(case)
    out += [f"| {t(lang, 'fixture')} | {t(lang, 'kind')} | {t(lang, 'failing_under')} | {t(lang, 'rules')} |",
            "|---|---|---|---|"]
    for fixture_id, cases in grouped.items():
        fixture = fixtures.get(fixture_id)
        if fixture is not None:
            cell = (f'<span id="{html.escape(report.anchor + "--" + fixture_id)}"></span>'
                    f"[{code(fixture_id)}]({rel(path, fixture_page(lang, fixture))})"
                    f"<br><small>{md(fixture.data.get('title', ''))}</small>")
            rules: Iterable[str] = fixture.rules
        else:
            cell = f"{code(fixture_id)}<br><small>{t(lang, 'not_in_corpus')}</small>"
            rules = dict.fromkeys(r for case in cases for r in case.get("rules") or ())
        outcomes: dict[str, list[str]] = {}
        for case in cases:
            outcomes.setdefault(case["ruleset"], []).append(case["outcome"])
        under = ", ".join(f"{_ruleset_link(data, lang, path, ruleset)} "
                          f"({code(', '.join(dict.fromkeys(found)))}{' x' + str(len(found)) if len(found) > 1 else ''})"
                          for ruleset, found in outcomes.items())
        kind = _kind_label(cases[0]["kind"], lang)
        out.append(f"| {cell} | {kind} | {under} | {_rule_links(data, lang, path, rules)} |")
    return out + [""]


def implementations_page(data: SiteData, lang: str) -> str:
    """The implementations checked against the suite, from the committed conformance reports."""
    path = f"{lang}/implementations.md"
    out = ["---", "hide: [navigation]", "---", "", f"# {t(lang, 'impl_title')}", "", _lang_switch(path, lang),
           t(lang, "impl_intro"), ""]
    if not data.reports:
        out += [f'!!! info "{t(lang, "implementations")}"', "", f"    {t(lang, 'impl_none')}", ""]
        if "protocol.md" in data.hand_pages:
            target = "protocol.md" if lang == "en" else f"{lang}/protocol.md"
            out += [t(lang, "impl_none_how", protocol=t(lang, "protocol"), link=rel(path, target)), ""]
        return "\n".join(out) + "\n"
    head = (f"| {t(lang, 'implementation')} | {t(lang, 'version')} | {t(lang, 'language')} | "
            f"{t(lang, 'passed_sent')} | `fail` | `skip` | `n/a` | {t(lang, 'result')} |")
    out += [f"## {t(lang, 'summary')}", "", head, "|---|---|---|---|---|---|---|---|"]
    for report in data.reports:
        counts = _outcome_counts(report.cases)
        passed, sent = _passed_sent(counts)
        bad = len(report.failing)
        result = (f'<span class="bt-cell bt-fail">{t(lang, "result_bad", n=bad)}</span>' if bad
                  else f'<span class="bt-cell bt-pass">{t(lang, "result_ok")}</span>')
        language = report.adapter.get("language")
        out.append(f"| [{md(report.name)}](#{report.anchor}) | {code(report.version) if report.version else '—'} | "
                   f"{md(language) if language else '—'} | {passed}/{sent} | {bad} | {counts['skip']} | "
                   f"{counts['n/a']} | {result} |")
    out.append("")
    for report in data.reports:
        title = f"{report.name} {report.version}".strip()
        out += [f"## {md(title)} {{#{report.anchor}}}", ""]
        facts = []
        if report.adapter.get("language"):
            facts.append(f"{lbl(lang, 'language')}{md(report.adapter['language'])}")
        suite = report.header.get("suite")
        if suite:
            facts.append(f"{lbl(lang, 'suite')}belote-ref {code(suite)}")
        started = str(report.header.get("started") or "")
        if started:
            facts.append(f"{lbl(lang, 'run_on')}{md(started[:10])}")
        facts.append(f"{lbl(lang, 'report_file')}{code(report.shown_path)}")
        readme = _adapter_readme(report)
        if readme and report.failing:
            facts.append(f"{t(lang, 'explained')} {code(readme)}")
        out += [f"- {fact}" for fact in facts] + [""]
        out += [f"### {t(lang, 'matrix')}", ""] + _report_matrix(data, lang, path, report)
        out += _report_failures(data, lang, path, report)
    return "\n".join(out) + "\n"


def _example_item(lang: str, path: str, fixture: Fixture) -> str:
    kind = KINDS.get(fixture.kind, (fixture.kind, fixture.kind))[LANGUAGES.index(lang)]
    return f"- [{md(fixture.data['title'])}]({rel(path, fixture_page(lang, fixture))}) · *{md(kind)}*"


def regression_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/regression.md"
    out = [f"# {t(lang, 'regression')}", "", _lang_switch(path, lang), t(lang, "regression_intro"), "",
           f"| {t(lang, 'id')} | {t(lang, 'example')} | {t(lang, 'kind')} | {t(lang, 'rulesets_here')} |",
           "|---|---|---|---|"]
    for fixture in data.engine:
        applies = [r.id for r in data.rulesets if data.branches[fixture.id][r.id] is not None]
        rulesets = ", ".join(f"[{rid}]({rel(path, f'{lang}/rulesets/{rid}.md')})" for rid in applies) or \
            t(lang, "no_shipped")
        out.append(f'| <span id="{html.escape(fixture.id)}"></span>{code(fixture.id)} | {md(fixture.data["title"])} | '
                   f"{code(fixture.kind)} | {rulesets} |")
    return "\n".join(out) + "\n"


def sources_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/sources.md"
    out = [f"# {t(lang, 'sources')}", "", _lang_switch(path, lang), t(lang, "sources_intro"), ""]
    cited: dict[str, list[tuple[str, Any]]] = {}
    for parameter in data.registry.parameters.values():
        for value, sources in zip(parameter.values, parameter.sources, strict=True):
            for source in sources:
                cited.setdefault(source, []).append((parameter.id, value))
    for source_id, info in data.registry.sources.items():
        out += [f"## {md(source_id)} {{#{source_id}}}", "", f"**{md(info.get('title', source_id))}**", ""]
        if info.get("url"):
            out += [f"<{info['url']}>", ""]
        if info.get("file"):
            out += [f"{lbl(lang, 'file')}{code(info['file'])}", ""]
        uses = cited.get(source_id, [])
        if uses:
            items = ", ".join(
                f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))}): "
                f"{label_md(value, data.registry[pid], lang)}" for pid, value in uses)
            out += [f"{lbl(lang, 'cited_for')}{items}", ""]
    return "\n".join(out) + "\n"


def _predicate_md(data: SiteData, lang: str, path: str, predicate: Mapping[str, Any]) -> str:
    parts = []
    for pid, wanted in predicate.items():
        parameter = data.registry.parameters.get(pid)
        name = f"[{code(pid)}]({rel(path, param_page(data, lang, pid))})" if parameter else code(pid)
        if isinstance(wanted, Mapping) and "one_of" in wanted:
            shown = " | ".join(format_value(v, parameter, lang) for v in wanted["one_of"])
            value = code(shown) if lang == "en" else code(shown)
            parts.append(f"{name} ∈ {value}")
        else:
            parts.append(f"{name} = {value_md(wanted, parameter, lang)}")
    return ", ".join(parts)


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    return "`" * (longest + 1)


def fixture_md(data: SiteData, lang: str, fixture: Fixture) -> str:
    """The worked-example page of one hand fixture."""
    path = fixture_page(lang, fixture)
    fx = fixture.data
    out = ["---", "hide: [navigation]", "---", "", f"# {md(fx['title'])}", "", _lang_switch(path, lang)]
    rules = [pid for pid in fixture.rules]
    rule_links = []
    for pid in rules:
        if pid in data.registry.parameters:
            rule_links.append(f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))}) ({code(pid)})")
        else:
            rule_links.append(code(pid))
    kind = KINDS.get(fixture.kind, (fixture.kind, fixture.kind))[LANGUAGES.index(lang)]
    facts = [f"{lbl(lang, 'id')}{code(fixture.id)}", f"{lbl(lang, 'kind')}{md(kind)} ({code(fixture.kind)})"]
    if rule_links:
        facts.append(lbl(lang, 'rules' if len(rule_links) > 1 else 'rule') + ", ".join(rule_links))
    facts.append(f"{lbl(lang, 'provenance')}{t(lang, 'provenance_hand')}")
    if not fixture.normative:
        facts.append(f"**{t(lang, 'normative_no')}**")
    if fx.get("applies_to"):
        facts.append(f"{lbl(lang, 'applies_only')}{_predicate_md(data, lang, path, fx['applies_to'])}")
    out += [f"- {fact}" for fact in facts] + [""]

    out += ['<div class="bt-example" markdown>', "", '<div class="bt-left" markdown>', "",
            f"### {t(lang, 'situation')}", "", diagram(fixture, lang), "", "</div>", "",
            '<div class="bt-right" markdown>', "", f"### {t(lang, 'answers')}", ""]
    branches = data.branches[fixture.id]
    for index, branch in enumerate(fx["expect"]):
        when = branch.get("when") or {}
        heading = (f"**{t(lang, 'when')}** {_predicate_md(data, lang, path, when)}" if when
                   else f"**{t(lang, 'always')}**")
        chosen = [r for r in data.rulesets if branches.get(r.id) == index]
        rulesets = ", ".join(f"[{r.id}]({rel(path, f'{lang}/rulesets/{r.id}.md')})" for r in chosen) or \
            f"*{t(lang, 'no_shipped')}*"
        out += ['<div class="bt-branch" markdown>', "", heading, "", result_html(fixture, branch.get("result"), lang),
                "", f"{lbl(lang, 'rulesets_here')}{rulesets}", "", "</div>", ""]
    missing = [r for r in data.rulesets if branches.get(r.id) is None]
    if missing:
        out += [f"{lbl(lang, 'not_applicable')}"
                + ", ".join(f"[{r.id}]({rel(path, f'{lang}/rulesets/{r.id}.md')})" for r in missing), ""]
    out += ["</div>", "", "</div>", ""]

    if fx.get("note"):
        out += [f"## {t(lang, 'note')}", "", md_with_cards(fx["note"]), ""]
    source = fx.get("source") or {}
    if source:
        out += [f"## {t(lang, 'source')}", ""]
        if source.get("quote"):
            out += ["> " + md(source["quote"]), ""]
        out += [f"— {_doc_md(data, lang, path, str(source.get('doc', '')))}", ""]
    text = json.dumps(fx, ensure_ascii=False, indent=2, default=str)
    fence = _fence(text)
    out += [f'??? note "{t(lang, "raw")}"', "", f"    {fence}text"]
    out += [f"    {line}" if line else "" for line in text.splitlines()]
    out += [f"    {fence}", ""]
    return "\n".join(out) + "\n"


def _doc_md(data: SiteData, lang: str, path: str, doc: str) -> str:
    """A fixture's ``source.doc``, with the registry's source ids in it linked to the sources page."""
    linked = [sid for sid, info in data.registry.sources.items() if info.get("file") == doc]
    linked += [sid for sid in data.registry.sources if sid not in linked
               and re.search(rf"(?<![\w-]){re.escape(sid)}(?![\w-])", doc)]
    text = code(doc) if re.fullmatch(r"[\w.-]+\.\w+", doc) else md(doc)
    if linked:
        text += " (" + _source_links(path, lang, linked, data) + ")"
    return text


# ------------------------------------------------------------------------------- build and serve


def find_config(config_file: str | os.PathLike[str] | None = None) -> Path:
    """The site's ``mkdocs.yml``: the one given, else the checkout's (beside the package), else the current folder's.

    ``mkdocs.yml`` and ``docs/`` live in the repository, not in the wheel: build from a checkout.
    """
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise BeloteRefError(f"{path}: no such MkDocs configuration file", code="io")
        return path.resolve()
    for candidate in (Path(__file__).resolve().parent.parent / "mkdocs.yml", Path.cwd() / "mkdocs.yml"):
        if candidate.is_file():
            return candidate
    raise BeloteRefError("mkdocs.yml not found: run from the belote-ref repository (mkdocs.yml and docs/ are "
                         "not part of the installed package) or pass --config", code="io")


def write_tree(tree: Path, docs_dir: Path, data: SiteData | None = None) -> Site:
    """Copy the hand-written ``docs_dir`` into ``tree`` and add the generated pages; returns them."""
    shutil.copytree(docs_dir, tree, dirs_exist_ok=True)
    hand_pages = [p.relative_to(tree).as_posix() for p in tree.rglob("*.md")]
    site = generate_pages(data, hand_pages)
    clash = sorted(set(site.pages) & set(hand_pages))
    if clash:
        raise BeloteRefError(f"docs/ has hand-written pages where generated pages go: {', '.join(clash)}", code="docs")
    for relative, text in site.pages.items():
        target = tree / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return site


def _import_mkdocs() -> Any:
    try:
        from mkdocs.config import load_config
    except ImportError:
        raise BeloteRefError("MkDocs is not installed: pip install 'belote-ref[docs]' "
                             "(mkdocs and mkdocs-material)", code="docs") from None
    return load_config


@contextmanager
def _mkdocs_logging(verbose: bool) -> Iterator[None]:
    logger = logging.getLogger("mkdocs")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    handler.setLevel(logging.INFO if verbose else logging.WARNING)
    previous = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO if verbose else logging.WARNING)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)
        logger.propagate = True


@dataclass(frozen=True)
class BuildResult:
    """What a build produced."""

    site_dir: Path
    pages: int
    seconds: float


def build_site(out_dir: str | os.PathLike[str] = "site", *, config_file: str | os.PathLike[str] | None = None,
               strict: bool = True, verbose: bool = False) -> BuildResult:
    """Generate the pages and build the site into ``out_dir`` with MkDocs (strict by default).

    Raises :class:`~belote_ref.errors.BeloteRefError` (code ``docs``) when the build fails, for example
    on a broken link or anchor in strict mode.
    """
    load_config = _import_mkdocs()
    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    start = time.monotonic()
    config_path = find_config(config_file)
    out = Path(out_dir).resolve()
    with tempfile.TemporaryDirectory(prefix="belote-ref-docs-") as tmp, _mkdocs_logging(verbose):
        base = load_config(config_file=str(config_path))
        tree = Path(tmp) / "docs"
        site = write_tree(tree, Path(base.docs_dir), load_site_data(reports_dir=find_reports_dir(config_path)))
        config = load_config(config_file=str(config_path), docs_dir=str(tree), site_dir=str(out), nav=site.nav,
                             strict=strict)
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        except MkDocsException as error:
            raise BeloteRefError(f"the site did not build: {error}", code="docs") from None
        finally:
            config.plugins.on_shutdown()
    return BuildResult(out, len(site.pages), time.monotonic() - start)


def serve_site(*, config_file: str | os.PathLike[str] | None = None, dev_addr: str | None = None,
               strict: bool = True) -> None:
    """Generate the pages into a temporary tree and run ``mkdocs serve`` on it (until interrupted)."""
    load_config = _import_mkdocs()
    from mkdocs.commands.serve import serve

    config_path = find_config(config_file)
    with tempfile.TemporaryDirectory(prefix="belote-ref-docs-") as tmp, _mkdocs_logging(True):
        base = load_config(config_file=str(config_path))
        tree = Path(tmp) / "docs"
        site = write_tree(tree, Path(base.docs_dir), load_site_data(reports_dir=find_reports_dir(config_path)))
        serve(config_file=str(config_path), docs_dir=str(tree), nav=site.nav, strict=strict, dev_addr=dev_addr)
