// "Check my house rules": the reference engine (belote_ref, under Pyodide, engine-loader.js) reads a
// house rule in the reader's browser and lists its errors or what it changes. The page holds the
// words, the rules' addresses and the pages that open under a house rule (#bt-chr-config). The
// reader's text is only ever written with textContent, never as HTML.
import { callEngine, loadEngine, markAnswered, markReady, say, showFailure } from "./engine-loader.js";
import { houseFragment, houseFromHash } from "./house-link.js";
import { element } from "./page-element.js";

const config = JSON.parse(document.getElementById("bt-chr-config").textContent);
const words = config.words;
const form = document.getElementById("bt-chr");
const textBox = document.getElementById("bt-chr-text");
const fileInput = document.getElementById("bt-chr-file");
const statusLine = document.getElementById("bt-chr-status");
const answerBox = document.getElementById("bt-chr-answer");
const submit = document.getElementById("bt-chr-submit");

// A phrase of the locale with its {name} fields filled in, as text.
function fill(phrase, values) {
  return phrase.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function showErrors(errors) {
  answerBox.replaceChildren(
    element("p", { class: "bt-chr-error", role: "alert" }, element("strong", {}, words.errors)),
    element("ul", { class: "bt-chr-errors" }, ...errors.map(line => element("li", {}, element("code", {}, line)))));
  answerBox.dataset.state = "error";
}

function showChanges(result) {
  const changes = result.changes[config.lang];
  const parent = result.parent;
  const out = [element("p", { class: "bt-chr-valid" },
                       fill(words.valid, { title: result.title[config.lang], id: result.id,
                                           version: result.version, parent }))];
  if (changes.length) {
    out.push(element("p", {}, element("strong", {}, `${fill(words.changes, { parent })}${words.colon.trimEnd()}`)));
    const list = element("ul", { class: "bt-chr-changes" });
    for (const change of changes) {
      const rule = config.rules[change.rule];
      const name = rule ? element("a", { href: rule.href }, change.title) : element("span", {}, change.title);
      const item = element("li", { "data-rule": change.rule }, name, words.colon,
                           element("span", { class: "bt-chr-was" }, change.parent_value), " → ",
                           element("strong", { class: "bt-chr-now" }, change.value));
      if (change.explain) item.append(". ", element("small", {}, change.explain));
      if (!change.in_play) item.append(" ", element("em", { class: "bt-chr-idle" }, `(${words.not_in_play})`));
      list.append(item);
    }
    out.push(list);
  } else {
    out.push(element("p", { class: "bt-chr-none" }, fill(words.changes_none, { parent })));
  }
  if (result.warnings.length) {
    out.push(element("p", {}, element("strong", {}, `${words.warnings}${words.colon.trimEnd()}`)),
             element("ul", { class: "bt-chr-warnings" },
                     ...result.warnings.map(line => element("li", {}, element("code", {}, line)))));
  }
  const names = Object.keys(result.links);
  if (names.length) {
    const links = element("p", { class: "bt-chr-open" }, `${words.open}${words.colon}`);
    names.forEach((name, i) => {
      if (i) links.append(" · ");
      links.append(element("a", { href: result.links[name], "data-page": name }, words.pages[name] || name));
    });
    out.push(links);
  }
  answerBox.replaceChildren(...out);
  answerBox.dataset.state = "answered";
}

function show(result) {
  if (result.errors) showErrors(result.errors);
  else if (result.error) showErrors([result.error]);
  else showChanges(result);
  markAnswered();
}

// A file is read only up to the cap and one byte more: the engine says it is too large from its size.
async function readFile(file) {
  if (file.size > config.max_bytes) return { tooLarge: file.size };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer()) };
  } catch {
    return { error: words.not_text };
  }
}

async function start() {
  const python = await loadEngine({ statusLine, words, megabytes: config.megabytes });
  const page = python.pyimport("belote_ref.site.check_house_rule");
  // The shipped rulesets and the schema are read on first use: done now, while the reader waits anyway.
  python.runPython("from belote_ref.rules.ruleset import find_ruleset; find_ruleset('classic')");
  const links = python.toPy(config.links);
  const check = text => {
    say(statusLine, words.thinking);
    const result = callEngine(python, page.check_house_rule, text, links);
    // The address keeps the rule, to send it to someone (the same #house= as the pages it opens).
    if (!result.errors && !result.error) history.replaceState(null, "", `${location.pathname}${location.search}#${houseFragment(text)}`);
    show(result);
    say(statusLine, words.ready);
  };
  form.addEventListener("submit", event => { event.preventDefault(); check(textBox.value); });
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files[0];
    if (!file) return;
    const read = await readFile(file);
    if (read.text !== undefined) {
      textBox.value = read.text;
      check(read.text);
    } else if (read.tooLarge !== undefined) {
      show(callEngine(python, page.file_too_large, read.tooLarge));
    } else {
      show({ errors: [read.error] });
    }
  });
  submit.disabled = false;
  markReady(statusLine, words);
  if (textBox.value.trim()) check(textBox.value);
}

form.hidden = false;
// A house rule in the address (#house=...) is put in the form and checked once the engine is ready.
try {
  const fromAddress = houseFromHash(location.hash);
  if (fromAddress !== null) textBox.value = fromAddress;
} catch {
  show({ errors: [words.bad_address] });
}
start().catch(error => showFailure(statusLine, words, error, [submit, fileInput]));
