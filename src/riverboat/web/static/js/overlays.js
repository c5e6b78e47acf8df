// What opens over the table: the pay table and rules, the hint (a sheet above the
// action bar), the keys and the log-in dialog.
import { api } from "./api.js";
import { details } from "./advice.js";
import { $, $dialog, $input, escape, gameOf, info, money, say, state, tableKey } from "./state.js";
import { gamesLoaded, hintAsked, hintShown, tableGameLoaded } from "./actions.js";
import { tableTitle, tables } from "./controls.js";
import { EDGES, ROUND } from "./states.js";

/** @typedef {import("./state.js").GameInfo} GameInfo */
/** @typedef {import("../../typing/api").SchemaLineInfo} LineInfo */
/** @typedef {import("../../typing/api").SchemaPaySection} PaySection */
/** @typedef {import("../../typing/api").SchemaSpotInfo} SpotInfo */

// the pay table and rules of the table in play, in words: how to play, every betting
// circle with its pays and limits, each pay table with its notes, the house edges and
// the strategy card
export async function payTable() {
  const game = info();
  drawPayTable(game);
  if (!$dialog("paytable").open) $dialog("paytable").showModal();
  await fillInFigures(game.game);
}

const ASK_AGAIN_MS = 3000;
let payTables = 0;  // counts the pay tables opened: an earlier one's asking stops

/** @param {GameInfo} game */
const pending = (game) => game.edges_state === EDGES.pending;

// the house edges and strategy card are worked out apart from play once the server
// starts: while the pay table stays open on a game whose figures are still pending,
// the server is asked again every few seconds, and they are drawn when they come
/** @param {string} name */
async function fillInFigures(name) {
  const ask = ++payTables;
  const here = () => ask === payTables && $dialog("paytable").open && info().game === name;
  for (let wait = 0; here() && pending(info()); wait = ASK_AGAIN_MS) {
    if (wait) await new Promise((done) => setTimeout(done, wait));
    if (!here()) return;
    if (state.shared && state.tableGame) {  // a shared table's variant: its own edges
      const own = await api(`/api/tables/${state.shared}/game`).catch(() => null);
      if (own) tableGameLoaded(own);
    } else {
      const games = await api("/api/games").catch(() => null);
      if (games) gamesLoaded(games);
    }
    if (here() && !pending(info())) drawPayTable(info());
  }
}

/** @param {GameInfo} game */
function drawPayTable(game) {
  const own = gameOf(game.game), variant = own && own.variant !== game.variant ? ` (${game.variant})` : "";  // a table's own variant
  $("paytable-title").textContent = `${game.title}${variant}: pay table and rules`;
  $("paytable-body").innerHTML = `<h3>How to play</h3><ul>${game.how_to_play.map((line) => `<li>${escape(line)}</li>`).join("")}</ul>` +
    linesTable(game) + (game.pay_table ? game.pay_table.map(section).join("") : oldPayTables(game)) + edgesTable(game) +
    strategyCard(game);
}

/** @param {...string} columns */
const head = (...columns) => `<thead><tr>${columns.map((c) => `<th scope="col">${c}</th>`).join("")}</tr></thead>`;

// every betting circle: what it pays and its limits, or which decision places it
/** @param {GameInfo} game */
function linesTable(game) {
  /** @type {Record<string, SpotInfo>} */
  const wagers = Object.fromEntries(game.wagers.map((w) => [w.name, w]));
  /** @type {Record<string, string>} */
  const labels = Object.fromEntries([...game.wagers.map((w) => [w.name, w.label]), ...(game.lines || []).map((l) => [l.name, l.label])]);
  /** @type {Record<string, string>} */
  const decisions = Object.fromEntries(game.options.map((o) => [o.action, o.label]));
  /** @type {LineInfo[]} */
  const lines = game.lines || game.wagers.map((w) => ({ name: w.name, label: w.label, placed_by: null, pays: "" }));
  /** @param {LineInfo} line */
  const limits = (line) => {
    const wager = wagers[line.name];
    if (!wager) return `Placed when you choose ${escape(decisions[line.placed_by || ""] || line.placed_by)}`;
    const parts = [`${money(wager.minimum)} to ${money(wager.maximum)}`];
    if (wager.required) parts.push("required");
    if (wager.equal_to) parts.push(`equal to the ${escape(labels[wager.equal_to] || wager.equal_to)}`);
    return parts.join(", ");
  };
  return `<h3>Wagers</h3><table>${head("Wager", "Pays", "Limits")}<tbody>` +
    lines.map((l) => `<tr><th scope="row">${escape(l.label)}</th><td>${escape(l.pays)}</td><td>${limits(l)}</td></tr>`).join("") +
    "</tbody></table>";
}

/** @param {PaySection} section */
function section({ title, rows, notes }) {
  const table = rows.length
    ? `<table>${head("Hand", "Pays")}<tbody>` +
      rows.map(([hand, pays]) => `<tr><th scope="row">${escape(hand)}</th><td class="pays">${escape(pays)}</td></tr>`).join("") + "</tbody></table>"
    : "";
  const said = notes.length ? `<ul class="notes">${notes.map((n) => `<li>${escape(n)}</li>`).join("")}</ul>` : "";
  return `<h3>${escape(title)}</h3>${table}${said}`;
}

// a server without the pay tables in words: the rows it has, their names made readable
/** @param {GameInfo} game */
function oldPayTables(game) {
  return Object.entries(game.pay_tables || {}).map(([name, rows]) => {
    const title = name.replaceAll("_", " ");
    return section({ title: title[0].toUpperCase() + title.slice(1), rows, notes: [] });
  }).join("");
}

/** @param {number} value a share, 0.0337 for 3.37% */
const percent = (value) => `${(value * 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 4 })}%`;

// the house edge per Ante, per total initial wager, the element of risk and each side
// wager's, each with what it is a share of
/** @param {GameInfo} game */
function edgesTable(game) {
  if (!game.edges) return `<h3>House edge</h3>${notYet(game, "edges")}`;
  return `<h3>House edge</h3><table>${head("Measure", "Edge", "Of what")}<tbody>` +
    game.edges.map((e) => `<tr><th scope="row">${escape(e.label)}</th><td class="edge-value">${percent(e.value)}</td>` +
      `<td class="notes">${escape(e.basis)}</td></tr>`).join("") + "</tbody></table>";
}

// figures not in the game's info: being worked out, or not to be had from this server
/** @param {GameInfo} game @param {string} what */
const notYet = (game, what) => game.edges_state === EDGES.unavailable
  ? `<p id="${what}-none">Not worked out by this server.</p>`
  : `<p id="${what}-pending">Being worked out… it shows here when ready.</p>`;

// rules a person can memorise, the first that matches wins, and what following them
// costs against the optimal play (a game without decisions has none)
/** @param {GameInfo} game */
function strategyCard(game) {
  if (!game.options || !game.options.length) return "";
  const card = game.strategy_card;
  if (!card) return `<h3>Strategy card</h3>${notYet(game, "card")}`;
  return `<h3>Strategy card</h3><p class="notes">With the ${escape(card.wagers.join(" and "))}: the first rule that matches your hand wins.</p>` +
    `<ol id="strategy-card">${card.rules.map((rule) => `<li>${escape(rule.text)}</li>`).join("")}</ol>` +
    `<p class="notes">${escape(card.summary)}</p>`;
}

/** The hint sheet above the action bar: shown only at the table, and for the round,
 * it speaks of. */
export function drawHint() {
  const hint = state.hint, round = state.round;
  const here = !!hint && hint.table === tableKey() && !!round && round.id === hint.round && round.status === ROUND.open;
  $("hint-box").hidden = !here;
  if (!here || !hint) { $("hint-box").replaceChildren(); return; }
  $("hint-box").innerHTML = `<div class="hint-words">${hint.html}</div> <button type="button" id="hint-close">Dismiss</button>`;
  $("hint-close").onclick = hideHint;
}

/** @type {AbortController | null} the hint being worked out */
let asking = null;

// the hint in words in the round's dollars, best first (the server's, as the terminal
// says it), each option's expected value per $1 of Ante behind Details; a first hint
// can take a while, so the box says it is working, and Dismiss gives up on it
export async function hint() {
  if (asking || !state.round) return;
  const asked = new AbortController(), table = tableKey(), round = state.round.id;
  asking = asked;
  hintAsked(true);
  hintShown({ table, round, html: "Working out the expected values…" });
  try {
    /** @type {import("../../typing/api").SchemaHintView} */
    const hinted = await api(`/api/rounds/${round}/hint`, undefined, asked.signal);
    if (asking !== asked) return;
    const [best, ...rest] = hinted.text.split(". ");  // "Best: Raise." first, in bold
    hintShown({ table, round, html: `<p><strong>${escape(best)}.</strong> ${escape(rest.join(". "))}</p>${details(hinted.details)}` });
  } catch (error) {
    if (asking !== asked) return;
    hintShown(null);
    say(/** @type {Error} */ (error).message, "refusal");
  } finally {
    if (asking === asked) {
      asking = null;
      hintAsked(false);
    }
  }
}

export function hideHint() {
  hintShown(null);
  if (!asking) return;
  asking.abort();
  asking = null;
  hintAsked(false);
}

// the keys, as at the terminal table; the decisions' keys are the ones the server's
// choices take (felt.js), listed here for every action a game may offer
export function showKeys() {
  const names = tables().map(([game, shared], i) => `${i + 1} ${escape(tableTitle(game, shared))}`).join(", ");
  const rows = [
    [`1 to ${tables().length}`, `Choose a table: ${names}`],
    ["l", "The table menu"],
    ["Tab, Shift+Tab", "Move between the controls"],
    ["↑ ↓", "Previous or next betting spot"],
    ["← →", "Smaller or bigger chip"],
    ["Enter, Space", "On a spot: add the chosen chip (at its maximum, clear it)"],
    ["Backspace, Delete", "On a spot: clear it"],
    ["d", "Deal (Bet at a shared table)"],
    ["g", "Quick Replay: the last round's wagers again"],
    ["f", "Fold"], ["p", "Play (the smallest Play, when it may be more)"], ["m", "The largest Play"],
    ["b", "Buy & Play; between rounds at a shared Crazy 4 table, the blind second position"],
    ["r", "Raise"],
    ["n", "New shoe (Baccarat, between coups)"],
    ["h", "Hint: each decision's expected value"],
    ["c", "Coach on or off: after each decision, whether it was the best play and what another cost"],
    ["s", "Settings: sound, vibration, speed, reduced motion, card back"],
    ["t", "Pay table and rules"],
    ["y", "History"],
    ["v", "Fairness: the commitment, the seeds and Verify"],
    ["?", "These keys"],
    ["Escape", "Close what is open"],
  ];
  $("keys-list").innerHTML = head("Key", "Does") + "<tbody>" +
    rows.map(([key, does]) => `<tr><th scope="row"><kbd>${key}</kbd></th><td>${does}</td></tr>`).join("") + "</tbody>";
  $dialog("keys-help").showModal();
}

// the log-in dialog of a server with accounts, with its sign-up form for a new player;
// resolves once the player is in, by either
/** @returns {Promise<void>} */
export async function signIn() {
  $dialog("login").showModal();
  return new Promise((resolve) => {
    enter("login", "/api/login", resolve);
    enter("signup", "/api/signup", resolve);
  });
}

/**
 * The dialog's form `form` (its fields `form`-name and `form`-password) posted to
 * `path`: the dialog closes once the server lets the player in, else the form says why.
 * @param {string} form
 * @param {string} path
 * @param {() => void} done
 */
function enter(form, path, done) {
  $(`${form}-form`).onsubmit = async (event) => {
    event.preventDefault();
    const submit = /** @type {HTMLButtonElement} */ ($(`${form}-form`).querySelector("button"));  // the form's own button
    if (submit.disabled) return;
    submit.disabled = true;
    try {
      await api(path, { name: $input(`${form}-name`).value, password: $input(`${form}-password`).value });
      $dialog("login").close();
      done();
    } catch (error) { $(`${form}-error`).textContent = /** @type {Error} */ (error).message; } finally { submit.disabled = false; }
  };
}
