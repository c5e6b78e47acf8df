// riverboat's table in the browser: the wiring. Choosing a table, and the page's
// buttons bound to what they do; the parts live in the modules beside this one.
import { api } from "./api.js";
import { $, gameOf, info, say, state, tableKey } from "./state.js";
import { on, renderGames, renderRound, renderSpots } from "./felt.js";
import { forgetCommitment, showCommitment } from "./fairness.js";
import { refreshBalance } from "./bank.js";
import { hideHint, hint, loadHistory, payTable, signIn, toggleHistory } from "./overlays.js";
import { joinTable, leaveTable } from "./shared.js";
import { deal, decide, oneAtATime, place } from "./play.js";
import { showOwnRoads } from "./roads.js";

async function selectGame(name, shared = false) {
  leaveTable();
  hideHint();
  forgetCommitment();  // this table's own is fetched below, or by a deal sent before it comes
  state.game = name;
  state.shared = shared;
  localStorage.setItem("riverboat-table", JSON.stringify({ game: name, shared }));  // back here after a reload
  state.round = shared ? null : await api(`/api/games/${name}/open`).catch(() => null);  // a round left open
  state.wagers = state.last[tableKey()] ? { ...state.last[tableKey()] } : {};
  $("logo").textContent = shared ? `${info().title} · shared` : info().title;
  $("shared").hidden = !shared;
  renderGames();
  renderSpots();
  renderRound();
  showOwnRoads();  // this table's shoe's roads (a shared table's come with its snapshot)
  await showCommitment().catch((error) => say(error.message));  // a shared table shows its own
  if (shared) {
    joinTable(name);
    say("A shared table: place your wagers and Bet; the cards come when every seat has bet, or when betting time runs out.");
  } else if (state.round) {
    state.wagers = { ...state.round.wagers };
    renderSpots();
    say("Your round is still open: your decision.");
  } else say("Tap a spot to place the selected chip; press and hold to clear it.");
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

async function start() {
  Object.assign(on, { select: selectGame, place, decide });
  state.games = await api("/api/games");
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
  $("logo").onclick = payTable;
  $("history-toggle").onclick = toggleHistory;
  const last = JSON.parse(localStorage.getItem("riverboat-table") || "null");
  const known = last && gameOf(last.game) && (!last.shared || gameOf(last.game).shared);
  await selectGame(known ? last.game : state.games[0].game, known && last.shared);  // else the first game
  await refreshBalance();
  await loadHistory();
}

start().catch((error) => say(error.message));
