// Loads the reference engine (belote_ref, under Pyodide) in the reader's browser, for every
// interactive page. Everything comes from the site's engine/ folder, beside this file: nothing is
// fetched from elsewhere. Each page gives its status line and its words (from the locale files):
// loading, loading_python, loading_engine, ready and failed.
const engineFolder = new URL("./", import.meta.url);

// The times are read by the browser test and the benchmark (benchmarks/browser_pages.py): counted
// from the start of the page's navigation, which is what the reader waits for.
window.beloteRef = window.beloteRef || {};

/** Puts `text` in the status line, as text (never as HTML). */
export function say(statusLine, text) { statusLine.textContent = text; }

/** Records the first answer the page shows (for the tests and the benchmark). */
export function markAnswered() {
  if (window.beloteRef.firstAnswerMs === undefined) window.beloteRef.firstAnswerMs = performance.now();
}

/**
 * Loads Python and belote_ref, showing each step in `statusLine`; resolves to Pyodide's interface
 * with the package importable. `megabytes`: what the first visit downloads, said while it does.
 * Rejects with an Error whose message says why the browser cannot run it.
 */
export async function loadEngine({ statusLine, words, megabytes }) {
  say(statusLine, words.loading.replace("{megabytes}", megabytes));
  if (typeof WebAssembly !== "object") throw new Error("WebAssembly is not available");
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", engineFolder).href);
  say(statusLine, words.loading_python);
  const python = await loadPyodide({ indexURL: new URL("pyodide/", engineFolder).href });
  say(statusLine, words.loading_engine);
  const response = await fetch(new URL("site-packages.zip", engineFolder));
  if (!response.ok) throw new Error(`site-packages.zip: HTTP ${response.status}`);
  python.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/lib/belote-ref" });
  python.runPython("import sys; sys.path.insert(0, '/lib/belote-ref')");
  return python;
}

/** Marks the engine ready (for the tests and the benchmark) and says so. */
export function markReady(statusLine, words) {
  window.beloteRef.readyMs = performance.now();
  say(statusLine, words.ready);
}

/** Says in the status line why the engine cannot run here, and disables `controls`. */
export function showFailure(statusLine, words, error, controls = []) {
  say(statusLine, words.failed.replace("{reason}", String((error && error.message) || error)));
  statusLine.dataset.state = "failed";
  for (const control of controls) control.disabled = true;
}

/**
 * Calls `compute` (a Python function returning JSON-able data) and returns its result as plain
 * JavaScript data; an exception from Python becomes `{error: its last line}`.
 */
export function callEngine(python, compute, ...args) {
  const dumps = python.pyimport("json").dumps;
  try {
    return JSON.parse(dumps(compute(...args)));
  } catch (error) {
    return { error: String((error && error.message) || error).trim().split("\n").pop() };
  }
}
