// riverboat's table in the browser: the wiring. Choosing a table, and the page's
// buttons bound to what they do; the parts live in the modules beside this one.
import { api } from "./api.js";
import { $, gameOf, info, say, state, tableKey } from "./state.js";
import { on } from "./felt.js";
import { decisionKey, openTables, renderGames } from "./controls.js";
import { renderRound, renderSpots } from "./render.js";
import { forgetCommitment, openFairness, showCommitment } from "./fairness.js";
import { refreshBalance } from "./bank.js";
import { hideHint, hint, payTable, showKeys, signIn } from "./overlays.js";
import { loadHistory, toggleHistory } from "./history.js";
import { joinTable, leaveTable } from "./shared.js";
import { deal, decide, oneAtATime, place } from "./play.js";
import { showOwnRoads } from "./roads.js";
import { coached, setupCoach, toggleCoach } from "./coach.js";
import { loadLobby, lobbyTable } from "./lobby.js";
import "./install.js";  // the service worker, registered after load; the page without its server

async function selectGame(name, shared = false) {
  const same = name === state.game && shared === state.shared;  // chips on it stay
  document.body.dataset.choosing = name;  // until the table's load is done (tests wait on it)
  leaveTable();
  hideHint();
  forgetCommitment();  // this table's own is fetched below, or by a deal sent before it comes
  state.game = name;
  state.shared = shared;
  localStorage.setItem("riverboat-table", JSON.stringify({ game: name, shared }));  // back here after a reload
  state.round = null;
  if (!same) state.wagers = state.last[tableKey()] ? { ...state.last[tableKey()] } : {};
  $("shared").hidden = !shared;
  renderGames();
  renderSpots();
  renderRound();
  const choice = ++state.choosing;
  const open = shared ? null : await api(`/api/games/${name}/open`).catch(() => null);  // a round left open
  if (choice !== state.choosing) return;  // another table (or this one again) chosen meanwhile
  state.round = open;
  showOwnRoads();  // this table's shoe's roads (a shared table's come with its snapshot)
  await showCommitment().catch((error) => say(error.message));  // a shared table shows its own
  if (shared) {
    joinTable(shared === true ? name : shared);  // a lobby table's id (true: an old saved choice)
    say("A shared table: place your wagers and Bet; the cards come when every seat has bet, or when betting time runs out.");
  } else if (state.round) {
    state.wagers = { ...state.round.wagers };
    renderSpots();
    renderRound();
    say("Your round is still open: your decision.");
  } else say("Tap a spot to place the selected chip; press and hold to clear it. By keyboard: Enter on a spot, Backspace clears it, ? lists the keys.");
  delete document.body.dataset.choosing;
}

// its seed shows now; the next coup starts a new shoe, with a new commitment that shows
// before Deal can be pressed again
const newShoe = () => oneAtATime(async () => {
  const { ended } = await api(`/api/games/${state.game}/shoe/end`, {});
  forgetCommitment();
  say(ended
    ? "The shoe is done: its seed shows in History, and the next coup starts a new shoe."
    : "No shoe was in play: the next coup starts a new shoe.");
  await showCommitment().catch(() => {});
  loadHistory();
});

// every sentence in the message line (a result, a refusal, a prompt) is read out once
// through the polite live region, which keeps the last one for a screen reader to
// reread; emptied first, so the same refusal twice is heard twice
function announceMessages() {
  let pending = null;
  new MutationObserver(() => {
    const text = $("message").textContent;
    clearTimeout(pending);
    if (!text) return;
    $("announce").textContent = "";
    pending = setTimeout(() => { $("announce").textContent = text; }, 60);
  }).observe($("message"), { childList: true, characterData: true, subtree: true });
}

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
const typing = (element) => element && (element.isContentEditable || element.tagName === "TEXTAREA" || element.tagName === "SELECT" ||
  (element.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset"].includes(element.type)));
const press = (button) => { if (button && !button.hidden && !button.disabled) button.click(); };

function step(container, by) {
  const items = [...container.children];
  if (!items.length) return null;
  const at = items.indexOf(document.activeElement);
  return items[at < 0 ? (by > 0 ? 0 : items.length - 1) : (at + by + items.length) % items.length];
}

// a key that makes one of this game's decisions (pressed before the deal's answer came,
// it is said to be early, not silently dropped)
const decidesHere = (key) => info().options.some((option) => decisionKey(option.action) === key);

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const menu = $("tables").open && /^[1-9]$/.test(key);  // the table menu takes a table's number
  if ((document.querySelector("dialog[open]") && !menu) || typing(event.target)) return;
  const open = state.round && state.round.status === "open";
  let handled = true;
  if (key === "?") showKeys();
  else if (key === "Escape") {
    hideHint();
    if (!$("history").hidden) toggleHistory();
  } else if (/^[1-9]$/.test(key)) press($("games").children[Number(key) - 1]);
  else if (key === "ArrowUp" || key === "ArrowDown") {
    const spot = step($("spots"), key === "ArrowDown" ? 1 : -1);
    if (spot) spot.focus();
  } else if (key === "ArrowLeft" || key === "ArrowRight") {
    const chips = info().chips, at = chips.indexOf(state.chip);
    state.chip = chips[Math.min(chips.length - 1, Math.max(0, at + (key === "ArrowRight" ? 1 : -1)))];
    renderSpots();
    $("announce").textContent = `The $${state.chip / 100} chip.`;  // the result stays in the message line
  } else if (open && $("choices").querySelector(`[data-key="${key}"]`)) press($("choices").querySelector(`[data-key="${key}"]`));
  else if (state.busy && !open && decidesHere(key)) say(`The cards are still coming: press ${key.toUpperCase()} again once they show.`);
  else if ((key === "d" || key === "g") && !open && (state.busy || state.committing)) say(`The next deal's commitment is on its way: press ${key.toUpperCase()} again in a moment.`);
  else if (key === "d") press($("deal"));
  else if (key === "g") press($("replay"));
  else if (key === "b" && !open && !$("blind-label").hidden) $("blind-toggle").click();
  else if (key === "n") press($("new-shoe"));
  else if (key === "h") press($("hint"));
  else if (key === "c") toggleCoach();
  else if (key === "t") press($("rules"));
  else if (key === "l") press($("logo"));
  else if (key === "y") press($("history-toggle"));
  else if (key === "v") press($("fairness-toggle"));
  else handled = false;
  if (handled) event.preventDefault();
}

async function start() {
  Object.assign(on, { select: selectGame, place, decide: coached(decide) });
  setupCoach();
  state.games = await api("/api/games");
  await loadLobby();
  const response = await fetch("/api/me");
  if (response.status === 401) await signIn();
  $("logout").onclick = async () => {
    $("logout").disabled = true;
    try {
      await api("/api/logout", {});
      location.reload();
    } catch (error) {
      say(error.message);
      $("logout").disabled = false;
    }
  };
  $("deal").onclick = () => deal(false);
  $("replay").onclick = () => deal(true);
  $("hint").onclick = hint;
  $("new-shoe").onclick = newShoe;
  $("logo").onclick = openTables;
  $("lobby-open").onclick = openTables;  // the lobby: sit at another shared table
  $("leave").onclick = () => selectGame(state.game, false);  // the seat goes; this game's own table
  $("rules").onclick = payTable;
  $("fairness-toggle").onclick = openFairness;
  padForTheBar();
  $("history-toggle").onclick = toggleHistory;
  $("keys-toggle").onclick = showKeys;
  announceMessages();
  document.addEventListener("keydown", onKey);
  const last = JSON.parse(localStorage.getItem("riverboat-table") || "null");
  const table = last && last.shared && lobbyTable(last.shared === true ? last.game : last.shared);
  const known = last && gameOf(last.game) && (!last.shared || table);
  await selectGame(known ? last.game : state.games[0].game, known && last.shared ? table.id : false);  // else the first game
  await refreshBalance();
  await loadHistory();
}

start().catch((error) => say(error.message));
