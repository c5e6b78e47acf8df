// The history of rounds in a drawer: newest first, each with its date, the game's title,
// its hands in mini cards, what each wager won or lost and the net; its hashes and
// Verify inside a "Fairness" disclosure, and a Replay that walks the round step by step.
// "More" loads older rounds (the server's `before`, or else a longer list).
import { api } from "./api.js";
import { $, escape, gameOf, money, state } from "./state.js";
import { openFairness, verifyRound } from "./fairness.js";
import { hashHtml } from "./fairness-drawer.js";
import { showOwnRoads } from "./roads.js";
import { openSheet, sheet, sheetBody } from "./sheet.js";
import { coupInWords, handsAfter, linesInWords, outcome, settlement } from "./record.js";
import { handsHtml } from "./minicards.js";
import { openReplay } from "./replay.js";

const PAGE = 20;
export const history = { rounds: [], more: true };  // what the drawer lists, newest first

function drawer() {
  const dialog = sheet("history", "History");
  const body = sheetBody(dialog);
  if (!body.childElementCount) {
    body.innerHTML = `<ol id="rounds" class="rounds"></ol><p class="history-foot">` +
      `<button type="button" id="history-more">More</button> <button type="button" id="history-fairness">Fairness</button></p>`;
    $("history-more").onclick = loadMore;
    $("history-fairness").onclick = openFairness;
    dialog.addEventListener("close", () => $("history-toggle")?.setAttribute("aria-expanded", "false"));
  }
  return dialog;
}

const when = (text) => new Date(/[Zz]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);  // stored in UTC

function fairnessHtml(r) {
  const seed = r.server_seed
    ? `<dt>Seed</dt><dd><code class="hash">${hashHtml(r.server_seed)}</code></dd><dt>Client seed</dt><dd><code>${escape(r.client_seed)}</code></dd><dt>Nonce</dt><dd>${r.nonce}</dd>`
    : "<dt>Seed</dt><dd>shown when its shoe ends</dd>";
  return `<details class="row-fair"><summary>Fairness</summary><dl><dt>Commitment</dt><dd><code class="hash">${hashHtml(r.commitment)}</code></dd>${seed}</dl>` +
    (r.server_seed ? `<button type="button" class="verify" data-round="${r.id}">Verify</button> <span class="verdict" role="status"></span>` : "") + "</details>";
}

function rowHtml(r) {
  const game = gameOf(r.game);
  const title = game ? `${game.title}${r.shared ? " · shared" : ""}` : r.game;
  const date = when(r.played_at);
  const events = r.record ? r.record.events : [];
  const positions = game ? settlement(game, events) : [];
  const lines = r.status === "void" ? "Void: every wager returned" : r.status === "open" ? "In play" :
    [game ? coupInWords(game, r) : "", ...positions.map((p) => linesInWords(p.lines))].filter(Boolean).join(" · ");
  const net = r.net === null ? "" : `<strong class="net ${outcome(r.net)}">${r.net > 0 ? "+" : r.net < 0 ? "−" : ""}${money(Math.abs(r.net))}</strong>`;
  const hands = game && r.record ? handsHtml(r.game, handsAfter(events)) : "";
  return `<li class="round-row" data-round="${r.id}"><div class="row-head"><span class="row-title"><strong>${escape(title)}</strong>` +
    `<time datetime="${date.toISOString()}">${date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}</time></span>${net}</div>` +
    `<div class="row-hands">${hands}</div><p class="row-lines">${escape(lines)}</p>` +
    `<div class="row-actions">${r.record && game ? `<button type="button" class="replay-round" data-round="${r.id}">Replay</button>` : ""}${fairnessHtml(r)}</div></li>`;
}

function bindRow(row, r) {
  const replay = row.querySelector(".replay-round");
  if (replay) replay.onclick = () => openReplay(r);
  const button = row.querySelector(".verify");
  if (!button) return;
  button.onclick = async () => {
    button.disabled = true;
    try {
      button.nextElementSibling.textContent = await verifyRound(r);
    } catch (error) {
      button.nextElementSibling.textContent = error.message;
    } finally { button.disabled = false; }
  };
}

// a row as markup made once per round and state: a row whose round has not changed is
// kept as it is (an open Fairness, a verdict), so a refresh never pulls it away
const signature = (r) => `${r.status}:${r.net}:${r.server_seed}`;

function rowFor(r) {
  const old = $("rounds").querySelector(`li[data-round="${r.id}"]`);
  if (old && old.dataset.signature === signature(r)) return old;
  const template = document.createElement("template");
  template.innerHTML = rowHtml(r);
  const row = template.content.firstElementChild;
  row.dataset.signature = signature(r);
  bindRow(row, r);
  return row;
}

// the rounds shown, newest first: `rounds` merged with those already listed
function drawRows(rounds) {
  drawer();
  const byId = new Map([...history.rounds, ...rounds].map((r) => [r.id, r]));
  history.rounds = [...byId.values()].sort((a, b) => b.id - a.id);
  $("rounds").replaceChildren(...history.rounds.map(rowFor));
  $("history-more").hidden = !history.more;
}

// the newest rounds again (after a round, or when the drawer opens); older pages
// loaded before stay below them
let loading = 0;  // loads in flight: the list is busy until the last is in

export async function loadHistory() {
  drawer();
  $("rounds").setAttribute("aria-busy", String(++loading > 0));  // rows may still come in at the top
  try {
    const rounds = await api(`/api/history?limit=${PAGE}`);
    // the rounds listed carry on from this page only if it reaches back to the newest of them
    const newest = history.rounds.length ? history.rounds[0].id : 0;
    const joins = rounds.length < PAGE || rounds.some((r) => r.id <= newest);
    if (!joins || history.rounds.length <= PAGE) {
      history.rounds = [];
      history.more = rounds.length === PAGE;
    }
    drawRows(rounds);
  } finally { $("rounds").setAttribute("aria-busy", String(--loading > 0)); }
  if (!state.shared) showOwnRoads();  // the own shoe's roads, from the server
}

// the next page: older than the oldest shown, without repeats; a server without
// `before` answers with the newest again, so a longer list is asked for instead
async function loadMore() {
  const shown = new Set(history.rounds.map((r) => r.id)), oldest = Math.min(...shown);
  const button = $("history-more");
  button.disabled = true;
  try {
    let older = (await api(`/api/history?limit=${PAGE}&before=${oldest}`)).filter((r) => r.id < oldest && !shown.has(r.id));
    if (!older.length) older = (await api(`/api/history?limit=${shown.size + PAGE}`)).filter((r) => r.id < oldest && !shown.has(r.id));
    history.more = older.length >= PAGE;
    drawRows(older);
  } finally { button.disabled = false; }
}

export function toggleHistory() {
  const dialog = drawer();
  if (dialog.open) dialog.close();
  else {
    openSheet(dialog);
    loadHistory().catch(() => {});
  }
  $("history-toggle")?.setAttribute("aria-expanded", String(dialog.open));
}
