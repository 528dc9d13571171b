// "May I play this card?": runs the reference engine (belote_ref, under Pyodide) in the reader's
// browser (engine-loader.js). The page holds the words and the rules' addresses (#bt-mip-config).
import { callEngine, loadEngine, markAnswered, markReady, say, showFailure } from "./engine-loader.js";

const config = JSON.parse(document.getElementById("bt-mip-config").textContent);
const words = config.words;
const form = document.getElementById("bt-mip");
const statusLine = document.getElementById("bt-mip-status");
const answerBox = document.getElementById("bt-mip-answer");
const submit = document.getElementById("bt-mip-submit");
const fields = ["ruleset", "trump", "trick", "hand"];

function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

// The situation lives in the page's address (?ruleset=classic&trump=H&trick=8D+AD&hand=...), so that
// it can be sent to someone; a value that is not one of a select's options is left as the default.
function readAddress() {
  const query = new URLSearchParams(location.search);
  for (const name of fields) {
    const value = query.get(name);
    const input = form.elements[name];
    if (value === null) continue;
    if (input.tagName === "SELECT" && ![...input.options].some(o => o.value === value)) continue;
    input.value = value;
  }
  return query.has("hand");
}

function writeAddress() {
  const query = new URLSearchParams();
  for (const name of fields) query.set(name, form.elements[name].value.trim());
  history.replaceState(null, "", `${location.pathname}?${query}${location.hash}`);
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

async function start() {
  const python = await loadEngine({ statusLine, words, megabytes: config.megabytes });
  const page = python.pyimport("belote_ref.site.may_i_play");
  // The shipped rulesets are read and checked on first use: done now, while the reader waits anyway.
  page.ruleset_choices();
  python.runPython("from belote_ref.rules.ruleset import find_ruleset; find_ruleset('classic')");
  const ask = () => {
    say(statusLine, words.thinking);
    writeAddress();
    show(callEngine(python, page.answer, ...fields.map(name => form.elements[name].value)));
    say(statusLine, words.ready);
  };
  form.addEventListener("submit", event => { event.preventDefault(); ask(); });
  submit.disabled = false;
  markReady(statusLine, words);
  if (readAddress()) ask();
}

form.hidden = false;
readAddress();
start().catch(error => showFailure(statusLine, words, error, [submit]));
