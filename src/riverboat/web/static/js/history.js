// The history of rounds in a drawer: newest first, each with its date, the game's title,
// its hands in mini cards, what each wager won or lost and the net; its hashes and
// Verify inside a "Fairness" disclosure, and a Replay that walks the round step by step.
// Among the rounds, by time, the credits of play money that are not rounds (the
// starting credit, each Refill: /api/credits). "More" loads older rounds (the server's
// `before`, or else a longer list) and older credits.
import { api } from "./api.js";
import { $, $button, escape, gameOf, money, state } from "./state.js";
import { openFairness, verifyRound } from "./fairness.js";
import { hashHtml } from "./fairness-drawer.js";
import { showOwnRoads } from "./roads.js";
import { openSheet, sheet, sheetBody } from "./sheet.js";
import { coupInWords, handsAfter, linesInWords, outcome, settlement } from "./record.js";
import { handsHtml } from "./minicards.js";
import { openReplay } from "./replay.js";
import { ROUND } from "./states.js";

/** A round of /api/history, its record's events in their shapes. @typedef {import("./record.js").PastRound} PastRound */
/** @typedef {import("./record.js").Position} Position */
/** @typedef {import("./replay.js").RecordedRound} RecordedRound */
/** @typedef {import("./verify.js").RevealedRound} RevealedRound */
/** @typedef {import("../../typing/api").SchemaCreditView} CreditView */

const PAGE = 20;
/**
 * What the drawer lists, newest first: the rounds (by id), the credits (by id), and
 * whether the server has older ones of each.
 * @type {{ rounds: PastRound[], credits: CreditView[], more: boolean, moreCredits: boolean }}
 */
export const history = { rounds: [], credits: [], more: true, moreCredits: false };

/** The drawer, made once. @returns {HTMLDialogElement} */
function drawer() {
  const dialog = sheet("history", "History");
  const body = sheetBody(dialog);
  if (!body.childElementCount) {
    body.innerHTML = `<ol id="rounds" class="rounds"></ol><p class="history-foot">` +
      `<button type="button" id="history-more">More</button> <button type="button" id="history-fairness">Fairness</button></p>`;
    $("history-more").onclick = loadMore;
    $("history-fairness").onclick = openFairness;
    dialog.addEventListener("close", () => $("history-toggle").setAttribute("aria-expanded", "false"));
  }
  return dialog;
}

/** A time the server stored in UTC (a round's without its zone). @param {string} text */
const when = (text) => new Date(/[Zz]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);

/** @param {Date} date */
const timeHtml = (date) =>
  `<time datetime="${date.toISOString()}">${date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}</time>`;

/** @param {PastRound} r */
function fairnessHtml(r) {
  const seed = r.server_seed
    ? `<dt>Seed</dt><dd><code class="hash">${hashHtml(r.server_seed)}</code></dd><dt>Client seed</dt><dd><code>${escape(r.client_seed)}</code></dd><dt>Nonce</dt><dd>${r.nonce}</dd>`
    : "<dt>Seed</dt><dd>shown when its shoe ends</dd>";
  return `<details class="row-fair"><summary>Fairness</summary><dl><dt>Commitment</dt><dd><code class="hash">${hashHtml(r.commitment)}</code></dd>${seed}</dl>` +
    (r.server_seed ? `<button type="button" class="verify" data-round="${r.id}">Verify</button> <span class="verdict" role="status"></span>` : "") + "</details>";
}

/** @param {PastRound} r */
function rowHtml(r) {
  const game = gameOf(r.game);
  const title = game ? `${game.title}${r.shared ? " · shared" : ""}` : r.game;
  const events = r.record ? r.record.events : [];
  /** @type {Position[]} */
  const positions = game ? settlement(game, events) : [];
  const lines = r.status === ROUND.void ? "Void: every wager returned" : r.status === ROUND.open ? "In play" :
    [game ? coupInWords(game, r) : "", ...positions.map((p) => linesInWords(p.lines))].filter(Boolean).join(" · ");
  const net = r.net === null ? "" : `<strong class="net ${outcome(r.net)}">${r.net > 0 ? "+" : r.net < 0 ? "−" : ""}${money(Math.abs(r.net))}</strong>`;
  const hands = game && r.record ? handsHtml(r.game, handsAfter(events)) : "";
  return `<li class="round-row" data-round="${r.id}"><div class="row-head"><span class="row-title"><strong>${escape(title)}</strong>` +
    `${timeHtml(when(r.played_at))}</span>${net}</div>` +
    `<div class="row-hands">${hands}</div><p class="row-lines">${escape(lines)}</p>` +
    `<div class="row-actions">${r.record && game ? `<button type="button" class="replay-round" data-round="${r.id}">Replay</button>` : ""}${fairnessHtml(r)}</div></li>`;
}

/** @param {HTMLElement} row @param {PastRound} r */
function bindRow(row, r) {
  // a row has Replay only for a round with its record, Verify only once its seed is shown
  const replay = /** @type {HTMLButtonElement | null} */ (row.querySelector(".replay-round"));
  if (replay) replay.onclick = () => openReplay(/** @type {RecordedRound} */ (r));
  const button = /** @type {HTMLButtonElement | null} */ (row.querySelector(".verify"));
  if (!button) return;
  const verdict = /** @type {HTMLElement} */ (button.nextElementSibling);
  button.onclick = async () => {
    button.disabled = true;
    try {
      verdict.textContent = await verifyRound(/** @type {RevealedRound} */ (r));
    } catch (error) {
      verdict.textContent = /** @type {Error} */ (error).message;
    } finally { button.disabled = false; }
  };
}

/** A markup's one element. @param {string} html @returns {HTMLElement} */
function element(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return /** @type {HTMLElement} */ (template.content.firstElementChild);
}

// a row as markup made once per round and state: a row whose round has not changed is
// kept as it is (an open Fairness, a verdict), so a refresh never pulls it away
/** @param {PastRound} r */
const signature = (r) => `${r.status}:${r.net}:${r.server_seed}`;

/** @param {PastRound} r @returns {HTMLElement} */
function rowFor(r) {
  const old = /** @type {HTMLElement | null} */ ($("rounds").querySelector(`li[data-round="${r.id}"]`));
  if (old && old.dataset.signature === signature(r)) return old;
  const row = element(rowHtml(r));
  row.dataset.signature = signature(r);
  bindRow(row, r);
  return row;
}

/** How the drawer names a credit, and the house's changes to the account. @type {Record<CreditView["kind"], string>} */
const CREDIT_TITLES = {
  start: "Starting credit", top_up: "Refill", adjustment: "The house's adjustment",
  locked: "Account locked by the house", unlocked: "Account unlocked", sessions_ended: "Sessions ended by the house",
};

/** A credit's row, styled as a round's: "Refill · +$976.50 · balance $1,000",
 * "Starting credit · $1,000", "The house's adjustment · −$5 · balance $995" and its
 * reason; a lock, an unlock or sessions ended with their reason and no money. @param {CreditView} c */
function creditHtml(c) {
  const amount = c.balance_after === null ? "" : c.kind === "start" ? money(c.amount) : c.amount < 0 ? `−${money(-c.amount)}` : `+${money(c.amount)}`;
  const after = c.balance_after === null ? "" : `<p class="row-lines">balance ${money(c.balance_after)}</p>`;
  const reason = c.reason ? `<p class="row-lines">${escape(c.reason)}</p>` : "";
  return `<li class="round-row credit-row" data-credit="${c.id}" data-kind="${escape(c.kind)}"><div class="row-head"><span class="row-title">` +
    `<strong>${escape(CREDIT_TITLES[c.kind] || c.kind)}</strong>${timeHtml(when(c.at))}</span>` +
    `<strong class="net ${c.amount < 0 ? "loss" : "credit"}">${amount}</strong></div>${after}${reason}</li>`;
}

/** @param {CreditView} c @returns {HTMLElement} */
function creditRowFor(c) {
  return /** @type {HTMLElement | null} */ ($("rounds").querySelector(`li[data-credit="${c.id}"]`)) || element(creditHtml(c));
}

/**
 * The rows, newest first: the rounds, and among them by time the credits; while older
 * rounds are still to load, only the credits no older than the oldest round shown (an
 * older one would sit above rounds not yet loaded).
 * @returns {HTMLElement[]}
 */
function rows() {
  const oldest = history.rounds.length ? when(history.rounds[history.rounds.length - 1].played_at).getTime() : -Infinity;
  /** @type {{ at: number, row: () => HTMLElement }[]} */
  const items = history.rounds.map((r) => ({ at: when(r.played_at).getTime(), row: () => rowFor(r) }));
  for (const c of history.credits) {
    const at = when(c.at).getTime();
    if (!history.more || at >= oldest) items.push({ at, row: () => creditRowFor(c) });
  }
  return items.sort((a, b) => b.at - a.at).map((item) => item.row());
}

/** The rows shown: `rounds` and `credits` merged with those already listed.
 * @param {PastRound[]} rounds @param {CreditView[]} [credits] */
function drawRows(rounds, credits = []) {
  drawer();
  const byId = new Map([...history.rounds, ...rounds].map((r) => [r.id, r]));
  history.rounds = [...byId.values()].sort((a, b) => b.id - a.id);
  const creditsById = new Map([...history.credits, ...credits].map((c) => [c.id, c]));
  history.credits = [...creditsById.values()].sort((a, b) => b.id - a.id);
  $("rounds").replaceChildren(...rows());
  $("history-more").hidden = !history.more && !history.moreCredits;
}

/** The newest credits, or none if they cannot be read now (the rounds still show).
 * @returns {Promise<CreditView[] | null>} */
async function newestCredits() {
  try {
    return /** @type {CreditView[]} */ (await api(`/api/credits?limit=${PAGE}`));
  } catch { return null; }
}

// the newest rounds again (after a round, or when the drawer opens), and the newest
// credits (a Refill's among them); older pages loaded before stay below them
let loading = 0;  // loads in flight: the list is busy until the last is in

export async function loadHistory() {
  drawer();
  $("rounds").setAttribute("aria-busy", String(++loading > 0));  // rows may still come in at the top
  try {
    const [rounds, credits] = await Promise.all([
      /** @type {Promise<PastRound[]>} */ (api(`/api/history?limit=${PAGE}`)), newestCredits()]);
    // the rounds listed carry on from this page only if it reaches back to the newest of them
    const newest = history.rounds.length ? history.rounds[0].id : 0;
    const joins = rounds.length < PAGE || rounds.some((r) => r.id <= newest);
    if (!joins || history.rounds.length <= PAGE) {
      history.rounds = [];
      history.more = rounds.length === PAGE;
    }
    if (credits) {
      const newestCredit = history.credits.length ? history.credits[0].id : 0;
      const joinsCredits = credits.length < PAGE || credits.some((c) => c.id <= newestCredit);
      if (!joinsCredits || history.credits.length <= PAGE) {
        history.credits = [];
        history.moreCredits = credits.length === PAGE;
      }
    }
    drawRows(rounds, credits || []);
  } finally { $("rounds").setAttribute("aria-busy", String(--loading > 0)); }
  if (!state.shared) showOwnRoads();  // the own shoe's roads, from the server
}

// the next page: older than the oldest shown, without repeats; a server without
// `before` answers with the newest again, so a longer list is asked for instead
async function loadMore() {
  const shown = new Set(history.rounds.map((r) => r.id)), oldest = Math.min(...shown);
  const button = $button("history-more");
  button.disabled = true;
  try {
    /** @type {PastRound[]} */
    let older = [];
    if (history.more) {
      older = (/** @type {PastRound[]} */ (await api(`/api/history?limit=${PAGE}&before=${oldest}`))).filter((r) => r.id < oldest && !shown.has(r.id));
      if (!older.length) older = (/** @type {PastRound[]} */ (await api(`/api/history?limit=${shown.size + PAGE}`))).filter((r) => r.id < oldest && !shown.has(r.id));
      history.more = older.length >= PAGE;
    }
    /** @type {CreditView[]} */
    let credits = [];
    if (history.moreCredits && history.credits.length) {
      const before = history.credits[history.credits.length - 1].id;
      credits = /** @type {CreditView[]} */ (await api(`/api/credits?limit=${PAGE}&before=${before}`));
      history.moreCredits = credits.length === PAGE;
    }
    drawRows(older, credits);
  } finally { button.disabled = false; }
}

export function toggleHistory() {
  const dialog = drawer();
  if (dialog.open) dialog.close();
  else {
    openSheet(dialog);
    loadHistory().catch(() => {});
  }
  $("history-toggle").setAttribute("aria-expanded", String(dialog.open));
}
