// The controls: the table menu (a dialog), the chip tray, Deal and Quick Replay, the decisions the
// server offers, and which of them can be pressed now.
import { $, $button, $dialog, info, layout, money, onTheFelt, state, tableKey, touchOnly } from "./state.js";
import { chipChosen } from "./actions.js";
import { chipFaceHtml } from "./chips-stack.js";
import { offerRefill } from "./bank.js";
import { keepFocus } from "./focus.js";
import { on } from "./felt.js";
import { describeTable, loadLobby, lobbyTable, miniRoad, miniSeats, sharedTables, watchLobby } from "./lobby.js";
import { ROUND, PHASE } from "./states.js";

/** @typedef {import("./state.js").GameInfo} GameInfo */
/** A table in the menu: its game, and false (one's own) or the shared table's id. @typedef {[GameInfo, string | false]} MenuTable */

// the key of each decision the server offers, as at the terminal table; an action with
// no key here takes its first letter. Of two amounts (Crazy 4's Play with aces) the
// decision's key takes the smaller and `m` the largest.
/** @type {Record<string, string>} */
export const DECISION_KEYS = { fold: "f", play: "p", buy: "b", raise: "r" };
export const LARGEST_KEY = "m";
/** @param {string} action @returns {string} */
export const decisionKey = (action) => DECISION_KEYS[action] || action[0];

export function renderGames() {
  keepFocus($("games"), "table", drawGames);
  $("logo").textContent = tableTitle(info(), state.shared);
}

// the tables: each game's own table, then the lobby's shared ones (``shared`` is the
// table's id); a table in the menu says what it is and its limits
/** @returns {MenuTable[]} */
export const tables = () => [...state.games.map((g) => /** @type {MenuTable} */ ([g, false])), ...sharedTables()];
/** @param {GameInfo} game @param {string | boolean} shared false, or a shared table's id */
export const tableTitle = (game, shared) => (shared ? `${lobbyTable(/** @type {string} */ (shared))?.name || game.title} · shared` : game.title);

/** @param {GameInfo} game */
function limits(game) {
  const low = Math.min(...game.wagers.map((w) => w.minimum)), high = Math.max(...game.wagers.map((w) => w.maximum));
  return `Limits ${money(low)} to ${money(high)}`;
}

// a table's key in the menu: the game, and a shared table's id
/** @param {GameInfo} game @param {string | false} shared */
const menuKey = (game, shared) => (shared ? `${game.game}:${shared}` : game.game);

// a table's button in the menu, empty: `fillButton` fills it
/** @param {string} key the table's key in the menu */
function tableButton(key) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.table = key;
  button.innerHTML = '<span class="table-title"></span><span class="table-about"></span><kbd class="table-key" aria-hidden="true"></kbd>';
  return button;
}

// a table's button said afresh: its place in the list (its number and the ids that name its
// lines), whether it is the current table, its title and its lines; only what differs is
// written, so a button, its lines and its miniatures stay the same nodes while the lobby
// is fetched again, and a tap in progress keeps its target
/** @param {HTMLButtonElement} button @param {GameInfo} game @param {string | false} shared @param {number} number */
function fillButton(button, game, shared, number) {
  const title = /** @type {HTMLElement} */ (button.querySelector(".table-title"));
  const about = /** @type {HTMLElement} */ (button.querySelector(".table-about"));
  const kbd = /** @type {HTMLElement} */ (button.querySelector(".table-key"));
  if (number <= 9) setIf(button, "aria-keyshortcuts", String(number));  // keys 1 to 9 only
  else button.removeAttribute("aria-keyshortcuts");
  setIf(button, "aria-current", String(game.game === state.game && shared === state.shared));
  setIf(button, "aria-labelledby", `table-${number}`);
  setIf(button, "aria-describedby", `table-${number}-about`);
  setIf(title, "id", `table-${number}`);
  setIf(about, "id", `table-${number}-about`);
  textIf(title, tableTitle(game, shared));
  textIf(kbd, number <= 9 ? String(number) : "");
  kbd.hidden = number > 9;
  button.onclick = () => {
    $dialog("tables").close();
    if (on.select) on.select(game.game, shared);
  };
  describe(button, about, game, shared);
  return button;
}

/** @param {Element} element @param {string} name @param {string} value */
function setIf(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** @param {Element} element @param {string} text */
function textIf(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

// what a table is, in lines: its kind, then its limits (a shared table: its seats, who
// sits there, what it is doing and its shoe, with its seats and the shoe's big road in
// miniature under the lines)
/** @param {HTMLElement} button @param {HTMLElement} about @param {GameInfo} game @param {string | false} shared */
function describe(button, about, game, shared) {
  const [kind, ...more] = shared ? describeTable(shared) : ["Your own table", limits(game)];
  const lines = document.createElement("span");
  const first = document.createElement("span");
  first.className = "table-kind";
  first.textContent = kind;
  lines.append(first);
  for (const line of more) {
    const part = document.createElement("span");
    part.className = line.startsWith("Seated: ") ? "table-limits table-players" : "table-limits";
    part.textContent = line;
    lines.append(document.createElement("br"), part);
  }
  if (about.innerHTML !== lines.innerHTML) about.replaceChildren(...lines.childNodes);
  for (const [kind, made] of /** @type {[string, HTMLElement | null][]} */ ([["mini-seats", shared ? miniSeats(shared) : null], ["mini-road", shared ? miniRoad(shared) : null]])) {
    const drawn = /** @type {HTMLElement | null} */ (button.querySelector(`.${kind}`));
    if (made && drawn) {  // the same node, its drawing rewritten when it differs
      if (drawn.innerHTML !== made.innerHTML) drawn.replaceChildren(...made.childNodes);
      if (drawn.style.cssText !== made.style.cssText) drawn.style.cssText = made.style.cssText;
    } else if (made) button.insertBefore(made, kind === "mini-seats" ? button.querySelector(".mini-road") : null);
    else if (drawn) drawn.remove();
  }
}

// the menu's tables drawn: a table gone loses its button first, then a table already
// listed keeps its button and a new one gets a button where the list puts it (a button
// moves only when the tables change order); so a lobby fetched again while the menu is
// open never takes a button from under a tap
function drawGames() {
  textIf($("tables-note"), touchOnly()  // a touch screen alone has no keys to name
    ? "Shared tables show their seats free."
    : `Keys 1 to ${Math.min(9, tables().length)} choose a table too; shared tables show their seats free.`);
  const list = $("games");
  const listed = tables(), keys = new Set(listed.map(([game, shared]) => menuKey(game, shared)));
  const buttons = /** @type {HTMLButtonElement[]} */ ([...list.children]);
  for (const gone of buttons.filter((b) => !keys.has(/** @type {string} */ (b.dataset.table)))) gone.remove();
  const had = new Map(buttons.map((b) => [b.dataset.table, b]));
  listed.forEach(([game, shared], i) => {
    const key = menuKey(game, shared);
    const button = fillButton(had.get(key) || tableButton(key), game, shared, i + 1);
    if (list.children[i] !== button) list.insertBefore(button, list.children[i] || null);
  });
}

// the lobby fetched again while the menu is open: its tables said afresh
function redrawTables() {
  if ($dialog("tables").open) keepFocus($("games"), "table", drawGames);
}

// the table menu, the current table's button focused, at once; then the lobby's seats
// fetched afresh, and again every few seconds while the menu stays open
export function openTables() {
  drawGames();
  $dialog("tables").showModal();
  const current = /** @type {HTMLElement | null} */ ($("games").querySelector("[aria-current=true]"));
  if (current) current.focus();
  loadLobby().then(redrawTables);
  watchLobby(redrawTables);
}

// the chip tray: the chip a tap on a spot places; a chip the balance cannot cover
// (beside the chips already on the felt) is greyed out and says why when tapped. On a
// phone the tray folds into one button showing the chip chosen, which opens it.
export function renderChips() {
  keepFocus($("chips"), "chip", drawChips);
  const toggle = $("chip-toggle");
  toggle.innerHTML = `${chipFaceHtml(state.chip)}<span class="visually-hidden">The ${money(state.chip)} chip: choose another</span>`;
}

function drawChips() {
  const free = state.balance === null ? Infinity : state.balance - onTheFelt();
  $("chips").replaceChildren(...info().chips.map((chip) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chip";
    button.innerHTML = chipFaceHtml(chip);
    button.dataset.chip = String(chip);
    const short = chip > free;
    button.setAttribute("aria-label", `${money(chip)} chip${short ? ", more than the balance left" : ""}`);
    button.setAttribute("aria-pressed", String(chip === state.chip));
    button.setAttribute("aria-disabled", String(short));
    button.classList.toggle("chip--short", short);
    button.onclick = () => {
      if (short) {
        offerRefill(`The ${money(chip)} chip is more than the ${money(Math.max(0, free))} left beside the chips on the felt: choose a smaller one.`);
        return;
      }
      chipChosen(chip);
      closeTray();
    };
    return button;
  }));
}

/** The folded tray opened (or closed again) from the chip button. */
export function toggleTray() {
  const open = $("action-bar").classList.toggle("tray-open");
  $("chip-toggle").setAttribute("aria-expanded", String(open));
  if (open) /** @type {HTMLElement | null} */ ($("chips").querySelector("[aria-pressed=true]"))?.focus();
}
function closeTray() {
  if (!$("action-bar").classList.contains("tray-open")) return;
  $("action-bar").classList.remove("tray-open");
  $("chip-toggle").setAttribute("aria-expanded", "false");
}

// the decisions the round in play allows, one button per amount, each with what it
// stakes ("Play $10", "Buy & Play $20"); Fold stakes nothing more
export function renderChoices() {
  const round = state.round;
  const open = !!round && round.status === ROUND.open;
  $("deal").textContent = state.shared ? "Bet" : "Deal";
  $("action-bar").classList.toggle("deciding", open && !!round && round.choices.length > 0);
  $("blind-label").hidden = !layout(info()).blind;
  $("hint").hidden = !info().options.length;  // a game with no decisions has no hint
  const choices = $("choices");
  const hadFocus = choices.contains(document.activeElement);
  choices.replaceChildren();
  for (const choice of open && round ? round.choices : []) {
    const amounts = choice.maximum > choice.minimum ? [choice.minimum, choice.maximum] : [choice.minimum];
    for (const amount of amounts) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = choice.action;
      const key = choice.maximum > choice.minimum && amount === choice.maximum ? LARGEST_KEY : decisionKey(choice.action);
      button.dataset.key = key;
      button.setAttribute("aria-keyshortcuts", key);
      button.textContent = amount ? `${choice.label} ${money(amount)}` : choice.label;
      const sent = choice.maximum > choice.minimum ? amount : null;
      button.onclick = () => { if (on.decide) on.decide(choice.action, sent); };
      choices.append(button);
    }
  }
  // a decision just offered never takes the focus (a second Enter would make it):
  // the keyboard lands on the group, and Tab or the decision's key goes on from there
  if (open) {
    if (hadFocus || landing) choices.focus();
    landing = false;
  }
  renderButtons();
}

let landing = false;  // Deal or Quick Replay had the focus when the round was dealt
/** Deal was pressed with the focus on it: the dealt round's decisions take the focus as a group. */
export function focusAfterDeal() {
  const active = document.activeElement;
  landing = !!active && active.closest(".action-bar") !== null;
}

// which buttons can send a request now: none of Deal, Quick Replay, the decisions and
// New shoe while one of them is in flight (a double click deals once), Hint not while
// it is being worked out; Undo, Clear and Double while chips can be changed
export function renderButtons() {
  const round = state.round, busy = state.busy;
  const hadFocus = !!document.activeElement && document.activeElement.closest(".action-bar") !== null && document.activeElement !== $("choices");
  const open = !!round && round.status === ROUND.open;
  const betting = !state.shared || (!!state.table && state.table.phase === PHASE.betting);
  const waiting = busy || state.committing || state.placing > 0;
  $button("deal").disabled = busy || state.committing || open || !betting;
  $button("replay").disabled = busy || state.committing || open || !betting || !state.last[tableKey()];
  $button("new-shoe").disabled = busy;
  $button("hint").disabled = busy || !open || !info().options.length || state.hinting;
  const felt = onTheFelt();
  $button("undo").disabled = waiting || open || !state.undo.length;
  $button("clear").disabled = waiting || open || !felt;
  $button("double").disabled = waiting || open || !felt || (state.balance !== null && 2 * felt > state.balance);
  for (const button of /** @type {HTMLCollectionOf<HTMLButtonElement>} */ ($("choices").children)) button.disabled = busy;
  // a disabled or removed button drops the focus: once the answer is in, the keyboard
  // carries on from Deal (never from a decision: see renderChoices)
  if (busy || !hadFocus) return;
  const lost = !document.activeElement || document.activeElement === document.body;
  if (lost && !open && !$button("deal").disabled) $("deal").focus();
}
