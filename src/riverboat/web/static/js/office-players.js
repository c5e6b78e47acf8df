// The back office's players: a search by name as one types (or on Find), the players
// found, and a player's file: balance, lock, sessions, open rounds, the last rounds
// (each opens the recall), the account's changes and the office's actions on them;
// Credit and Debit (an amount in dollars read as whole cents, a reason, the operator's
// password again), Lock or Unlock and End sessions (a reason), each in a dialog that
// shows the server's answer, or its refusal in its own words.
import { aborted, call, said } from "./office-api.js";
import { element, escape, money, parseDollars, signed, timeHtml, tone } from "./office-format.js";
import { $, $button, $dialog, $input, gameOf } from "./state.js";

/** @typedef {import("../../typing/api").SchemaPlayerFound} PlayerFound */
/** @typedef {import("../../typing/api").SchemaPlayerFile} PlayerFile */
/** @typedef {import("../../typing/api").SchemaActionView} ActionView */
/** @typedef {import("../../typing/api").SchemaCreditView} CreditView */
/** @typedef {import("../../typing/api").SchemaExportedRound} ExportedRound */
/** @typedef {import("../../typing/api").SchemaRoundView} RoundView */
/** @typedef {import("../../typing/api").SchemaAdjustedView} AdjustedView */
/** @typedef {import("../../typing/api").SchemaEndedView} EndedView */
/** @typedef {"lock" | "unlock" | "end-sessions"} Change */

/** ms after the last key before the search asks the server */
const DEBOUNCE = 250;
/** what a search lists at most */
const FOUND = 20;

/** @type {{ timer: number, search: AbortController | null, file: PlayerFile | null, loading: AbortController | null, asked: string }} */
const here = { timer: 0, search: null, file: null, loading: null, asked: "" };

// ------------------------------------------------------------------ the search
/** @param {string} name */
async function search(name) {
  here.search?.abort();
  const said_ = $("find-said"), list = $("found");
  if (!name) {
    here.search = null;
    here.asked = "";
    list.replaceChildren();
    said_.textContent = "";
    return;
  }
  if (name === here.asked && list.childElementCount) return;
  const asking = here.search = new AbortController();
  list.setAttribute("aria-busy", "true");
  try {
    /** @type {PlayerFound[]} */
    const found = await call(`/api/office/players?name=${encodeURIComponent(name)}&limit=${FOUND}`, undefined, asking.signal);
    here.asked = name;
    list.replaceChildren(...found.map(foundItem));
    said_.textContent = found.length ? `${found.length === FOUND ? "The first " : ""}${found.length} player${found.length === 1 ? "" : "s"} found` : `No player's name begins with “${name}”`;
    markChosen();
    $("players-view").classList.remove("folded");
  } catch (error) {
    if (aborted(error)) return;
    said_.textContent = said(error);
  } finally {
    if (here.search === asking) list.setAttribute("aria-busy", "false");
  }
}

/** A badge: Locked, Operator. @param {string} text @param {string} kind */
const badge = (text, kind) => `<span class="badge badge--${kind}">${text}</span>`;

/** @param {{ locked: boolean, operator: boolean }} p */
const badges = (p) => (p.locked ? badge("Locked", "locked") : "") + (p.operator ? badge("Operator", "operator") : "");

/** @param {PlayerFound} p */
function foundItem(p) {
  return element(`<li><a class="found-item" href="#players/${p.id}" data-player="${p.id}">` +
    `<span class="found-name">${escape(p.name)}</span><span class="found-badges">${badges(p)}</span>` +
    `<span class="found-balance">${money(p.balance)}</span></a></li>`);
}

function markChosen() {
  for (const link of $("found").querySelectorAll("a[data-player]")) {
    const chosen = here.file !== null && /** @type {HTMLElement} */ (link).dataset.player === String(here.file.id);
    if (chosen) link.setAttribute("aria-current", "true");
    else link.removeAttribute("aria-current");
  }
}

// the arrow keys walk the search box and the players found
/** @param {KeyboardEvent} event */
function walkFound(event) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const links = /** @type {HTMLElement[]} */ ([...$("found").querySelectorAll("a")]);
  if (!links.length) return;
  const at = links.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  const next = event.key === "ArrowDown" ? at + 1 : at - 1;
  event.preventDefault();
  if (next < 0) $input("find-name").focus();
  else links[Math.min(next, links.length - 1)].focus();
}

// ------------------------------------------------------------------ the file
/** How the account's changes are named. @type {Record<CreditView["kind"], string>} */
const CREDIT_KINDS = {
  start: "Starting credit", top_up: "Refill", adjustment: "House adjustment",
  locked: "Locked", unlocked: "Unlocked", sessions_ended: "Sessions ended",
};

/** How the office's actions are named. @type {Record<ActionView["action"], string>} */
export const ACTIONS = {
  grant: "Made an operator", revoke: "No longer an operator", credit: "Credit", debit: "Debit",
  lock: "Locked", unlock: "Unlocked", end_sessions: "Sessions ended",
};

/** A game's title, from /api/games, or its name. @param {string} game @param {string} [variant] */
export function gameTitle(game, variant) {
  const info = gameOf(game);
  const title = info ? info.title : game;
  return variant && info && variant !== info.variant ? `${title} (${variant})` : title;
}

/** @param {ExportedRound} r */
function historyItem(r) {
  const net = r.net === null ? `<span class="net">${r.status === "void" ? "void" : "in play"}</span>`
    : `<strong class="net ${tone(r.net)}">${signed(r.net)}</strong>`;
  return `<li class="entry entry--round"><a class="round-link" href="#recall/${r.id}" aria-label="Round ${r.id}: recall">#${r.id}</a>` +
    `<span class="entry-what">${escape(gameTitle(r.game, r.variant))}${r.shared ? " · shared" : ""}</span>${net}` +
    `<span class="entry-when">${timeHtml(r.played_at)}</span></li>`;
}

/** @param {RoundView} r */
function openItem(r) {
  const staked = Object.values(r.stakes || r.wagers).reduce((sum, cents) => sum + cents, 0);
  return `<li class="entry entry--round"><a class="round-link" href="#recall/${r.id}" aria-label="Round ${r.id}: recall">#${r.id}</a>` +
    `<span class="entry-what">${escape(gameTitle(r.game, r.variant))}${r.shared ? " · shared" : ""}</span>` +
    `<span class="net">${money(staked)} in play</span></li>`;
}

/** @param {CreditView} c */
function creditItem(c) {
  const moved = c.balance_after !== null;
  const amount = moved ? `<strong class="net ${c.kind === "adjustment" ? tone(c.amount) : "credit"}">${signed(c.amount)}</strong>` : "";
  const after = moved ? `<span class="entry-more">balance ${money(/** @type {number} */ (c.balance_after))}</span>` : "";
  const reason = c.reason ? `<q class="entry-reason">${escape(c.reason)}</q>` : "";
  return `<li class="entry" data-kind="${escape(c.kind)}"><span class="entry-what"><strong>${escape(CREDIT_KINDS[c.kind] || c.kind)}</strong></span>` +
    `${amount}<span class="entry-when">${timeHtml(c.at)}</span>${after}${reason}</li>`;
}

/** An action's money or sessions, in words. @param {ActionView} a */
export function actionDetail(a) {
  const d = a.detail || {};
  if (typeof d.amount === "number") {
    const moved = a.action === "debit" ? -d.amount : d.amount;
    return `<strong class="net ${tone(moved)}">${signed(moved)}</strong>` +
      (typeof d.balance === "number" ? `<span class="entry-more">balance ${money(d.balance)}</span>` : "");
  }
  if (typeof d.ended === "number") return `<span class="entry-more">${d.ended} session${d.ended === 1 ? "" : "s"} ended</span>`;
  return "";
}

/** @param {ActionView} a */
function actionItem(a) {
  return `<li class="entry"><span class="entry-what"><strong>${escape(ACTIONS[a.action] || a.action)}</strong> by ${escape(a.by)}</span>` +
    `${actionDetail(a)}<span class="entry-when">${timeHtml(a.at)}</span><q class="entry-reason">${escape(a.reason)}</q></li>`;
}

/** A list, or a line saying it is empty. @param {string[]} items @param {string} none */
const listHtml = (items, none) => (items.length ? `<ol class="entries">${items.join("")}</ol>` : `<p class="office-note">${none}</p>`);

/** @param {PlayerFile} f */
function fileHtml(f) {
  const sessions = `${f.sessions}`;
  return `<header class="file-head"><a class="back-link" href="#players">Players found</a>` +
    `<h2 id="file-name" tabindex="-1">${escape(f.name)} <span class="file-badges">${badges(f)}</span></h2>` +
    `<p class="office-note">Player #${f.id} · joined ${timeHtml(f.created_at)}</p></header>` +
    `<dl class="figures"><div class="figure figure--balance"><dt>Balance</dt><dd id="file-balance">${money(f.balance)}</dd></div>` +
    `<div class="figure"><dt>State</dt><dd>${f.locked ? "Locked" : "Open"}</dd></div>` +
    `<div class="figure"><dt>Sessions open</dt><dd>${sessions}</dd></div>` +
    `<div class="figure"><dt>Rounds dealt</dt><dd>${f.rounds_dealt}</dd></div></dl>` +
    `<div class="file-actions" role="group" aria-label="Change the account">` +
    `<button type="button" data-do="credit">Credit</button><button type="button" data-do="debit">Debit</button>` +
    `<button type="button" data-do="${f.locked ? "unlock" : "lock"}">${f.locked ? "Unlock" : "Lock"}</button>` +
    `<button type="button" data-do="end-sessions">End sessions</button></div>` +
    `<div class="file-parts"><div>` +
    `<section class="file-part" aria-labelledby="file-open"><h3 id="file-open">Open rounds</h3>${listHtml(f.open_rounds.map(openItem), "None.")}</section>` +
    `<section class="file-part" aria-labelledby="file-history"><h3 id="file-history">Last rounds</h3>${listHtml(f.history.map(historyItem), "No round yet.")}</section>` +
    `</div><div>` +
    `<section class="file-part" aria-labelledby="file-account"><h3 id="file-account">Account</h3>${listHtml(f.account.map(creditItem), "Nothing yet.")}</section>` +
    `<section class="file-part" aria-labelledby="file-actions"><h3 id="file-actions">The office's actions</h3>${listHtml(f.actions.map(actionItem), "None.")}</section>` +
    `</div></div>`;
}

/** The file's button for a change (Lock and Unlock are one place), to give the focus back to.
 * @param {string} what @returns {HTMLButtonElement | null} */
function fileButton(what) {
  const place = what === "unlock" ? "lock" : what;
  return $("file").querySelector(`button[data-do="${place}"], button[data-do="${place === "lock" ? "unlock" : place}"]`);
}

/** @param {PlayerFile} f */
function drawFile(f) {
  here.file = f;
  const file = $("file");
  // a button drawn again keeps the focus it had (a change made from the keyboard)
  const focused = /** @type {HTMLElement | null} */ (document.activeElement);
  const had = focused && file.contains(focused) && focused.dataset.do ? focused.dataset.do : null;
  file.innerHTML = fileHtml(f);
  if (had) fileButton(had)?.focus();
  file.hidden = false;
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (file.querySelectorAll("button[data-do]"))) {
    const what = /** @type {string} */ (button.dataset.do);
    button.onclick = () => (what === "credit" || what === "debit" ? openAdjust(what) : openChange(/** @type {Change} */ (what)));
  }
  markChosen();
}

/** A player's file, asked again. @param {number} id @param {boolean} [focus] the file's heading takes the focus */
export async function loadFile(id, focus = false) {
  here.loading?.abort();
  const loading = here.loading = new AbortController();
  const file = $("file");
  file.setAttribute("aria-busy", "true");
  try {
    drawFile(await call(`/api/office/players/${id}`, undefined, loading.signal));
    if (focus) $("file-name").focus();
  } catch (error) {
    if (aborted(error)) return;
    here.file = null;
    file.innerHTML = `<header class="file-head"><a class="back-link" href="#players">Players found</a><h2 id="file-name" tabindex="-1">Player #${id}</h2></header>` +
      `<p class="problem" role="alert">${escape(said(error))}</p>`;
    file.hidden = false;
  } finally {
    if (here.loading === loading) file.removeAttribute("aria-busy");
  }
}

/**
 * The players' screen: the search alone, or a player's file beside it (on a phone, the
 * file in place of the players found until the search is used again).
 * @param {number | null} id
 * @param {boolean} focus
 */
export function showPlayers(id, focus) {
  const view = $("players-view");
  view.classList.toggle("folded", id !== null);
  if (id === null) {
    here.file = null;
    $("file").hidden = true;
    markChosen();
    if (focus) $input("find-name").focus();
    return;
  }
  if (here.file && here.file.id === id) {
    if (focus) $("file-name").focus();
    return;
  }
  loadFile(id, focus);
}

// ------------------------------------------------------------------ the dialogs
/** @param {HTMLDialogElement} dialog */
function openDialog(dialog) {
  for (const field of /** @type {NodeListOf<HTMLInputElement | HTMLTextAreaElement>} */ (dialog.querySelectorAll("input, textarea"))) {
    field.value = "";
    field.disabled = false;
  }
  for (const line of dialog.querySelectorAll(".problem, .done")) line.textContent = "";
  const confirm = /** @type {HTMLButtonElement} */ (dialog.querySelector("button.primary"));
  confirm.hidden = false;
  confirm.disabled = false;
  const cancel = /** @type {HTMLButtonElement} */ (dialog.querySelector(".actions [data-close]"));
  cancel.textContent = "Cancel";
  dialog.showModal();
}

/**
 * A change made: the fields put away, its answer said, the dialog's Close focused,
 * and the file asked again.
 * @param {HTMLDialogElement} dialog
 * @param {string} text
 */
function done(dialog, text) {
  for (const field of /** @type {NodeListOf<HTMLInputElement | HTMLTextAreaElement>} */ (dialog.querySelectorAll("input, textarea"))) field.disabled = true;
  /** @type {HTMLElement} */ (dialog.querySelector(".done")).textContent = text;
  /** @type {HTMLButtonElement} */ (dialog.querySelector("button.primary")).hidden = true;
  const close = /** @type {HTMLButtonElement} */ (dialog.querySelector(".actions [data-close]"));
  close.textContent = "Close";
  close.focus();
  if (here.file) loadFile(here.file.id);
}

/** @param {"credit" | "debit"} kind */
function openAdjust(kind) {
  const file = here.file;
  if (!file) return;
  const dialog = $dialog("adjust");
  dialog.dataset.kind = kind;
  $("adjust-title").textContent = `${kind === "credit" ? "Credit" : "Debit"} ${file.name}`;
  $("adjust-who").textContent = kind === "credit"
    ? `Play money from the house to ${file.name}, whose balance is ${money(file.balance)}.`
    : `Play money from ${file.name} to the house: no more than the balance, ${money(file.balance)}.`;
  openDialog(dialog);
  $("adjust-amount-said").textContent = "In dollars and cents: 12.50";
  $input("adjust-amount").focus();
}

function sayAmount() {
  const typed = $input("adjust-amount").value;
  const read = parseDollars(typed);
  $("adjust-amount-said").textContent = !typed.trim() ? "In dollars and cents: 12.50" : read.error === undefined ? `${money(read.cents)}` : read.error;
}

/** @param {SubmitEvent} event */
async function confirmAdjust(event) {
  event.preventDefault();
  const dialog = $dialog("adjust"), file = here.file, kind = dialog.dataset.kind === "debit" ? "debit" : "credit";
  const error = $("adjust-error"), confirm = $button("adjust-confirm");
  if (!file || confirm.hidden || confirm.disabled) return;
  const read = parseDollars($input("adjust-amount").value);
  const reason = /** @type {HTMLTextAreaElement} */ ($("adjust-reason")).value.trim(), password = $input("adjust-password").value;
  /** @type {[string, string][]} */
  const problems = [["adjust-amount", read.error || ""], ["adjust-reason", reason ? "" : "a reason is needed: the player sees it"],
    ["adjust-password", password ? "" : "your password is needed again"]];
  const problem = problems.find(([, text]) => text);
  if (problem) {
    error.textContent = problem[1];
    $(problem[0]).focus();
    return;
  }
  error.textContent = "";
  confirm.disabled = true;
  try {
    /** @type {AdjustedView} */
    const answer = await call(`/api/office/players/${file.id}/${kind}`, { amount: read.cents, reason, password });
    done(dialog, `${kind === "credit" ? "Credited" : "Debited"} ${money(Math.abs(answer.amount))} ${kind === "credit" ? "to" : "from"} ${file.name}: ` +
      `the balance is now ${money(answer.balance)} (transaction #${answer.transaction_id}).`);
  } catch (refused) {
    error.textContent = said(refused);
    $input("adjust-password").value = "";
  } finally { confirm.disabled = false; }
}

/** What each change is called, and says before it is made. @type {Record<Change, { title: string, what: (name: string) => string }>} */
const CHANGES = {
  lock: { title: "Lock", what: (name) => `${name}'s sessions end and log-in is refused, with the reason, until the account is unlocked.` },
  unlock: { title: "Unlock", what: (name) => `${name} may log in again.` },
  "end-sessions": { title: "End sessions", what: (name) => `Every session ${name} holds ends: they log in again.` },
};

/** @param {Change} kind */
function openChange(kind) {
  const file = here.file;
  if (!file) return;
  const dialog = $dialog("change");
  dialog.dataset.kind = kind;
  $("change-title").textContent = `${CHANGES[kind].title}: ${file.name}`;
  $("change-what").textContent = CHANGES[kind].what(file.name);
  openDialog(dialog);
  /** @type {HTMLTextAreaElement} */ ($("change-reason")).focus();
}

/** @param {SubmitEvent} event */
async function confirmChange(event) {
  event.preventDefault();
  const dialog = $dialog("change"), file = here.file, kind = /** @type {Change} */ (dialog.dataset.kind);
  const error = $("change-error"), confirm = $button("change-confirm");
  if (!file || confirm.hidden || confirm.disabled) return;
  const reason = /** @type {HTMLTextAreaElement} */ ($("change-reason")).value.trim();
  if (!reason) {
    error.textContent = "a reason is needed: the player sees it";
    $("change-reason").focus();
    return;
  }
  error.textContent = "";
  confirm.disabled = true;
  try {
    /** @type {EndedView} */
    const answer = await call(`/api/office/players/${file.id}/${kind}`, { reason });
    const ended = `${answer.sessions_ended} session${answer.sessions_ended === 1 ? "" : "s"} ended`;
    done(dialog, kind === "lock" ? `${file.name} is locked: ${ended}.` : kind === "unlock" ? `${file.name} is unlocked.` : `${file.name}: ${ended}.`);
  } catch (refused) {
    error.textContent = said(refused);
  } finally { confirm.disabled = false; }
}

/** Every dialog of the page put away (the session ended). */
export function closeDialogs() {
  for (const dialog of /** @type {NodeListOf<HTMLDialogElement>} */ (document.querySelectorAll("dialog[open]"))) dialog.close();
}

/** The search, the file's buttons and the dialogs, wired once. */
export function wirePlayers() {
  const form = /** @type {HTMLFormElement} */ ($("find-form")), input = $input("find-name");
  form.onsubmit = (event) => {
    event.preventDefault();
    clearTimeout(here.timer);
    here.asked = "";
    search(input.value.trim());
  };
  input.addEventListener("input", () => {
    clearTimeout(here.timer);
    here.timer = window.setTimeout(() => search(input.value.trim()), DEBOUNCE);
  });
  input.addEventListener("focus", () => { if ($("found").childElementCount) $("players-view").classList.remove("folded"); });
  input.addEventListener("keydown", walkFound);
  $("found").addEventListener("keydown", walkFound);
  for (const id of ["adjust-form", "change-form"]) /** @type {HTMLFormElement} */ ($(id)).noValidate = true;
  $("adjust-form").addEventListener("submit", confirmAdjust);
  $("change-form").addEventListener("submit", confirmChange);
  $input("adjust-amount").addEventListener("input", sayAmount);
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("dialog [data-close]"))) {
    button.onclick = () => /** @type {HTMLDialogElement} */ (button.closest("dialog")).close();
  }
  // closed, a dialog gives the focus back to the file's button that opened it, drawn
  // again meanwhile (the file is asked again after a change)
  for (const id of ["adjust", "change"]) {
    const dialog = $dialog(id);
    dialog.addEventListener("close", () => {
      const at = document.activeElement;
      const lost = !at || at === document.body || !at.isConnected || dialog.contains(at);
      if (lost && dialog.dataset.kind) fileButton(dialog.dataset.kind)?.focus();
    });
  }
}

/** The file in view, after the session ended: forgotten. */
export function forgetPlayers() {
  here.file = null;
  here.asked = "";
  $("found").replaceChildren();
  $("find-said").textContent = "";
  $input("find-name").value = "";
  $("file").hidden = true;
  $("file").replaceChildren();
}
