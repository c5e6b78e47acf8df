// The back office's page (/office): who is here (an operator, a player who is not one,
// or nobody: the log-in form), and the four screens an operator moves between by the
// tabs or by links (the address's #players/7, #recall/42, #log, #hold): the players
// and a player's file, game recall, the operators' log, and hold against theory. What
// it shows comes from /api/office, for operators only; a session that ends or stops
// being an operator's while the page is open is noticed at its next request.
import { call, said, whenRefusedAccess } from "./office-api.js";
import { closeDialogs, forgetPlayers, showPlayers, wirePlayers } from "./office-players.js";
import { forgetRecall, showRecall, wireRecall } from "./office-recall.js";
import { forgetLog, showLog, wireLog } from "./office-log.js";
import { forgetHold, showHold, wireHold } from "./office-hold.js";
import { gamesLoaded } from "./actions.js";
import { $, $button, $input } from "./state.js";

/** @typedef {import("../../typing/api").SchemaOperatorView} OperatorView */
/** @typedef {"players" | "recall" | "log" | "hold"} View */

/** @type {Record<View, string>} */
const TITLES = { players: "Players", recall: "Game recall", log: "Operators' log", hold: "Hold against theory" };
const ROUTE = /^#(players|recall|log|hold)(?:\/(\d{1,10}))?$/;

/** @type {{ operator: OperatorView | null, typed: string, fromTabs: boolean, checking: boolean }} */
const here = { operator: null, typed: "", fromTabs: false, checking: false };

/** Only this part of the page shown: the log-in form, the refusal, or the desk. @param {"login-view" | "refused-view" | "desk" | "starting"} id */
function only(id) {
  for (const part of ["starting", "login-view", "refused-view", "desk"]) $(part).hidden = part !== id;
  const desk = id === "desk";
  $("tabs").hidden = !desk;
  $("operator").hidden = !desk;
  $("logout").hidden = id === "login-view" || id === "starting";
}

/** Everything an operator saw, forgotten (a log-out, a session ended). */
function forget() {
  here.operator = null;
  closeDialogs();
  forgetPlayers();
  forgetRecall();
  forgetLog();
  forgetHold();
}

/** The log-in form, with why it shows. @param {string} why */
function showLogin(why) {
  forget();
  only("login-view");
  document.title = "Log in · riverboat back office";
  $("login-said").textContent = why;
  $("login-error").textContent = "";
  $input("login-password").value = "";
  $input(here.typed ? "login-password" : "login-name").focus();
}

/** Logged in, but not as an operator (the server's 403). */
function showRefused() {
  forget();
  only("refused-view");
  document.title = "Not an operator · riverboat back office";
  const who = here.typed ? `You are logged in as ${here.typed}, who is not an operator` : "This account is not an operator's";
  $("refused-text").textContent = `${who}: the back office is for the house's operators. Log out to log in as one.`;
  $("refused-title").focus();
}

/** Who this session is, asked again: the desk, the log-in form or the refusal.
 * @param {boolean} focus the desk's first place takes the focus (after a log-in) */
async function enter(focus) {
  try {
    /** @type {OperatorView} */
    const me = await call("/api/office/me");
    await openDesk(me, focus);
  } catch (error) {
    const status = /** @type {{ status?: number }} */ (error).status;
    if (status === 401) showLogin("");
    else if (status === 403) showRefused();
    else {
      only("starting");
      $("starting").textContent = `The back office could not start: ${said(error)}. Reload the page to try again.`;
    }
  }
}

/** @param {OperatorView} me @param {boolean} focus */
async function openDesk(me, focus) {
  here.operator = me;
  $("operator").textContent = me.name;
  try {
    gamesLoaded(await call("/api/games"));
  } catch { /* the games' titles and cards: the names and codes stand in for them */ }
  only("desk");
  route(focus);
}

// a 401 or a 403 from any request: the session ended (log in again), is no operator's
// now (the refusal), or neither (a wrong password, a credit to oneself: said where it
// was refused)
async function recheck() {
  if (!here.operator || here.checking) return;
  here.checking = true;
  try {
    await call("/api/office/me");
  } catch (error) {
    const status = /** @type {{ status?: number }} */ (error).status;
    if (status === 401) showLogin("Your session has ended: log in again.");
    else if (status === 403) showRefused();
  } finally { here.checking = false; }
}

/** The screen the address names, shown. @param {boolean} focus whether its first place takes the focus */
function route(focus) {
  if (!here.operator) return;
  const found = ROUTE.exec(location.hash);
  const view = /** @type {View} */ (found ? found[1] : "players"), id = found && found[2] ? Number(found[2]) : null;
  for (const section of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#desk > .view"))) section.hidden = section.dataset.view !== view;
  for (const tab of $("tabs").querySelectorAll("a")) {
    if (tab.getAttribute("data-view") === view) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  document.title = `${TITLES[view]} · riverboat back office`;
  if (view === "players") showPlayers(id, focus);
  else if (view === "recall") showRecall(id, focus);
  else if (view === "log") showLog();
  else showHold();
  if (focus && id === null && view !== "players" && view !== "recall") $(`${view}-title`).focus();
}

function wireSession() {
  const form = /** @type {HTMLFormElement} */ ($("login-form"));
  form.noValidate = true;
  form.onsubmit = async (event) => {
    event.preventDefault();
    const name = $input("login-name").value.trim(), password = $input("login-password").value;
    const error = $("login-error"), button = /** @type {HTMLButtonElement} */ (form.querySelector("button"));
    if (!name || !password) {
      error.textContent = name ? "your password, please" : "your name, please";
      $input(name ? "login-password" : "login-name").focus();
      return;
    }
    button.disabled = true;
    error.textContent = "";
    try {
      await call("/api/login", { name, password });
      here.typed = name;
      $input("login-password").value = "";
      await enter(true);
    } catch (refused) {
      error.textContent = said(refused);
      $input("login-password").select();
    } finally { button.disabled = false; }
  };
  const logOut = async () => {
    try { await call("/api/logout", {}); } catch { /* gone already: the form either way */ }
    here.typed = "";
    showLogin("You are logged out.");
  };
  $button("logout").onclick = logOut;
  $button("refused-logout").onclick = logOut;
  // a tab keeps the focus (it says where one is); a link in a screen moves it to what it opened
  $("tabs").addEventListener("click", () => { here.fromTabs = true; });
  addEventListener("hashchange", () => {
    const focus = !here.fromTabs;
    here.fromTabs = false;
    route(focus);
  });
}

wirePlayers();
wireRecall();
wireLog();
wireHold();
wireSession();
whenRefusedAccess(recheck);
enter(false);
