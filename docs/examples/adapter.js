// A belote-ref protocol adapter (versions 1 and 2) in plain Node.js, with no dependencies.
// It answers trick_winner and legal_plays for any ruleset and any contract (a suit, SA or TA): card
// orders, card points, the six play.* obligations and the two tout_atout.* ones are read from the
// parameters of each run message, never from the ruleset id.
//   belote-ref conformance run --impl "node docs/examples/adapter.js"
"use strict";
const readline = require("readline");

const SEATS = "NESW";
const KINDS = ["trick_winner", "legal_plays"];
// The versions spoken here: 1, and 2 (sans-atout and tout-atout, whose parameters version 2 added).
const SPOKEN = [1, 2];
const SINCE_2 = ["sans_atout.", "tout_atout."];
let version = SPOKEN[SPOKEN.length - 1];                              // the one hello negotiated
const since = (id) => (SINCE_2.some((prefix) => id.startsWith(prefix)) ? 2 : 1);
// The values of the play parameters this adapter implements (here: every value of the registry).
const PLAY = {
  "play.partner_master_exception": [true, false],
  "play.trump_lead_overtrump": ["always", "except_partner_winning"],
  "play.undertrump_over_opponent": ["required", "optional"],
  "play.undertrump_partner": ["allowed", "only_if_hand_is_all_trumps", "only_if_forced", "unless_holding_higher"],
  "play.must_head_plain_suit": [false, true],
  "play.undertrump_partner_no_exception": ["same_as_opponent", "required", "optional"],
  "tout_atout.must_head": [true],
  "tout_atout.partner_relief": [false, true],
};
// Read from the message, so any allowed value will do.
const TABLES = ["cards.trump_order", "cards.plain_order", "cards.trump_points", "cards.plain_points",
  "sans_atout.card_order", "sans_atout.card_points", "tout_atout.card_order", "tout_atout.card_points"];
// No trick winner and no legal play depends on these: any allowed value will do.
const UNUSED = [
  "cards.sequence_order", "table.direction", "deal.shuffle", "deal.cut_min_pile", "deal.first_packets",
  "deal.completion_start", "bidding.round2_allow_turnup_suit", "bidding.all_pass", "bidding.contracts",
  "bidding.trump_seven_exchange", "bidding.turned_jack_forced", "belote.value", "belote.announcement",
  "belote.king_first", "belote.on_chute", "belote.on_capot_against_holder", "announcements.enabled",
  "announcements.values", "announcements.long_sequence", "announcements.carre_beats_equal_sequence",
  "announcements.final_tie", "announcements.carre_order", "announcements.card_reuse",
  "announcements.declare_at", "announcements.show", "announcements.carre_of_sevens",
  "scoring.last_trick_bonus", "scoring.capot.mode", "scoring.capot.last_trick_bonus", "scoring.capot.value",
  "scoring.capot.defenders_earn_bonus", "scoring.capot.loser_announcements", "scoring.contract.test",
  "scoring.contract.card_threshold", "scoring.contract.count_belote", "scoring.contract.count_announcements",
  "scoring.contract.on_tie", "scoring.litige.pot_to", "scoring.litige.belote", "scoring.litige.on_final_deal",
  "scoring.chute.base", "scoring.chute.announcements", "scoring.rounding.mode",
  "scoring.rounding.final_deal_exact", "game.end", "game.target_points", "game.deal_limit", "game.win_when",
  "game.simultaneous_finish", "game.exact_tie", "game.no_win_on_capot_with_belote", "game.count_passed_deals",
  "sans_atout.carres", "sans_atout.belote", "tout_atout.scale_to", "tout_atout.rounding", "tout_atout.belote",
  "tout_atout.carres", "deal.completion_packets", "announcements.declared",
];
// The contracts without a trump suit: sans-atout (none) and tout-atout (every suit), by their area.
const NO_TRUMP_SUIT = { SA: "sans_atout", TA: "tout_atout" };

// The highest version spoken here among those the runner offers (`protocols`, or `protocol` alone
// from a version-1 runner), with that version's parameters; an error line when none is in common.
function hello(message) {
  const offered = Array.isArray(message.protocols) ? message.protocols
    : "protocol" in message ? [message.protocol] : SPOKEN;
  const common = SPOKEN.filter((v) => offered.includes(v));
  if (!common.length) {
    return { errored: true, message: `no protocol version in common: the runner offers ${JSON.stringify(offered)}` };
  }
  version = Math.max(...common);
  const parameters = {};
  for (const [id, values] of Object.entries(PLAY)) if (since(id) <= version) parameters[id] = values;
  for (const id of TABLES.concat(UNUSED)) if (since(id) <= version) parameters[id] = "*";
  return {
    protocol: version,
    implementation: { name: "example-js", version: "1", language: "javascript" },
    supports: { kinds: KINDS, rulesets: [], parameters },
  };
}

// Strength of a card: every trump beats every plain card; within a suit, the ruleset's order.
// At SA and TA no card is a trump (no suit letter equals "SA" or "TA"): one order for every suit.
function strength(p, trump) {
  const area = NO_TRUMP_SUIT[trump];
  if (area) return (card) => 8 - p[`${area}.card_order`].indexOf(card[0]);
  return (card) => (card[1] === trump ? 16 - p["cards.trump_order"].indexOf(card[0])
                                       : 8 - p["cards.plain_order"].indexOf(card[0]));
}

// Card points of a card: one table for every suit at SA and TA (at TA the raw values).
function points(p, trump, card) {
  const area = NO_TRUMP_SUIT[trump];
  if (area) return p[`${area}.card_points`][card[0]];
  return p[card[1] === trump ? "cards.trump_points" : "cards.plain_points"][card[0]];
}

// Index of the card winning the trick so far: the best trump, else the best card of the led suit.
function winningIndex(cards, trump, rank) {
  let best = 0;
  for (let i = 1; i < cards.length; i++) {
    const counts = cards[i][1] === trump || cards[i][1] === cards[0][1];
    if (counts && rank(cards[i]) > rank(cards[best])) best = i;
  }
  return best;
}

function trickWinner(p, { trump, trick }) {
  if (trick.cards.length !== 4) throw new Error("trick_winner needs a trick of 4 cards");
  const best = winningIndex(trick.cards, trump, strength(p, trump));
  const total = trick.cards.reduce((sum, c) => sum + points(p, trump, c), 0);
  return { winner: SEATS[(SEATS.indexOf(trick.leader) + best) % 4], points: total };
}

function legalPlays(p, { trump, hand, trick }) {
  const cards = trick.cards;
  if (cards.length === 0) return { legal: hand };                     // leading: any card
  const rank = strength(p, trump);
  const w = winningIndex(cards, trump, rank), winner = cards[w];
  const partnerMaster = w === cards.length - 2;                        // partner played two cards ago
  const winnerIsTrump = winner[1] === trump;
  const led = cards[0][1];
  const same = hand.filter((c) => c[1] === led);
  const trumps = hand.filter((c) => c[1] === trump);
  const over = winnerIsTrump ? trumps.filter((c) => rank(c) > rank(winner)) : [];
  if (led === trump) {                                                 // trumps led
    if (trumps.length === 0) return { legal: hand };
    const free = p["play.trump_lead_overtrump"] === "except_partner_winning" && partnerMaster;
    return { legal: over.length && !free ? over : trumps };
  }
  if (same.length) {                                                   // follow the led suit
    if (trump === "TA") {                                              // tout-atout: go over if able
      const relieved = p["tout_atout.partner_relief"] && partnerMaster;
      const beat = same.filter((c) => rank(c) > rank(winner));
      return { legal: p["tout_atout.must_head"] && !relieved && beat.length ? beat : same };
    }
    if (p["play.must_head_plain_suit"] && !partnerMaster && !winnerIsTrump) {
      const beat = same.filter((c) => rank(c) > rank(winner));
      if (beat.length) return { legal: beat };
    }
    return { legal: same };
  }
  if (trumps.length === 0) return { legal: hand };                     // void in the suit and in trumps (SA, TA)
  if (partnerMaster && p["play.partner_master_exception"]) {          // partner master: free, but...
    const mode = p["play.undertrump_partner"];
    if (!winnerIsTrump || mode === "allowed") return { legal: hand };
    const others = hand.filter((c) => c[1] !== trump).concat(over);   // ...maybe no trump under his
    if (mode === "unless_holding_higher") return { legal: over.length ? others : hand };
    if (mode === "only_if_hand_is_all_trumps") return { legal: hand.length > trumps.length ? others : trumps };
    return { legal: others.length ? others : trumps };                  // only_if_forced
  }
  if (!winnerIsTrump) return { legal: trumps };                        // must trump
  if (over.length) return { legal: over };                             // must overtrump
  const own = p["play.undertrump_partner_no_exception"];                 // the partner's ruff, set apart?
  const rule = partnerMaster && own !== "same_as_opponent" ? own : p["play.undertrump_over_opponent"];
  return { legal: rule === "required" ? trumps : hand };
}

const HANDLERS = { trick_winner: trickWinner, legal_plays: legalPlays };

function run(message) {
  const p = message.ruleset.parameters;
  for (const [id, values] of Object.entries(PLAY)) {
    if (since(id) <= version && !values.includes(p[id])) return { skipped: true, reason: `${id} = ${JSON.stringify(p[id])}` };
  }
  const handler = HANDLERS[message.kind];
  if (!handler) return { skipped: true, reason: `kind ${message.kind} is not implemented` };
  return { result: handler(p, message.given) };
}

let stopped = false;
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (stopped || !line.trim()) return;
  let reply;
  try {
    const message = JSON.parse(line);
    if (message.cmd === "stop") {
      stopped = true;
      lines.close();
      process.stdin.destroy();                                         // exit 0 once output is flushed
      return;
    }
    reply = message.cmd === "hello" ? hello(message) : { seq: message.seq, ...run(message) };
  } catch (error) {
    console.error(error.stack);                                        // logs go to standard error
    let seq = null;
    try { seq = JSON.parse(line).seq; } catch (_) { /* not JSON: no seq to echo */ }
    reply = { seq, errored: true, message: String(error.message) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
