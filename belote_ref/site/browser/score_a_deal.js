// "Score a deal": runs the reference engine (belote_ref, under Pyodide, loaded by engine-loader.js) in
// the reader's browser and shows its score sheet. The page holds the words and the rules' addresses
// (#bt-sad-config). Every text the reader typed is shown as text (textContent), never as HTML.
import { callEngine, loadEngine, markAnswered, markReady, say, showFailure } from "./engine-loader.js";
import { houseFragment, houseFromHash } from "./house-link.js";
import { element } from "./page-element.js";

const config = JSON.parse(document.getElementById("bt-sad-config").textContent);
const words = config.words;
const form = document.getElementById("bt-sad");
const statusLine = document.getElementById("bt-sad-status");
const answerBox = document.getElementById("bt-sad-answer");
const submit = document.getElementById("bt-sad-submit");
const houseBox = document.getElementById("bt-sad-house-box");
const fields = ["ruleset", "dealer", "taker", "trump", "bid", "multiplier", "mode", "tricks", "ns_won", "ew_won",
                "last", "belote", "announcements", "pot"];

// The deal lives in the page's address (?ruleset=classic&dealer=E&tricks=...), so that it can be sent to
// someone; a value that is not one of a select's options is left as the default.
function readAddress() {
  const query = new URLSearchParams(location.search);
  for (const name of fields) {
    const value = query.get(name);
    const input = form.elements[name];
    if (value === null) continue;
    if (input.tagName === "SELECT" && ![...input.options].some(o => o.value === value)) continue;
    if (name === "mode" && !["tricks", "piles"].includes(value)) continue;
    input.value = value;
  }
  let houseError = null;
  try {
    const house = houseFromHash(location.hash);
    if (house) {
      form.elements.house.value = house;
      houseBox.open = true;
    }
  } catch (error) {
    houseError = `${words.bad_house}${words.colon}${error.message || error}`;
  }
  showMode();
  return { asked: ["tricks", "ns_won", "ew_won"].some(name => query.get(name)), houseError };
}

function writeAddress() {
  const query = new URLSearchParams();
  for (const name of fields) {
    const value = form.elements[name].value.trim();
    if (value) query.set(name, value);
  }
  const house = form.elements.house.value.trim();
  const hash = house ? `#${houseFragment(form.elements.house.value)}` : "";
  history.replaceState(null, "", `${location.pathname}?${query}${hash}`);
}

function showMode() {
  const piles = form.elements.mode.value === "piles";
  document.getElementById("bt-sad-tricks-box").hidden = piles;
  document.getElementById("bt-sad-piles-box").hidden = !piles;
}

function ruleLink(rule) {
  const known = config.rules[rule];
  return known ? element("a", { href: known.href, "data-rule": rule }, known.title)
               : element("code", { "data-rule": rule }, rule);
}

function teamScores(scores, className) {
  const line = element("span", { class: className });
  ["NS", "EW"].forEach((team, i) => {
    if (i) line.append(", ");
    line.append(element("span", { "data-team": team, "data-points": String(scores[team]) },
                        `${config.teams[team]} ${scores[team]}`));
  });
  return line;
}

function showError(text) {
  answerBox.replaceChildren(element("p", { class: "bt-sad-error", role: "alert" }, `${words.error}${words.colon}`,
                                    element("code", {}, text)));
  answerBox.dataset.state = "error";
}

function show(result) {
  if (result.error) {
    showError(result.error);
  } else {
    answerBox.replaceChildren();
    const head = element("tr", {}, ...[words.side, words.points, words.rule, words.engine_says]
      .map(text => element("th", {}, text)));
    const rows = result.lines.map(line => element("tr", { "data-team": line.team, "data-rule": line.rule },
      element("td", {}, config.teams[line.team] || line.team),
      element("td", { class: "bt-sad-points" }, String(line.points)),
      element("td", {}, ruleLink(line.rule)),
      element("td", {}, element("small", {}, line.note))));
    answerBox.append(element("table", { class: "bt-sad-sheet" }, element("thead", {}, head),
                             element("tbody", {}, ...rows)));
    const contract = config.contracts[result.contract] || result.contract;
    answerBox.append(element("p", {}, element("strong", {}, `${words.contract}${words.colon}`),
                             element("span", { class: "bt-sad-contract", "data-contract": result.contract }, contract)));
    answerBox.append(element("p", {}, element("strong", {}, `${words.card_points}${words.colon}`),
                             teamScores(result.card_points, "bt-sad-card-points")));
    answerBox.append(element("p", {}, element("strong", {}, `${words.deal_score}${words.colon}`),
                             teamScores(result.deal_score, "bt-sad-deal-score")));
    if (result.pot) {
      answerBox.append(element("p", {}, element("strong", {}, `${words.pot_after}${words.colon}`),
                               element("span", { class: "bt-sad-pot" }, String(result.pot))));
    }
    answerBox.dataset.state = "answered";
  }
  markAnswered();
}

async function start(addressed) {
  const python = await loadEngine({ statusLine, words, megabytes: config.megabytes });
  const page = python.pyimport("belote_ref.site.score_a_deal");
  // The shipped rulesets are read and checked on first use: done now, while the reader waits anyway.
  page.ruleset_choices();
  python.runPython("from belote_ref.rules.ruleset import find_ruleset; find_ruleset('classic')");

  // What the ruleset asks: the bid and coinche in the bidding family, the litige pot elsewhere.
  const adapt = () => {
    const needs = callEngine(python, page.ruleset_needs, form.elements.ruleset.value, form.elements.house.value);
    if (needs.error) return;
    document.getElementById("bt-sad-bids").hidden = !needs.bids;
    document.getElementById("bt-sad-pot-box").hidden = needs.bids;
    form.elements.ruleset.disabled = Boolean(form.elements.house.value.trim());
  };
  const ask = () => {
    say(statusLine, words.thinking);
    writeAddress();
    const values = Object.fromEntries(fields.map(name => [name, form.elements[name].value]));
    values.house = form.elements.house.value;
    let result;
    try {
      result = JSON.parse(page.answer_json(JSON.stringify(values)));
    } catch (error) {
      result = { error: String(error.message || error).trim().split("\n").pop() };
    }
    show(result);
    say(statusLine, words.ready);
  };
  form.addEventListener("submit", event => { event.preventDefault(); ask(); });
  form.elements.ruleset.addEventListener("change", adapt);
  form.elements.house.addEventListener("change", adapt);
  adapt();
  submit.disabled = false;
  markReady(statusLine, words);
  if (addressed.houseError) showError(addressed.houseError);
  else if (addressed.asked) ask();
}

form.hidden = false;
for (const radio of form.querySelectorAll('input[name="mode"]')) radio.addEventListener("change", showMode);
start(readAddress()).catch(error => showFailure(statusLine, words, error, [submit]));
