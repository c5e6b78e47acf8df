// What a round, a shared table and a seat are doing, and where a game's house edges
// stand, by name: the server's enums
// (riverboat.table.states, published in the API schema), so that the page compares
// `round.status === ROUND.open` and TypeScript refuses a name the server never sends.

/** @typedef {import("../../typing/api").SchemaRoundStatus} RoundStatus */
/** @typedef {import("../../typing/api").SchemaTablePhase} TablePhase */
/** @typedef {import("../../typing/api").SchemaSeatState} SeatState */
/** @typedef {import("../../typing/api").SchemaEdgesState} EdgesState */

/** A round is open until it settles, or is void (every wager returned). */
export const ROUND = Object.freeze(/** @type {const} @satisfies {Record<string, RoundStatus>} */ ({
  open: "open", settled: "settled", void: "void",
}));

/** A shared table takes bets, waits for decisions, settles again, or is closed. */
export const PHASE = Object.freeze(/** @type {const} @satisfies {Record<string, TablePhase>} */ ({
  betting: "betting", deciding: "deciding", settling: "settling", closed: "closed",
}));

/** Where a seat stands: for the next deal, or in the hand being decided. */
export const SEAT = Object.freeze(/** @type {const} @satisfies {Record<string, SeatState>} */ ({
  waiting: "waiting", bet: "bet", out: "out", deciding: "deciding", decided: "decided",
}));

/** A game's house edges and strategy card: being worked out, known, or not to be had here. */
export const EDGES = Object.freeze(/** @type {const} @satisfies {Record<string, EdgesState>} */ ({
  pending: "pending", known: "known", unavailable: "unavailable",
}));
