// The controls: the table menu (a dialog), the chip tray, Deal and Quick Replay, the decisions the
// server offers, and which of them can be pressed now.
import { $, info, layout, money, state, tableKey } from "./state.js";
import { keepFocus } from "./focus.js";
import { on } from "./felt.js";
import { describeTable, loadLobby, lobbyTable, miniRoad, sharedTables, watchLobby } from "./lobby.js";

// the key of each decision the server offers, as at the terminal table; an action with
// no key here takes its first letter. Of two amounts (Crazy 4's Play with aces) the
// decision's key takes the smaller and `m` the largest.
export const DECISION_KEYS = { fold: "f", play: "p", buy: "b", raise: "r" };
export const LARGEST_KEY = "m";
export const decisionKey = (action) => DECISION_KEYS[action] || action[0];

export function renderGames() {
  keepFocus($("games"), "table", drawGames);
  $("logo").textContent = tableTitle(info(), state.shared);
}

// the tables: each game's own table, then the lobby's shared ones (``shared`` is the
// table's id); a table in the menu says what it is and its limits
export const tables = () => [...state.games.map((g) => [g, false]), ...sharedTables()];
export const tableTitle = (game, shared) => (shared ? `${(lobbyTable(shared) || {}).name || game.title} · shared` : game.title);

function limits(game) {
  const low = Math.min(...game.wagers.map((w) => w.minimum)), high = Math.max(...game.wagers.map((w) => w.maximum));
  return `Limits ${money(low)} to ${money(high)}`;
}

// a table's key in the menu: the game, and a shared table's id
const menuKey = (game, shared) => (shared ? `${game.game}:${shared}` : game.game);

function tableButton(game, shared, number) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.table = menuKey(game, shared);
  button.setAttribute("aria-keyshortcuts", String(number));
  button.setAttribute("aria-current", String(game.game === state.game && shared === state.shared));
  button.setAttribute("aria-labelledby", `table-${number}`);
  button.setAttribute("aria-describedby", `table-${number}-about`);
  button.innerHTML = `<span class="table-title" id="table-${number}"></span><span id="table-${number}-about"></span>` +
    (number <= 9 ? `<kbd class="table-key" aria-hidden="true">${number}</kbd>` : "");
  button.querySelector(".table-title").textContent = tableTitle(game, shared);
  describe(button, game, shared, number);
  button.onclick = () => {
    $("tables").close();
    on.select(game.game, shared);
  };
  return button;
}

// what a table is, in lines: its kind, then its limits (a shared table: its seats, who
// sits there and its shoe, with the shoe's big road in miniature under the lines)
function describe(button, game, shared, number) {
  const [kind, ...more] = shared ? describeTable(shared) : ["Your own table", limits(game)];
  const about = button.querySelector(`#table-${number}-about`);
  const first = document.createElement("span");
  first.className = "table-kind";
  first.textContent = kind;
  about.replaceChildren(first);
  for (const line of more) {
    const part = document.createElement("span");
    part.className = line.startsWith("Seated: ") ? "table-limits table-players" : "table-limits";
    part.textContent = line;
    about.append(document.createElement("br"), part);
  }
  const road = shared ? miniRoad(shared) : null;
  const drawn = button.querySelector(".mini-road");
  if (road && drawn) drawn.replaceWith(road);
  else if (road) button.append(road);
  else if (drawn) drawn.remove();
}

function drawGames() {
  $("tables-note").textContent = `Keys 1 to ${Math.min(9, tables().length)} choose a table too; shared tables show their seats free.`;
  $("games").replaceChildren(...tables().map(([game, shared], i) => tableButton(game, shared, i + 1)));
}

// the lobby fetched again: the same tables have their lines rewritten in place (a tap
// in progress keeps its button); other tables, the menu drawn again
function redrawTables() {
  if (!$("tables").open) return;
  const listed = tables(), buttons = [...$("games").children];
  const same = listed.length === buttons.length &&
    listed.every(([game, shared], i) => buttons[i].dataset.table === menuKey(game, shared));
  if (!same) keepFocus($("games"), "table", drawGames);
  else listed.forEach(([game, shared], i) => { if (shared) describe(buttons[i], game, shared, i + 1); });
}

// the table menu, the current table's button focused, at once; then the lobby's seats
// fetched afresh, and again every few seconds while the menu stays open
export function openTables() {
  drawGames();
  $("tables").showModal();
  const current = $("games").querySelector("[aria-current=true]");
  if (current) current.focus();
  loadLobby().then(redrawTables);
  watchLobby(redrawTables);
}

// the chip tray: the chip a tap on a spot places
export function renderChips() {
  keepFocus($("chips"), "chip", drawChips);
}

function drawChips() {
  $("chips").innerHTML = "";
  // the table's denominations, each its colour; white figures at 4.5:1 or better on each (WCAG AA)
  const colours = ["#4b5a73", "#c0302f", "#17701f", "#1c1c1c", "#6a2fb8"];
  info().chips.forEach((chip, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chip";
    button.style.setProperty("--chip", colours[i % colours.length]);
    button.textContent = "$" + chip / 100;
    button.dataset.chip = String(chip);
    button.setAttribute("aria-label", `$${chip / 100} chip`);
    button.setAttribute("aria-pressed", String(chip === state.chip));
    button.onclick = () => { state.chip = chip; renderChips(); };
    $("chips").append(button);
  });
}

// the decisions the round in play allows, one button per amount
export function renderChoices() {
  const round = state.round;
  const open = round && round.status === "open";
  $("deal").textContent = state.shared ? "Bet" : "Deal";
  $("action-bar").classList.toggle("deciding", !!open && round.choices.length > 0);
  $("blind-label").hidden = !layout(info()).blind;
  $("hint").hidden = !info().options.length;  // a game with no decisions has no hint
  if ($("choices").contains(document.activeElement)) refocus = true;
  $("choices").innerHTML = "";
  for (const choice of open ? round.choices : []) {
    const amounts = choice.maximum > choice.minimum ? [choice.minimum, choice.maximum] : [null];
    for (const amount of amounts) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = choice.action;
      button.dataset.key = amount !== null && amount === choice.maximum ? LARGEST_KEY : decisionKey(choice.action);
      button.setAttribute("aria-keyshortcuts", button.dataset.key);
      button.textContent = amount === null ? choice.label : `${choice.label} ${money(amount)}`;
      button.onclick = () => on.decide(choice.action, amount);
      $("choices").append(button);
    }
  }
  renderButtons();
}

// which buttons can send a request now: none of Deal, Quick Replay, the decisions and
// New shoe while one of them is in flight (a double click deals once), Hint not while
// it is being worked out
let refocus = false;  // a control of the round had the focus: it goes on to the next one
export function renderButtons() {
  const round = state.round, busy = state.busy;
  if (document.activeElement && document.activeElement.closest(".action-bar")) refocus = true;
  const open = round && round.status === "open";
  const betting = !state.shared || (state.table && state.table.phase === "betting");
  $("deal").disabled = busy || state.committing || !!open || !betting;
  $("replay").disabled = busy || state.committing || !!open || !betting || !state.last[tableKey()];
  $("new-shoe").disabled = busy;
  $("hint").disabled = busy || !open || !info().options.length || !!state.hinting;
  for (const button of $("choices").children) button.disabled = busy;
  // a disabled or removed button drops the focus: once the answer is in, the keyboard
  // carries on from the round's first decision, else from Deal
  if (busy || !refocus) return;
  refocus = false;
  const lost = !document.activeElement || document.activeElement === document.body;
  const next = [...$("choices").children, $("deal")].find((button) => !button.disabled);
  if (lost && next) next.focus();
}
