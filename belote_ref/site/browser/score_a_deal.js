// "Score a deal": runs the reference engine (belote_ref, under Pyodide) in the reader's browser and shows
// its score sheet. Everything it loads comes from the site's engine/ folder, beside this file: nothing is
// fetched from elsewhere. The page holds the words and the rules' addresses (#bt-sad-config).
// Loading follows may-i-play.js; every text the reader typed is shown as text (textContent), never as HTML.
const config = JSON.parse(document.getElementById("bt-sad-config").textContent);
const words = config.words;
const form = document.getElementById("bt-sad");
const statusLine = document.getElementById("bt-sad-status");
const answerBox = document.getElementById("bt-sad-answer");
const submit = document.getElementById("bt-sad-submit");
const houseBox = document.getElementById("bt-sad-house-box");
const fields = ["ruleset", "dealer", "taker", "trump", "bid", "multiplier", "mode", "tricks", "ns_won", "ew_won",
                "last", "belote", "announcements", "pot"];
const engineFolder = new URL("./", import.meta.url);
const opened = performance.now();

function say(text) { statusLine.textContent = text; }

function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

// A house rule travels in the address as #house=<base64url of its UTF-8 YAML, no padding>.
function decodeHouse(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - base64.length % 4) % 4));
  return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, c => c.charCodeAt(0)));
}

function encodeHouse(text) {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

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
  const house = new URLSearchParams(location.hash.slice(1)).get("house");
  let houseError = null;
  if (house) {
    try {
      form.elements.house.value = decodeHouse(house);
      houseBox.open = true;
    } catch (error) {
      houseError = `${words.bad_house}${words.colon}${error.message || error}`;
    }
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
  const hash = house ? `#house=${encodeHouse(form.elements.house.value)}` : "";
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
  if (window.beloteRef.firstAnswerMs === undefined) window.beloteRef.firstAnswerMs = performance.now() - opened;
}

async function start(addressed) {
  window.beloteRef = { openedMs: opened };
  say(words.loading.replace("{megabytes}", config.megabytes));
  if (typeof WebAssembly !== "object") throw new Error("WebAssembly is not available");
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", engineFolder).href);
  say(words.loading_python);
  const python = await loadPyodide({ indexURL: new URL("pyodide/", engineFolder).href });
  say(words.loading_engine);
  const response = await fetch(new URL("site-packages.zip", engineFolder));
  if (!response.ok) throw new Error(`site-packages.zip: HTTP ${response.status}`);
  python.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/lib/belote-ref" });
  python.runPython("import sys; sys.path.insert(0, '/lib/belote-ref')");
  const page = python.pyimport("belote_ref.site.score_a_deal");
  const dumps = python.pyimport("json").dumps;
  // The shipped rulesets are read and checked on first use: done now, while the reader waits anyway.
  page.ruleset_choices();
  python.runPython("from belote_ref.rules.ruleset import find_ruleset; find_ruleset('classic')");
  window.beloteRef.readyMs = performance.now() - opened;

  // What the ruleset asks: the bid and coinche in the bidding family, the litige pot elsewhere.
  const adapt = () => {
    const needs = JSON.parse(dumps(page.ruleset_needs(form.elements.ruleset.value, form.elements.house.value)));
    if (needs.error) return;
    document.getElementById("bt-sad-bids").hidden = !needs.bids;
    document.getElementById("bt-sad-pot-box").hidden = needs.bids;
    form.elements.ruleset.disabled = Boolean(form.elements.house.value.trim());
  };
  const ask = () => {
    say(words.thinking);
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
    say(words.ready);
  };
  form.addEventListener("submit", event => { event.preventDefault(); ask(); });
  form.elements.ruleset.addEventListener("change", adapt);
  form.elements.house.addEventListener("change", adapt);
  adapt();
  submit.disabled = false;
  say(words.ready);
  if (addressed.houseError) showError(addressed.houseError);
  else if (addressed.asked) ask();
}

form.hidden = false;
for (const radio of form.querySelectorAll('input[name="mode"]')) radio.addEventListener("change", showMode);
start(readAddress()).catch(error => {
  say(words.failed.replace("{reason}", String(error && error.message || error)));
  statusLine.dataset.state = "failed";
  submit.disabled = true;
});
