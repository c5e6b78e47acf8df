// riverboat's table in the browser: the wiring. Choosing a table, and the page's
// buttons bound to what they do; the parts live in the modules beside this one.
import { api } from "./api.js";
import { $, $button, $dialog, gameOf, info, say, state, store, touchOnly } from "./state.js";
import { chipChosen, commitmentShown, gamesLoaded, roundShown, tableChosen, tableGameLoaded } from "./actions.js";
import { on } from "./felt.js";
import { decisionKey, focusAfterDeal, openTables, toggleTray } from "./controls.js";
import { openFairness, showCommitment } from "./fairness.js";
import { refill, refreshBalance } from "./bank.js";
import { hideHint, hint, payTable, showKeys, signIn } from "./overlays.js";
import { loadHistory, toggleHistory } from "./history.js";
import { joinTable, leaveTable, onLogInAsked, setupSharedClock } from "./shared.js";
import { clearAll, deal, decide, double, oneAtATime, place, undo } from "./play.js";
import { showOwnRoads } from "./roads.js";
import { coached, setupCoach, toggleCoach } from "./coach.js";
import { loadLobby, lobbyTable } from "./lobby.js";
import { setupMessages } from "./messages.js";
import { wireViews } from "./views.js";
import { openSettings, setupSettings } from "./settings.js";
import "./install.js";  // the service worker, registered after load; the page without its server
import { ROUND } from "./states.js";

let choosing = 0;  // counts the tables chosen: a table's load that finds a later choice stops

/**
 * Sit at a table: a game's own (`shared` false) or a shared one (its id).
 * @param {string} name
 * @param {string | boolean} [shared]
 */
async function selectGame(name, shared = false) {
  document.body.dataset.choosing = name;  // until the table's load is done (tests wait on it)
  leaveTable();
  hideHint();
  tableChosen(name, shared);  // nothing of the table left stays: its round, verdict, hint, message
  localStorage.setItem("riverboat-table", JSON.stringify({ game: name, shared }));  // back here after a reload
  const choice = ++choosing;
  const open = shared ? null : await api(`/api/games/${name}/open`).catch(() => null);  // a round left open
  if (choice !== choosing) return;  // another table (or this one again) chosen meanwhile
  if (typeof shared === "string") {  // a shared table's own rules: its variant's circles, limits and pays
    const own = await api(`/api/tables/${shared}/game`).catch(() => null);
    if (choice !== choosing) return;
    if (own) tableGameLoaded(own);
  }
  if (open) roundShown(open);
  showOwnRoads();  // this table's shoe's roads (a shared table's come with its snapshot)
  await showCommitment().catch((error) => say(error.message, "refusal"));  // a shared table shows its own
  if (choice !== choosing) return;
  if (shared) joinTable(shared === true ? name : String(shared));  // a lobby table's id (true: an old saved choice)
  // the table's prompt, unless something was said while it loaded (a refusal, or a key
  // pressed early): that is the newer news and stays
  if (state.message) { /* kept */ }
  else if (shared) say("A shared table: place your wagers and Bet; the cards come when every seat has bet, or when betting time runs out.");
  else if (open) say("Your round is still open: your decision.");
  else say("Tap a spot to place the selected chip; press and hold to clear it." +
    (touchOnly() ? "" : " By keyboard: Enter on a spot, Backspace clears it, ? lists the keys."));  // none on a touch screen alone
  store.flush();
  delete document.body.dataset.choosing;
}

// its seed shows now; the next coup starts a new shoe, with a new commitment that shows
// before Deal can be pressed again
const newShoe = () => oneAtATime(async () => {
  const { ended } = await api(`/api/games/${state.game}/shoe/end`, {});
  commitmentShown(null, false);
  say(ended
    ? "The shoe is done: its seed shows in History, and the next coup starts a new shoe."
    : "No shoe was in play: the next coup starts a new shoe.");
  await showCommitment().catch(() => {});
  loadHistory();
});

// the action bar sits over the page's foot: the page is padded by its height, and the
// hint sheet sits just above it
function padForTheBar() {
  const bar = $("action-bar");
  const pad = () => document.documentElement.style.setProperty("--bar-height", `${bar.offsetHeight}px`);
  new ResizeObserver(pad).observe(bar);
  pad();
}

// the table's keys, as at the terminal table (docs/web.md, the "?" overlay); none while
// the focus is in a text field or a dialog is open (Escape closes a dialog itself)
/** Whether the key's target takes text. @param {HTMLElement | null} element */
const typing = (element) => element && (element.isContentEditable || element.tagName === "TEXTAREA" || element.tagName === "SELECT" ||
  (element.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset"].includes(/** @type {HTMLInputElement} */ (element).type)));
/** A key's button pressed, when it shows and may be. @param {HTMLButtonElement | null | undefined} button */
const press = (button) => { if (button && !button.hidden && !button.disabled) button.click(); };

/**
 * The control `by` places on from the focused one among `container`'s, round the end;
 * from outside them, the first (forward) or the last.
 * @param {HTMLElement} container
 * @param {number} by
 * @returns {HTMLElement | null}
 */
function step(container, by) {
  const items = /** @type {HTMLElement[]} */ ([...container.children]);
  if (!items.length) return null;
  const at = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  return items[at < 0 ? (by > 0 ? 0 : items.length - 1) : (at + by + items.length) % items.length];
}

// a key that makes one of this game's decisions (pressed before the deal's answer came,
// it is said to be early, not silently dropped)
const decidesHere = (/** @type {string} */ key) => info().options.some((option) => decisionKey(option.action) === key);

/** @param {KeyboardEvent} event */
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const menu = $dialog("tables").open && /^[1-9]$/.test(key);  // the table menu takes a table's number
  if ((document.querySelector("dialog[open]") && !menu) || typing(/** @type {HTMLElement | null} */ (event.target))) return;
  const open = state.round && state.round.status === ROUND.open;
  let handled = true;
  if (key === "?") showKeys();
  else if (key === "Escape") {
    hideHint();
    if (!$("history").hidden) toggleHistory();
  } else if (/^[1-9]$/.test(key)) press(/** @type {HTMLCollectionOf<HTMLButtonElement>} */ ($("games").children)[Number(key) - 1]);
  else if (key === "ArrowUp" || key === "ArrowDown") {
    const spot = step($("spots"), key === "ArrowDown" ? 1 : -1);
    if (spot) spot.focus();
  } else if (key === "ArrowLeft" || key === "ArrowRight") {
    const chips = info().chips, at = chips.indexOf(state.chip);
    chipChosen(chips[Math.min(chips.length - 1, Math.max(0, at + (key === "ArrowRight" ? 1 : -1)))]);
    $("announce").textContent = `The $${state.chip / 100} chip.`;  // the result stays in the message line
  } else if (open && $("choices").querySelector(`[data-key="${key}"]`)) press(/** @type {HTMLButtonElement} */ ($("choices").querySelector(`[data-key="${key}"]`)));
  else if (state.busy && !open && decidesHere(key)) say(`The cards are still coming: press ${key.toUpperCase()} again once they show.`);
  else if ((key === "d" || key === "g") && !open && (state.busy || state.committing)) say(`The next deal's commitment is on its way: press ${key.toUpperCase()} again in a moment.`);
  else if (key === "d") press($button("deal"));
  else if (key === "g") press($button("replay"));
  else if (key === "b" && !open && !$("blind-label").hidden) $("blind-toggle").click();
  else if (key === "u" && !open) press($button("undo"));
  else if (key === "x" && !open) press($button("clear"));
  else if (key === "w" && !open) press($button("double"));
  else if (key === "n") press($button("new-shoe"));
  else if (key === "h") press($button("hint"));
  else if (key === "c") toggleCoach();
  else if (key === "s") openSettings();
  else if (key === "t") press($button("rules"));
  else if (key === "l") press($button("logo"));
  else if (key === "y") press($button("history-toggle"));
  else if (key === "v") press($button("fairness-toggle"));
  else handled = false;
  if (handled) event.preventDefault();
}

async function start() {
  Object.assign(on, { select: selectGame, place, decide: coached(decide) });
  wireViews();
  setupCoach();
  setupMessages();
  setupSettings();
  setupSharedClock();
  // a table that asks for a log-in (the session ended): the log-in, then the same seat
  onLogInAsked(async (table) => {
    const game = String(state.game);
    await signIn();
    await refreshBalance();
    if (state.game === game) await selectGame(game, table);
  });
  gamesLoaded(await api("/api/games"));
  await loadLobby();
  const response = await fetch("/api/me");
  if (response.status === 401) await signIn();
  $button("logout").onclick = async () => {
    $button("logout").disabled = true;
    try {
      await api("/api/logout", {});
      location.reload();
    } catch (error) {
      say(/** @type {Error} */ (error).message, "refusal");
      $button("logout").disabled = false;
    }
  };
  $("deal").onclick = () => { focusAfterDeal(); deal(false); };
  $("replay").onclick = () => { focusAfterDeal(); deal(true); };
  $("undo").onclick = undo;
  $("clear").onclick = clearAll;
  $("double").onclick = double;
  $("refill").onclick = refill;
  $("chip-toggle").onclick = toggleTray;
  $("hint").onclick = hint;
  $("new-shoe").onclick = newShoe;
  $("logo").onclick = openTables;
  $("lobby-open").onclick = openTables;  // the lobby: sit at another shared table
  $("leave").onclick = () => selectGame(String(state.game), false);  // the seat goes; this game's own table
  $("rules").onclick = payTable;
  $("fairness-toggle").onclick = openFairness;
  padForTheBar();
  $("history-toggle").onclick = toggleHistory;
  $("keys-toggle").onclick = showKeys;
  document.addEventListener("keydown", onKey);
  const last = JSON.parse(localStorage.getItem("riverboat-table") || "null");
  const table = last && last.shared && lobbyTable(last.shared === true ? last.game : last.shared);
  const known = last && gameOf(last.game) && (!last.shared || table);
  await selectGame(known ? last.game : state.games[0].game, known && last.shared ? table.id : false);  // else the first game
  await refreshBalance();
  await loadHistory();
}

start().catch((error) => say(error.message, "refusal"));
