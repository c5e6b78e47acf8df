// The operators' log: every change the office made, newest first, a page at a time
// (Older asks for the ones before the last shown: the server's `before`).
import { call, said } from "./office-api.js";
import { element, escape, timeHtml } from "./office-format.js";
import { ACTIONS, actionDetail } from "./office-players.js";
import { $, $button } from "./state.js";

/** @typedef {import("../../typing/api").SchemaActionView} ActionView */

const PAGE = 25;
/** @type {{ shown: ActionView[], more: boolean }} */
const here = { shown: [], more: false };

/** @param {ActionView} a */
function entryHtml(a) {
  const whom = a.player === null ? "" : a.player_id === null ? ` · ${escape(a.player)}` : ` · <a href="#players/${a.player_id}">${escape(a.player)}</a>`;
  const txn = a.transaction_id === null ? "" : `<span class="entry-more">transaction #${a.transaction_id}</span>`;
  return `<li class="entry" data-action="${a.id}"><span class="entry-what"><strong>${escape(ACTIONS[a.action] || a.action)}</strong>${whom}</span>` +
    `${actionDetail(a)}<span class="entry-when">${timeHtml(a.at)} · by ${escape(a.by)}</span>${txn}<q class="entry-reason">${escape(a.reason)}</q></li>`;
}

/** A page of the log: the newest (`older` false) or the one after those shown. @param {boolean} older */
async function loadLog(older) {
  const list = $("log-list"), more = $button("log-more"), error = $("log-error");
  const before = older && here.shown.length ? `&before=${here.shown[here.shown.length - 1].id}` : "";
  list.setAttribute("aria-busy", "true");
  more.disabled = true;
  try {
    /** @type {ActionView[]} */
    const page = await call(`/api/office/actions?limit=${PAGE}${before}`);
    error.textContent = "";
    here.shown = older ? [...here.shown, ...page] : page;
    here.more = page.length === PAGE;
    if (older) list.append(...page.map((a) => element(entryHtml(a))));
    else list.innerHTML = page.length ? page.map(entryHtml).join("") : `<li class="office-note">Nothing yet.</li>`;
    more.hidden = !here.more;
  } catch (refused) {
    error.textContent = said(refused);
  } finally {
    list.setAttribute("aria-busy", "false");
    more.disabled = false;
  }
}

/** The log's screen: its newest page, asked again each time it is shown. */
export function showLog() { loadLog(false); }

export function wireLog() { $button("log-more").onclick = () => loadLog(true); }

export function forgetLog() {
  here.shown = [];
  $("log-list").replaceChildren();
}
