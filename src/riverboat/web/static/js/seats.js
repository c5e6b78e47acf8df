// A shared table's company, drawn on the felt: a place for every seat along the rail
// (seat 1 at the dealer's left, the right end of the arc as the players face the
// dealer), each with its player's name, their chips by line as the server reports
// them, and whether they have bet or decided; the free seats as empty places. Above
// them, the table's clock as a ring with its seconds; under the felt, who sat down
// and who left, told through the polite live region too.
//
// Everything here comes from the table's snapshots (a `table` message): the server
// never sends another seat's cards, and a name is only ever set as text.
import { $, info, money } from "./state.js";
import { chipStackHtml } from "./chips-stack.js";
import { PHASE, SEAT } from "./states.js";

/** @typedef {import("./state.js").TableSnapshot} TableSnapshot */
/** @typedef {import("./state.js").Wagers} Wagers */
/** @typedef {import("../../typing/api").SchemaSeatView} SeatView */
/** @typedef {import("./states.js").SeatState} SeatState */
/**
 * @typedef {object} Company
 * @property {Map<string, SeatView> | null} seen the seats last drawn, by number and name
 * @property {number} closes when the clock runs out, in ms since the epoch
 * @property {number} total the clock's whole time, in seconds
 * @property {ReturnType<typeof setInterval> | null} ticker the clock's ticking
 * @property {string[]} news the lines of news shown, newest first
 * @property {string[]} telling the lines still to be told to the live region
 * @property {ReturnType<typeof setTimeout> | null} told the telling's timer
 */

// what this module keeps between snapshots: the seats last drawn (to tell joins and
// leaves), the clock's deadline, and the lines of news
/** @returns {Company} */
const fresh = () => ({ seen: null, closes: 0, total: 0, ticker: null, news: [], telling: [], told: null });
const company = fresh();
const NEWS_KEPT = 3;

/** A table's snapshot: its seats around the felt, its clock, and who came and went. @param {TableSnapshot} table */
export function drawCompany(table) {
  drawSeats(table);
  drawClock(table);
  tellComings(table);
}

/** Leaving the table: its seats, clock and news go. */
export function clearCompany() {
  clearInterval(company.ticker ?? undefined);
  clearTimeout(company.told ?? undefined);
  Object.assign(company, fresh());
  $("seats").replaceChildren();
  $("seats").hidden = true;
  $("table-summary").hidden = true;
  $("table-clock").hidden = true;
  $("seat-news").replaceChildren();
}

// ------------------------------------------------------------------ the seats
// a line's short name on a seat's chips, from its label in the game's spec
// ("Super Bonus": SB, "Tie": T); the whole label is in the seat's sentence
/** @param {string} label */
const short = (label) => label.split(/\s+/).map((word) => word[0]).join("").toUpperCase();

/** @param {string} name */
function lineLabel(name) {
  const line = (info().lines || []).find((l) => l.name === name) || info().wagers.find((w) => w.name === name);
  return line ? line.label : name;
}

/** @param {string} tag @param {string} [className] @param {string} [text] @returns {HTMLElement} */
function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

// the lines in the order the game's spec lists them (its felt's order), any other after
/** @param {Wagers | null} wagers @returns {[string, number][]} */
function ordered(wagers) {
  const order = (info().lines || info().wagers).map((line) => line.name);
  const at = (/** @type {string} */ name) => (order.includes(name) ? order.indexOf(name) : order.length);
  return Object.entries(wagers || {}).filter(([, amount]) => amount > 0).sort(([a], [b]) => at(a) - at(b));
}

/** @param {Wagers} wagers @param {boolean} blind */
function betsElement(wagers, blind) {
  const bets = element("span", `seat__bets${blind ? " seat__bets--blind" : ""}`);
  if (blind) bets.append(element("span", "seat__blind", "Blind"));
  for (const [name, amount] of ordered(wagers)) {
    const bet = element("span", "seat__bet");
    bet.dataset.line = name;
    bet.insertAdjacentHTML("beforeend", chipStackHtml(amount, info().chips));  // chips only: no text of anyone's
    bet.append(element("span", "seat__amount", money(amount)), element("span", "seat__line", short(lineLabel(name))));
    bets.append(bet);
  }
  return bets;
}

/** @param {Wagers} wagers */
function betsInWords(wagers) {
  return ordered(wagers).map(([name, amount]) => `${lineLabel(name)} ${money(amount)}`).join(", ");
}

// where a seat stands (the server's state of it), in words: a tick once decided (or
// bet), else what it waits on
/** @type {Readonly<Record<SeatState, string>>} */
const PROGRESS = Object.freeze({
  [SEAT.waiting]: "no bet yet", [SEAT.bet]: "✓ bet", [SEAT.out]: "sitting out this hand",
  [SEAT.deciding]: "deciding…", [SEAT.decided]: "✓ decided",
});

/** @param {SeatView} seat @returns {[SeatState, string]} */
export const progress = (seat) => [seat.state, PROGRESS[seat.state]];

/** @param {SeatView} seat */
function seatElement(seat) {
  const [kind, words] = progress(seat);
  const place = element("li", `seat seat--taken seat--${kind}${seat.you ? " seat--you" : ""}`);
  place.dataset.seat = String(seat.seat);
  const shown = element("span", "seat__shown");
  shown.setAttribute("aria-hidden", "true");
  const head = element("span", "seat__head");
  head.append(element("span", "seat__number", String(seat.seat)));
  const name = element("span", "seat__name", seat.name);
  name.title = seat.name;
  head.append(name);
  if (seat.you) head.append(element("span", "seat__you", "you"));
  shown.append(head);
  if (seat.wagers) shown.append(betsElement(seat.wagers, false));
  if (seat.second_wagers) shown.append(betsElement(seat.second_wagers, true));
  shown.append(element("span", "seat__state", words));
  const bets = seat.wagers ? `, ${betsInWords(seat.wagers)}` : "";
  const blind = seat.second_wagers ? `, blind second hand ${betsInWords(seat.second_wagers)}` : "";
  const said = `Seat ${seat.seat}: ${seat.name}${seat.you ? " (you)" : ""}${bets}${blind}; ${words.replace("✓ ", "")}.`;
  place.append(element("span", "visually-hidden", said), shown);
  return place;
}

/** @param {number} number */
function freeElement(number) {
  const place = element("li", "seat seat--free");
  place.dataset.seat = String(number);
  const shown = element("span", "seat__shown");
  shown.setAttribute("aria-hidden", "true");
  shown.append(element("span", "seat__number", String(number)), element("span", "seat__free", "free"));
  place.append(element("span", "visually-hidden", `Seat ${number}: free.`), shown);
  return place;
}

/** @param {TableSnapshot} table */
function drawSeats(table) {
  drawSummary(table);
  if (table.seats_free === null || table.seats_free === undefined) return drawShown(table);
  const total = table.seats.length + table.seats_free;
  const byNumber = new Map(table.seats.map((seat) => [seat.seat, seat]));
  // a seat from an older server without numbers takes the next place
  let next = 1;
  for (const seat of table.seats.filter((s) => !s.seat)) {
    while (byNumber.has(next)) next += 1;
    byNumber.set(next, { ...seat, seat: next });
  }
  /** @type {HTMLElement[]} */
  const places = [];
  for (let number = 1; number <= Math.max(total, byNumber.size); number += 1) {
    const seat = byNumber.get(number);
    const place = seat ? seatElement(seat) : freeElement(number);
    places.push(alongTheRail(place, number - 1, total));
  }
  $("seats").replaceChildren(...places);
  $("seats").hidden = false;
}

// along the rail's curve: the middle places lowest, the ends raised and turned
/** @param {HTMLElement} place @param {number} at @param {number} total */
function alongTheRail(place, at, total) {
  const along = total > 1 ? (at / (total - 1)) * 2 - 1 : 0;  // 1 (right end) to -1
  place.style.setProperty("--lift", String((along * along).toFixed(3)));
  place.style.setProperty("--turn", String((-along).toFixed(3)));
  return place;
}

// a table with no seat limit (a Baccarat shoe): the seats the server shows (yours and
// the first few others), each in its own place along the rail, and no free places
/** @param {TableSnapshot} table */
function drawShown(table) {
  const shown = [...table.seats].sort((a, b) => a.seat - b.seat);
  $("seats").replaceChildren(...shown.map((seat, at) => alongTheRail(seatElement(seat), at, shown.length)));
  $("seats").hidden = false;
}

// everyone at the table in one line: how many sit there and their chips on each line
// (the seats drawn are only some of them at a big table)
/** @param {TableSnapshot} table */
function drawSummary(table) {
  const summary = $("table-summary");
  const players = table.players || table.seats.length;
  const others = players - table.seats.length;
  const spots = ordered(table.on_spots || null).map(([name, amount]) => `${lineLabel(name)} ${money(amount)}`);
  summary.hidden = others <= 0 && table.seats_free !== null;
  const who = `${players.toLocaleString("en-US")} player${players === 1 ? "" : "s"} at the table`;
  const unseen = others > 0 ? ` (${others.toLocaleString("en-US")} not shown)` : "";
  summary.textContent = `${who}${unseen}${spots.length ? ` · on the felt: ${spots.join(" · ")}` : ""}`;
}

// ------------------------------------------------------------------ the clock
// the ring empties as the seconds run out; the seconds are in it, what they count to
// beside it; the action bar's clock says the same in words
/** @param {TableSnapshot} table */
function drawClock(table) {
  clearInterval(company.ticker ?? undefined);
  const clock = $("table-clock");
  clock.hidden = table.phase === PHASE.closed;
  const running = table.seconds_left !== null && table.seconds_left !== undefined;
  company.closes = Date.now() + (table.seconds_left || 0) * 1000;
  company.total = Math.max(table.seconds_total || table.seconds_left || 0, 0.001);
  clock.classList.toggle("table-clock--idle", !running);
  const counts = table.phase === PHASE.deciding ? "Decisions close" : table.phase === PHASE.betting ? "Next deal" : "Settling";
  $("table-clock-label").textContent = running ? counts : table.phase === PHASE.betting ? "Clock starts at the first bet" : "Settling the hand";
  const tick = () => {
    const left = running ? Math.max(0, (company.closes - Date.now()) / 1000) : company.total;
    const shown = Math.ceil(left);
    $("table-clock-seconds").textContent = running ? `${shown} s` : "–";
    clock.classList.toggle("table-clock--soon", running && shown <= 5);
    $("table-clock-left").style.strokeDashoffset = String(100 - (100 * Math.min(1, left / company.total)));
    clock.setAttribute("aria-label", running ? `${counts} in ${shown} seconds` : $("table-clock-label").textContent);
  };
  tick();
  if (running) company.ticker = setInterval(tick, 250);
}

// ------------------------------------------------------------------ comings and goings
// told from one snapshot to the next: a name that appears sat down, one that is gone
// left (the first snapshot at a table tells nothing: everyone was there already)
/** @param {TableSnapshot} table */
function tellComings(table) {
  if ((table.players || 0) > table.seats.length) {  // not everyone shown: the summary counts them
    company.seen = null;
    return;
  }
  const now = new Map(table.seats.map((seat) => [`${seat.seat}:${seat.name}`, seat]));
  const before = company.seen;
  company.seen = now;
  if (!before) return;
  /** @type {string[]} */
  const lines = [];
  for (const [key, seat] of now) if (!before.has(key) && !seat.you) lines.push(`${seat.name} sat down`);
  for (const [key, seat] of before) if (!now.has(key) && !seat.you) lines.push(`${seat.name} left`);
  if (!lines.length) return;
  company.news = [...lines, ...company.news].slice(0, NEWS_KEPT);
  $("seat-news").replaceChildren(...company.news.map((line, i) => element("span", i < lines.length ? "seat-news__new" : "", line)));
  // after the message line's own sentence, which reaches the live region 60 ms after it
  company.telling.push(...lines);
  clearTimeout(company.told ?? undefined);
  company.told = setTimeout(() => {
    $("announce").textContent = `${company.telling.join(". ")}.`;
    company.telling = [];
  }, 120);
}
