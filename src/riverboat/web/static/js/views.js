// The views, each subscribed to the keys of the state it draws: a change through any
// action redraws what shows it, once, and nothing else. Wired once, at start.
import { $, state, store } from "./state.js";
import { renderHands, renderSpots } from "./felt.js";
import { renderChips, renderChoices, renderButtons, renderGames } from "./controls.js";
import { drawBank } from "./bank.js";
import { drawMessage } from "./messages.js";
import { drawVerdict } from "./coach.js";
import { drawHint } from "./overlays.js";

export function wireViews() {
  const { watch } = store;
  // the table menu's list and the header's table name
  watch(["games", "tableGame", "lobby", "game", "shared"], () => { if (state.game) renderGames(); });
  // the felt: its cloth and circles (the chips on them), and the hands and banner
  watch(["games", "tableGame", "game", "wagers", "round", "passed"], () => { if (state.game) renderSpots(); });
  watch(["games", "tableGame", "game", "round", "passed"], () => { if (state.game) renderHands(); });
  // the action bar: the chip tray, the decisions and which buttons can be pressed
  watch(["games", "tableGame", "game", "chip", "balance", "wagers"], () => { if (state.game) renderChips(); });
  watch(["games", "tableGame", "game", "round", "shared"], () => { if (state.game) renderChoices(); });
  watch(["busy", "committing", "placing", "hinting", "table", "last", "undo", "wagers", "balance"], () => { if (state.game) renderButtons(); });
  // the header's money, the status line, the coach's verdict and the hint
  watch(["balance", "wagers", "round", "session", "lastWin", "signedIn", "games", "tableGame", "game"], drawBank);
  watch(["message"], drawMessage);
  watch(["verdict", "round", "game", "shared"], drawVerdict);
  watch(["hint", "round", "game", "shared"], drawHint);
  // the page says which table is in view (tests and styles read it)
  watch(["game", "shared"], () => {
    document.body.dataset.table = state.game || "";
    $("shared").hidden = !state.shared;
  });
}
