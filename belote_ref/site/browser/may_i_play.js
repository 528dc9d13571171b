// "May I play this card?": runs the reference engine (belote_ref, under Pyodide) in the reader's
// browser (engine-loader.js). The page holds the words, the rules' addresses and each shipped
// ruleset's contracts (#bt-mip-config). A house rule may stand for the ruleset: pasted, chosen as a
// file, or carried by the address (#house=..., house-link.js). The reader's text is only ever
// written with textContent, never as HTML.
import { callEngine, loadEngine, markAnswered, markReady, say, showFailure } from "./engine-loader.js";
import { houseFragment, houseFromHash } from "./house-link.js";
import { element } from "./page-element.js";

const config = JSON.parse(document.getElementById("bt-mip-config").textContent);
const words = config.words;
const form = document.getElementById("bt-mip");
const statusLine = document.getElementById("bt-mip-status");
const answerBox = document.getElementById("bt-mip-answer");
const submit = document.getElementById("bt-mip-submit");
const rulesetSelect = document.getElementById("bt-mip-ruleset");
const trumpSelect = document.getElementById("bt-mip-trump");
const houseBox = document.getElementById("bt-mip-house-box");
const houseText = document.getElementById("bt-mip-house");
const houseFile = document.getElementById("bt-mip-house-file");
const houseUse = document.getElementById("bt-mip-house-use");
const houseOption = document.getElementById("bt-mip-house-option");
const houseStatus = document.getElementById("bt-mip-house-status");
const fields = ["ruleset", "trump", "trick", "hand"];
const HOUSE = houseOption.value;
// The house rule in use (its text, its title and contracts as the engine read them), or null.
let house = null;

// Only the chosen ruleset's contracts are offered (bidding.contracts); a trump it lacks is left.
function offerContracts() {
  const contracts = rulesetSelect.value === HOUSE ? (house ? house.contracts : []) : config.contracts[rulesetSelect.value];
  if (!contracts) return;
  for (const option of trumpSelect.options) {
    option.hidden = option.disabled = !contracts.includes(option.value);
  }
  if (!contracts.includes(trumpSelect.value)) trumpSelect.value = contracts[0];
}

// The situation lives in the page's address (?ruleset=classic&trump=H&trick=8D+AD&hand=...), so that
// it can be sent to someone; a value that is not one of a select's options is left as the default.
// A house rule travels in the fragment (#house=...), which the other interactive pages read too.
function readAddress() {
  const query = new URLSearchParams(location.search);
  for (const name of fields) {
    const value = query.get(name);
    const input = form.elements[name];
    if (value === null) continue;
    if (input.tagName === "SELECT" && ![...input.options].some(o => o.value === value && !o.disabled)) continue;
    input.value = value;
  }
  offerContracts();
  if (query.has("trump") && [...trumpSelect.options].some(o => o.value === query.get("trump") && !o.disabled)) {
    trumpSelect.value = query.get("trump");
  }
  showGrid();
  return query.has("hand");
}

function writeAddress() {
  const query = new URLSearchParams();
  for (const name of fields) query.set(name, form.elements[name].value.trim());
  const hash = house ? `#${houseFragment(house.text)}` : location.hash;
  history.replaceState(null, "", `${location.pathname}?${query}${hash}`);
}

// ---- The card grid: a click puts a card in the trick or the hand, or takes it out.
const tokenOf = text => text.toUpperCase().replace(/^10/, "T");
const cardsIn = name => form.elements[name].value.split(/[\s,]+/).filter(Boolean);

function showGrid() {
  const where = {};
  for (const name of ["trick", "hand"]) for (const card of cardsIn(name)) where[tokenOf(card)] = name;
  for (const button of form.querySelectorAll("button[data-card]")) {
    const place = where[button.dataset.card] || "";
    button.dataset.in = place;
    button.setAttribute("aria-pressed", place ? "true" : "false");
  }
}

function clickCard(card) {
  const target = form.elements.grid_target.value || "hand";
  const inTarget = cardsIn(target).some(c => tokenOf(c) === card);
  for (const name of ["trick", "hand"]) {
    form.elements[name].value = cardsIn(name).filter(c => tokenOf(c) !== card).join(" ");
  }
  if (!inTarget) form.elements[target].value = [...cardsIn(target), card].join(" ");
  showGrid();
}

function cardList(cards) {
  return cards.length ? cards.map(c => element("code", { "data-card": c }, c)) : [words.none];
}

function show(result) {
  answerBox.replaceChildren();
  if (result.error) {
    answerBox.append(element("p", { class: "bt-mip-error", role: "alert" }, `${words.error}${words.colon}`,
                             element("code", {}, result.error)));
  } else {
    const legal = element("p", { class: "bt-mip-legal" }, element("strong", {}, `${words.legal}${words.colon}`));
    cardList(result.legal).forEach((node, i) => legal.append(...(i ? [" ", node] : [node])));
    answerBox.append(legal);
    if (result.illegal.length) {
      answerBox.append(element("p", {}, element("strong", {}, `${words.illegal}${words.colon.trimEnd()}`)));
      const list = element("ul", { class: "bt-mip-illegal" });
      for (const item of result.illegal) {
        const rule = config.rules[item.rule] || { title: item.rule, href: null };
        const name = rule.href ? element("a", { href: rule.href, "data-rule": item.rule }, rule.title)
                               : element("span", { "data-rule": item.rule }, rule.title);
        list.append(element("li", { "data-card": item.card }, element("code", {}, item.card),
                            ` — ${words.forbidden_by} `, name, ". ",
                            element("small", {}, `${words.engine_says}${words.colon}`, element("code", {}, item.message))));
      }
      answerBox.append(list);
    }
  }
  answerBox.dataset.state = result.error ? "error" : "answered";
  markAnswered();
}

function houseMessage(text, failed) {
  houseStatus.textContent = text;
  houseStatus.dataset.state = failed ? "error" : "ready";
}

// A file is read only when it fits the cap, and only as UTF-8 text.
async function readHouseFile(file) {
  if (file.size > config.max_bytes) throw new Error(words.too_large.replace("{max}", config.max_bytes));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    throw new Error(words.not_text);
  }
}

async function start() {
  const python = await loadEngine({ statusLine, words, megabytes: config.megabytes });
  const page = python.pyimport("belote_ref.site.may_i_play");
  // The shipped rulesets are read and checked on first use: done now, while the reader waits anyway.
  page.ruleset_choices();
  python.runPython("from belote_ref.rules.ruleset import find_ruleset; find_ruleset('classic')");
  const useHouse = () => {
    const text = houseText.value;
    const facts = callEngine(python, page.house_choice, text);
    if (facts.error) {
      houseMessage(`${words.house_error}${words.colon}${facts.error}`, true);
      return false;
    }
    house = { text, contracts: facts.contracts, title: facts.title[config.lang] };
    houseOption.hidden = houseOption.disabled = false;
    houseOption.textContent = `${words.house}${words.colon}${house.title}`;
    rulesetSelect.value = HOUSE;
    offerContracts();
    houseMessage(words.house_in_use.replace("{title}", house.title), false);
    return true;
  };
  const ask = () => {
    say(statusLine, words.thinking);
    writeAddress();
    const values = fields.map(name => form.elements[name].value);
    show(callEngine(python, page.answer, ...values, house ? house.text : ""));
    say(statusLine, words.ready);
  };
  form.addEventListener("submit", event => { event.preventDefault(); ask(); });
  houseUse.addEventListener("click", () => { if (useHouse()) writeAddress(); });
  houseFile.addEventListener("change", async () => {
    const file = houseFile.files[0];
    if (!file) return;
    try {
      houseText.value = await readHouseFile(file);
    } catch (error) {
      houseMessage(`${words.house_error}${words.colon}${error.message}`, true);
      return;
    }
    if (useHouse()) writeAddress();
  });
  submit.disabled = houseUse.disabled = false;
  markReady(statusLine, words);
  // A house rule in the address stands for the ruleset unless the address names another one.
  const named = new URLSearchParams(location.search).get("ruleset");
  if (houseText.value.trim() && (!named || named === HOUSE) && !useHouse()) {
    show({ error: houseStatus.textContent });
    return;
  }
  if (readAddress()) ask();
}

form.hidden = false;
rulesetSelect.addEventListener("change", offerContracts);
for (const name of ["trick", "hand"]) form.elements[name].addEventListener("input", showGrid);
form.addEventListener("click", event => {
  const button = event.target.closest("button[data-card]");
  if (button) clickCard(button.dataset.card);
});
try {
  const fromAddress = houseFromHash(location.hash);
  if (fromAddress !== null) {
    houseText.value = fromAddress;
    houseBox.open = true;
  }
} catch {
  houseMessage(words.bad_address, true);
  houseBox.open = true;
}
readAddress();
start().catch(error => showFailure(statusLine, words, error, [submit, houseUse]));
