// Hold against theory: a period (the last day, week or 30 days, or one's own), a game
// or all, and the alarm's band; each game, variant and table's rounds, wagers, house
// win and hold beside the exact edges (optimal, and as the players played), the
// expected win and z, the alarm's rows marked; and for a chosen row a chart (SVG made
// here) of the house's win against the expected, with its band, over the report's points.
import { aborted, call, said } from "./office-api.js";
import { escape, money, percent, signed } from "./office-format.js";
import { gameTitle } from "./office-players.js";
import { $, $input, state } from "./state.js";

/** @typedef {import("../../typing/api").SchemaHoldReport} HoldReport */
/** @typedef {import("../../typing/api").SchemaHoldRow} HoldRow */
/** @typedef {import("../../typing/api").SchemaHoldPoint} HoldPoint */

const DAY = 24 * 3600 * 1000;
/** each period's length back from now, in ms */
const PERIODS = { day: DAY, week: 7 * DAY, month: 30 * DAY };
const BUCKET_MS = { hour: 3600 * 1000, day: DAY };

/** @type {{ asking: AbortController | null, report: HoldReport | null, chosen: number, width: number }} */
const here = { asking: null, report: null, chosen: -1, width: 0 };

/** The form's period as the query's `since` and `until` (ISO, UTC), or what is wrong with it. */
function chosenPeriod() {
  const period = /** @type {HTMLInputElement} */ (document.querySelector("input[name=period]:checked")).value;
  if (period !== "custom") {
    const back = PERIODS[/** @type {keyof typeof PERIODS} */ (period)];
    return { since: new Date(Date.now() - back).toISOString(), until: "" };
  }
  const since = $input("hold-since").value, until = $input("hold-until").value;
  if (!since && !until) return { error: "choose when the period begins, ends, or both", field: "hold-since" };
  const from = since ? new Date(since) : null, to = until ? new Date(until) : null;
  if (from && to && to <= from) return { error: "the period ends before it begins", field: "hold-until" };
  return { since: from ? from.toISOString() : "", until: to ? to.toISOString() : "" };
}

/** @param {SubmitEvent} [event] */
async function ask(event) {
  event?.preventDefault();
  const error = $("hold-error"), note = $("hold-said"), show = /** @type {HTMLButtonElement} */ ($("hold-form").querySelector("button.primary"));
  const chosen = chosenPeriod();
  if (chosen.error !== undefined) {
    error.textContent = chosen.error;
    $(chosen.field).focus();
    return;
  }
  const query = new URLSearchParams();
  if (chosen.since) query.set("since", chosen.since);
  if (chosen.until) query.set("until", chosen.until);
  const game = /** @type {HTMLSelectElement} */ ($("hold-game")).value;
  if (game) query.set("game", game);
  query.set("band", /** @type {HTMLSelectElement} */ ($("hold-band")).value);
  here.asking?.abort();
  const asking = here.asking = new AbortController();
  error.textContent = "";
  note.textContent = "Working out the report: seconds, longer for a game not analysed on this server yet…";
  show.disabled = true;
  $("hold-rows").setAttribute("aria-busy", "true");
  try {
    /** @type {HoldReport} */
    const report = await call(`/api/office/hold?${query}`, undefined, asking.signal);
    here.report = report;
    here.chosen = report.rows.findIndex((r) => r.alarm);
    if (here.chosen < 0 && report.rows.length) here.chosen = 0;
    drawReport();
  } catch (refused) {
    if (aborted(refused)) return;
    note.textContent = "";
    error.textContent = said(refused);
  } finally {
    if (here.asking === asking) {
      show.disabled = false;
      $("hold-rows").setAttribute("aria-busy", "false");
    }
  }
}

/** "12.3" or "−1.96": a z; "—" for none. @param {number | null} z */
const zText = (z) => (z === null ? "—" : z < 0 ? `−${Math.abs(z).toFixed(2)}` : z.toFixed(2));

/** Cents that may have a fraction (an expectation) as money, rounded to the cent. @param {number} cents */
const about = (cents) => money(Math.round(cents));

/** @param {HoldRow} row @param {number} i */
function rowHtml(row, i) {
  const title = `${gameTitle(row.game)} · ${row.variant} · ${row.table === "shared" ? "shared" : "own"} tables`;
  const alarm = row.alarm ? ` <span class="badge badge--alarm">Alarm</span>` : "";
  const cells = [
    ["Variant", escape(row.variant)],
    ["Table", row.table === "shared" ? "shared" : "own"],
    ["Rounds", `${row.rounds}${row.unweighed ? ` <span class="office-note">+${row.unweighed} left out</span>` : ""}`],
    ["Wagered", money(row.wagered)],
    ["House win", `<span class="net ${row.house_win > 0 ? "win" : row.house_win < 0 ? "loss" : "push"}">${signed(row.house_win)}</span>`],
    ["Hold", percent(row.hold)],
    ["Edge optimal", `<span title="${escape(row.edge_optimal_exact || "")}">${percent(row.edge_optimal, 3)}</span>`],
    ["Edge as played", `<span title="${escape(row.edge_played_exact || "")}">${percent(row.edge_played, 3)}</span>`],
    ["Expected", about(row.expected)],
    ["z", `<strong class="z${row.alarm ? " z--alarm" : ""}">${zText(row.z)}</strong>`],
  ];
  return `<tr class="${row.alarm ? "row--alarm" : ""}${i === here.chosen ? " row--chosen" : ""}" data-row="${i}">` +
    `<th scope="row" data-label="Game"><span class="row-game">${escape(gameTitle(row.game))}</span>${alarm}</th>` +
    cells.map(([label, value]) => `<td data-label="${label}" class="${label === "Variant" || label === "Table" ? "" : "figure-cell"}">${value}</td>`).join("") +
    `<td class="chart-cell"><button type="button" class="row-chart" data-row="${i}" aria-pressed="${i === here.chosen}" aria-label="Chart: ${escape(title)}">Chart</button></td></tr>`;
}

/** Why rounds were left out, summed over the rows. @param {HoldReport} report */
function leftOut(report) {
  /** @type {Record<string, number>} */
  const why = {};
  for (const row of report.rows) for (const [reason, n] of Object.entries(row.unweighed_reasons || {})) why[reason] = (why[reason] || 0) + n;
  const said_ = Object.entries(why).map(([reason, n]) => `${escape(reason)} (${n})`);
  return said_.length ? `<p class="office-note">Left out of the figures: ${said_.join("; ")}.</p>` : "";
}

function drawReport() {
  const report = /** @type {HoldReport} */ (here.report);
  const rounds = report.rows.reduce((sum, r) => sum + r.rounds, 0), alarms = report.rows.filter((r) => r.alarm).length;
  $("hold-said").textContent = report.rows.length
    ? `${rounds} round${rounds === 1 ? "" : "s"} weighed in ${report.rows.length} row${report.rows.length === 1 ? "" : "s"}; ` +
      `${alarms ? `${alarms} outside the band` : "none outside the band"} (${percent(report.band, 1)}: |z| over ${report.z_limit.toFixed(2)}).`
    : "No round was settled in this period.";
  if (!report.rows.length) {
    $("hold-rows").replaceChildren();
    $("hold-chart").hidden = true;
    return;
  }
  $("hold-rows").innerHTML = `<table class="hold-table stack"><caption class="visually-hidden">Hold against theory by game, variant and table</caption>` +
    `<thead><tr><th scope="col">Game</th><th scope="col">Variant</th><th scope="col">Table</th><th scope="col" class="figure-cell">Rounds</th>` +
    `<th scope="col" class="figure-cell">Wagered</th><th scope="col" class="figure-cell">House win</th><th scope="col" class="figure-cell">Hold</th>` +
    `<th scope="col" class="figure-cell">Edge optimal</th><th scope="col" class="figure-cell">Edge as played</th>` +
    `<th scope="col" class="figure-cell">Expected</th><th scope="col" class="figure-cell">z</th><th scope="col"><span class="visually-hidden">Chart</span></th></tr></thead>` +
    `<tbody>${report.rows.map(rowHtml).join("")}</tbody></table>${leftOut(report)}`;
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ ($("hold-rows").querySelectorAll("button.row-chart"))) {
    button.onclick = () => choose(Number(button.dataset.row));
  }
  drawChart();
}

/** @param {number} i */
function choose(i) {
  here.chosen = i;
  for (const row of $("hold-rows").querySelectorAll("tr[data-row]")) row.classList.toggle("row--chosen", row.getAttribute("data-row") === String(i));
  for (const button of $("hold-rows").querySelectorAll("button.row-chart")) button.setAttribute("aria-pressed", String(button.getAttribute("data-row") === String(i)));
  drawChart();
}

// ------------------------------------------------------------------ the chart
/** Round figures for an axis from `low` to `high`: about `count` of them. @param {number} low @param {number} high @param {number} count */
function ticks(low, high, count) {
  const raw = (high - low) / Math.max(1, count), power = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
  const found = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step / 1e6; v += step) found.push(Math.abs(v) < step / 1e6 ? 0 : v);
  return found;
}

/** Money on an axis, short: $1.2k, −$350. @param {number} cents */
function shortMoney(cents) {
  const dollars = Math.abs(cents) / 100, sign = cents < 0 ? "−" : "";
  if (dollars >= 1e6) return `${sign}$${+(dollars / 1e6).toFixed(1)}M`;
  if (dollars >= 1e4) return `${sign}$${+(dollars / 1e3).toFixed(1)}k`;
  return `${sign}$${(+dollars.toFixed(dollars < 10 ? 2 : 0)).toLocaleString("en-US")}`;
}

/** @param {Date} at @param {"hour" | "day"} bucket */
const timeLabel = (at, bucket) => at.toLocaleString(undefined, bucket === "hour" ? { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" } : { month: "short", day: "numeric" });

/** @param {[number, number][]} points */
const path = (points) => points.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join("");

function drawChart() {
  const report = here.report, figure = $("hold-chart");
  const row = report && here.chosen >= 0 ? report.rows[here.chosen] : null;
  if (!report || !row || !row.points.length) {
    figure.hidden = true;
    return;
  }
  figure.hidden = false;
  const area = $("hold-chart-area");
  const width = Math.max(260, Math.round(area.clientWidth || 600));
  here.width = width;
  const height = Math.round(Math.min(360, Math.max(200, width * 0.45)));
  const pad = { left: 58, right: 14, top: 12, bottom: 30 };
  const step = BUCKET_MS[report.bucket] || DAY;
  /** @type {{ at: number, actual: number, expected: number, spread: number }[]} */
  const series = [{ at: Date.parse(row.points[0].until) - step, actual: 0, expected: 0, spread: 0 },
    ...row.points.map((p) => ({ at: Date.parse(p.until), actual: p.actual, expected: p.expected, spread: report.z_limit * p.std_dev }))];
  const first = series[0].at, last = series[series.length - 1].at;
  const values = series.flatMap((p) => [p.actual, p.expected + p.spread, p.expected - p.spread]);
  let low = Math.min(0, ...values), high = Math.max(0, ...values);
  if (high - low < 1) { high += 50; low -= 50; }
  const margin = (high - low) * 0.06;
  low -= margin; high += margin;
  /** @param {number} at */
  const x = (at) => pad.left + ((at - first) / Math.max(1, last - first)) * (width - pad.left - pad.right);
  /** @param {number} cents */
  const y = (cents) => pad.top + ((high - cents) / (high - low)) * (height - pad.top - pad.bottom);
  const upper = series.map((p) => /** @type {[number, number]} */ ([x(p.at), y(p.expected + p.spread)]));
  const lower = series.map((p) => /** @type {[number, number]} */ ([x(p.at), y(p.expected - p.spread)])).reverse();
  const grid = ticks(low, high, Math.max(3, Math.floor(height / 60))).map((v) =>
    `<line class="grid${v === 0 ? " grid--zero" : ""}" x1="${pad.left}" x2="${width - pad.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/>` +
    `<text class="tick" x="${pad.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${shortMoney(v)}</text>`).join("");
  const labels = Math.max(2, Math.min(series.length, Math.floor((width - pad.left) / 110)));
  const shownAt = [...new Set(Array.from({ length: labels }, (_, i) => Math.round((i * (series.length - 1)) / Math.max(1, labels - 1))))];
  const times = shownAt.map((i, n) => {
    const anchor = n === 0 ? "start" : n === shownAt.length - 1 ? "end" : "middle";
    return `<text class="tick" x="${x(series[i].at).toFixed(1)}" y="${height - 8}" text-anchor="${anchor}">${escape(timeLabel(new Date(series[i].at), report.bucket))}</text>`;
  }).join("");
  const end = series[series.length - 1];
  const summary = `${gameTitle(row.game)}, ${row.variant}, ${row.table === "shared" ? "shared" : "own"} tables: ` +
    `the house won ${signed(row.house_win)} against ${about(row.expected)} expected, z ${zText(row.z)}` +
    `${row.alarm ? ", outside the band" : ", inside the band"} (±${report.z_limit.toFixed(2)} standard deviations).`;
  $("hold-chart-title").textContent = summary;
  area.innerHTML = `<svg class="hold-svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="hold-chart-title">` +
    `<path class="band" d="${path([...upper, ...lower])}Z"/>${grid}` +
    `<path class="expected" d="${path(series.map((p) => [x(p.at), y(p.expected)]))}"/>` +
    `<path class="actual${row.alarm ? " actual--alarm" : ""}" d="${path(series.map((p) => [x(p.at), y(p.actual)]))}"/>` +
    `<circle class="dot${row.alarm ? " actual--alarm" : ""}" cx="${x(end.at).toFixed(1)}" cy="${y(end.actual).toFixed(1)}" r="4"/>${times}</svg>`;
}

// ------------------------------------------------------------------ wiring
/** The hold screen: asked for the first time it is shown. */
export function showHold() {
  const select = /** @type {HTMLSelectElement} */ ($("hold-game"));
  if (select.options.length === 1) {
    for (const game of state.games) select.add(new Option(game.title, game.game));
  }
  if (!here.report && !here.asking) ask();
}

export function wireHold() {
  const form = /** @type {HTMLFormElement} */ ($("hold-form"));
  form.noValidate = true;
  form.addEventListener("submit", ask);
  form.addEventListener("change", (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    if (target.name !== "period") return;
    $("hold-custom").hidden = target.value !== "custom";
    if (target.value !== "custom") form.requestSubmit();
    else $input("hold-since").focus();
  });
  new ResizeObserver(() => {
    const width = Math.round($("hold-chart-area").clientWidth);
    if (here.report && width && Math.abs(width - here.width) > 8) drawChart();
  }).observe($("hold-chart-area"));
}

export function forgetHold() {
  here.asking?.abort();
  here.asking = null;
  here.report = null;
  here.chosen = -1;
  $("hold-rows").replaceChildren();
  $("hold-said").textContent = "";
  $("hold-chart").hidden = true;
}
