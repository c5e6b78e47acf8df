// Game recall: any round by its id, as its player saw it and as it was dealt: who and
// where, the wagers, each hand's cards (the table's faces), the steps (wagers, deal,
// decisions, settlement), what each line won or lost, the commitment and the seeds
// once revealed, the ledger's lines, and whether it verifies.
import { aborted, call, said } from "./office-api.js";
import { escape, hashHtml, money, signed, timeHtml, tone } from "./office-format.js";
import { gameTitle } from "./office-players.js";
import { handsHtml } from "./minicards.js";
import { handsAfter, lineLabel, replaySteps, settlement } from "./record.js";
import { $, $input, gameOf } from "./state.js";

/** @typedef {import("../../typing/api").SchemaRecallView} RecallView */
/** @typedef {import("../../typing/api").SchemaLedgerLine} LedgerLine */
/** @typedef {import("./record.js").RoundRecord} RoundRecord */
/** @typedef {import("./record.js").Hands} Hands */

/** @type {{ asking: AbortController | null, shown: number | null }} */
const here = { asking: null, shown: null };

/** The verdict as a badge: verified, problems, or not yet (the seed is still secret). @param {RecallView} r */
function verdictHtml(r) {
  if (r.verified === true) return `<p class="verdict-badge verdict-badge--ok" data-verified="true"><strong>Verified</strong> the seed matches its commitment and the cards dealt come from the seeds</p>`;
  if (r.verified === false) {
    return `<div class="verdict-badge verdict-badge--bad" data-verified="false"><strong>Problems</strong>` +
      `<ul>${(r.problems.length ? r.problems : ["the verifier found it wrong"]).map((p) => `<li>${escape(p)}</li>`).join("")}</ul></div>`;
  }
  return `<p class="verdict-badge verdict-badge--wait" data-verified="none"><strong>Not verified yet</strong> the seed is shown once the ${r.table === "shared" ? "deal" : "round or its shoe"} ends</p>`;
}

/** Each hand's cards, as the table draws them (mini faces, named in words). @param {string} game @param {Hands} hands */
function cardsHtml(game, hands) {
  if (!gameOf(game)) {
    return Object.entries(hands).map(([key, cards]) => `<p><strong>${escape(key)}</strong> ${escape(cards.join(" "))}</p>`).join("");
  }
  return `<div class="recall-hands">${handsHtml(game, hands, { size: "mini" })}</div>`;
}

/** The wagers each position placed, by line. @param {RecallView} r */
function wagersHtml(r) {
  const game = gameOf(r.seen.game);
  /** @param {string} line */
  const label = (line) => (game ? lineLabel(game, line) : line);
  const rows = Object.entries(r.seen.stakes && Object.keys(r.seen.stakes).length ? r.seen.stakes : r.seen.wagers)
    .filter(([, cents]) => cents)
    .map(([line, cents]) => `<li><span>${escape(label(line))}</span> <strong>${money(cents)}</strong></li>`);
  return rows.length ? `<ul class="pairs">${rows.join("")}</ul>` : `<p class="office-note">No wager.</p>`;
}

/** The record's steps, and each position's lines at the settlement. @param {RecallView} r @param {RoundRecord} record */
function stepsHtml(r, record) {
  const info = gameOf(record.game);
  if (!info) return "";
  // the table calls the player's own hand "You": here it is theirs, by name
  const game = { ...info, hands: info.hands.map((h) => (h.title === "You" ? { ...h, title: r.player } : h)) };
  const steps = replaySteps(game, record).map((s) => `<li><strong>${escape(s.title)}</strong> ${escape(s.detail)}</li>`);
  const positions = settlement(game, record.events).map((p) => {
    const who = record.events.some((e) => e.kind === "wagers" && e.seat !== "player") ? `<caption>${escape(p.blind ? `${p.seat}'s blind hand` : p.seat)}</caption>` : "";
    const lines = p.lines.map((l) => `<tr><th scope="row">${escape(l.label)}</th><td class="net ${tone(l.net)}">${signed(l.net)}</td></tr>`).join("");
    return `<table class="lines">${who}<tbody>${lines}<tr class="total"><th scope="row">Net</th><td class="net ${tone(p.net)}">${signed(p.net)}</td></tr></tbody></table>`;
  });
  return `<section class="recall-part" aria-labelledby="recall-steps"><h3 id="recall-steps">Wagers, deal and decisions</h3><ol class="steps">${steps.join("")}</ol></section>` +
    (positions.length ? `<section class="recall-part" aria-labelledby="recall-settled"><h3 id="recall-settled">Settlement</h3>${positions.join("")}</section>` : "");
}

/** @param {LedgerLine[]} lines */
function ledgerHtml(lines) {
  if (!lines.length) return `<p class="office-note">No ledger line.</p>`;
  const rows = lines.map((l) => `<tr><td data-label="Transaction">#${l.transaction_id}</td><td data-label="Kind">${escape(l.kind.replaceAll("_", " "))}</td>` +
    `<td data-label="Account">${escape(l.account)}</td><td data-label="Amount" class="figure-cell net ${tone(l.amount)}">${signed(l.amount)}</td></tr>`);
  const sum = lines.reduce((total, l) => total + l.amount, 0);
  return `<table class="ledger stack"><thead><tr><th scope="col">Transaction</th><th scope="col">Kind</th><th scope="col">Account</th><th scope="col" class="figure-cell">Amount</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody><tfoot><tr><th scope="row" colspan="3">Sum</th><td data-label="Sum" class="figure-cell">${signed(sum)}</td></tr></tfoot></table>`;
}

/** @param {RecallView} r */
function fairnessHtml(r) {
  const dealt = r.dealt;
  const seed = r.seen.server_seed || (dealt && dealt.server_seed);
  const rows = [
    ["Commitment", hashHtml(r.seen.commitment)],
    ["Server seed", seed ? hashHtml(seed) : "not shown yet"],
    ["Client seed", `<code>${escape(r.seen.client_seed)}</code>`],
    ["Nonce", String(r.seen.nonce)],
  ];
  if (dealt && dealt.seeds) rows.push(["Seats' seeds", `<code>${escape(dealt.seeds)}</code>`]);
  if (dealt && dealt.places) rows.push(["Places", escape(dealt.places.join(", "))]);
  if (r.deal_id !== null) rows.push(["Deal", `#${r.deal_id}`]);
  return `<dl class="facts">${rows.map(([term, value]) => `<div><dt>${term}</dt><dd>${value}</dd></div>`).join("")}</dl>`;
}

/** @param {RecallView} r */
function recallHtml(r) {
  const seen = r.seen;
  const record = /** @type {RoundRecord | null} */ (r.dealt ? r.dealt.record : null);
  const hands = record ? handsAfter(record.events) : seen.cards;
  const down = !record && seen.face_down ? `<p class="office-note">${seen.face_down} card${seen.face_down === 1 ? "" : "s"} face down: hidden from the house too until the round ends.</p>` : "";
  const net = seen.net === null ? `<span class="net">${seen.status === "void" ? "void" : "in play"}</span>` : `<strong class="net ${tone(seen.net)}">${signed(seen.net)}</strong>`;
  return `<header class="recall-head"><h3 id="recall-round" tabindex="-1">Round #${r.id} · ${escape(gameTitle(seen.game, seen.variant))}</h3>` +
    `<p class="recall-who"><a href="#players/${r.player_id}">${escape(r.player)}</a> · ${r.table === "shared" ? "a shared table" : "their own table"} · ` +
    `${escape(seen.status)} · ${timeHtml(r.created_at)} ${net}</p></header>` +
    verdictHtml(r) +
    `<section class="recall-part" aria-labelledby="recall-wagers"><h3 id="recall-wagers">Wagers</h3>${wagersHtml(r)}</section>` +
    `<section class="recall-part" aria-labelledby="recall-cards"><h3 id="recall-cards">Cards ${record ? "as dealt" : "as the player sees them"}</h3>${cardsHtml(seen.game, hands)}${down}` +
    (seen.description ? `<p class="recall-said"><span class="office-note">As the player saw it:</span> ${escape(seen.description)}</p>` : "") + `</section>` +
    (record ? stepsHtml(r, record) : "") +
    `<section class="recall-part" aria-labelledby="recall-fair"><h3 id="recall-fair">Fairness</h3>${fairnessHtml(r)}</section>` +
    `<section class="recall-part" aria-labelledby="recall-ledger"><h3 id="recall-ledger">Ledger</h3>${ledgerHtml(r.ledger)}</section>`;
}

/** A round recalled into the view. @param {number} id @param {boolean} focus */
async function recall(id, focus) {
  here.asking?.abort();
  const asking = here.asking = new AbortController();
  const area = $("recall"), error = $("recall-error");
  error.textContent = "";
  area.setAttribute("aria-busy", "true");
  try {
    /** @type {RecallView} */
    const r = await call(`/api/office/rounds/${id}`, undefined, asking.signal);
    here.shown = id;
    area.innerHTML = recallHtml(r);
    // the table calls the player's own hand "You": here it is theirs, by name
    for (const title of area.querySelectorAll(".mini-title")) if (title.textContent === "You") title.textContent = r.player;
    if (focus) $("recall-round").focus();
  } catch (refused) {
    if (aborted(refused)) return;
    here.shown = null;
    area.replaceChildren();
    error.textContent = said(refused);
  } finally {
    if (here.asking === asking) area.setAttribute("aria-busy", "false");
  }
}

/** The recall screen, with round `id` in it (asked again each time it is shown). @param {number | null} id @param {boolean} focus */
export function showRecall(id, focus) {
  if (id === null) {
    if (focus) $input("recall-id").focus();
    return;
  }
  $input("recall-id").value = String(id);
  recall(id, focus);
}

export function wireRecall() {
  const form = /** @type {HTMLFormElement} */ ($("recall-form"));
  form.noValidate = true;
  form.onsubmit = (event) => {
    event.preventDefault();
    const typed = $input("recall-id").value.trim().replace(/^#/, "");
    if (!/^\d{1,10}$/.test(typed) || Number(typed) < 1 || Number(typed) > 2 ** 31 - 1) {
      $("recall-error").textContent = "a round's id is a whole number: 1, 2, 3…";
      $input("recall-id").focus();
      return;
    }
    const hash = `#recall/${Number(typed)}`;
    if (location.hash === hash) recall(Number(typed), true);
    else location.hash = hash;
  };
}

export function forgetRecall() {
  here.shown = null;
  $("recall").replaceChildren();
  $input("recall-id").value = "";
  $("recall-error").textContent = "";
}
