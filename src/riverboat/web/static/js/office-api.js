// The back office's requests: JSON in and out, the CSRF header on every POST (as
// api.js sends it), and a refusal thrown as an OfficeError with the server's words,
// its status and code, and how long to wait (Retry-After) when it says so. A 401 or a
// 403 may mean the session ended or is no operator's any more (or only a wrong
// password, a credit to oneself): whoever listens (office.js) asks /api/office/me.

const csrf = () => (document.cookie.match(/riverboat_csrf=([^;]+)/) || [])[1] || "";

/** A refusal: the server's message, its status and code, and seconds to wait (429). */
export class OfficeError extends Error {
  /** @param {string} message @param {number} status @param {string} code @param {number | null} retryAfter */
  constructor(message, status, code, retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** @type {((error: OfficeError) => void) | null} */
let onAccess = null;

/** Who hears of a 401 or a 403 (the session's keeper). @param {(error: OfficeError) => void} listener */
export function whenRefusedAccess(listener) { onAccess = listener; }

/**
 * GET `path`, or POST `body` to it as JSON: the server's answer, parsed (its shape is
 * the caller's to name: the views are in ../../typing/api.d.ts).
 * @param {string} path
 * @param {unknown} [body] a POST's JSON body; undefined for a GET
 * @param {AbortSignal} [signal]
 * @returns {Promise<any>}
 */
export async function call(path, body, signal) {
  /** @type {RequestInit} */
  const options = body === undefined ? { signal, headers: { Accept: "application/json" } } : {
    method: "POST", signal, body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrf() },
  };
  const response = await fetch(path, options);
  /** @type {any} */
  let data = null;
  try { data = await response.json(); } catch { /* an empty or broken body: said below */ }
  if (response.ok) return data;
  const wait = Number(response.headers.get("Retry-After"));
  const error = new OfficeError(
    (data && typeof data.error === "string" && data.error) || `the server answered ${response.status} ${response.statusText}`,
    response.status, (data && data.code) || "", Number.isFinite(wait) && wait > 0 ? wait : null);
  if ((error.status === 401 || error.status === 403) && onAccess) onAccess(error);
  throw error;
}

/** A refusal's words for people: the server's, and the wait it asks for. @param {unknown} error */
export function said(error) {
  if (error instanceof OfficeError) {
    const wait = error.retryAfter && !/\d+\s*s\b/.test(error.message) ? ` (try again in ${error.retryAfter} s)` : "";
    return error.message + wait;
  }
  if (error instanceof TypeError) return "the server did not answer: check the connection and try again";
  return error instanceof Error ? error.message : String(error);
}

/** Whether `error` is a request given up on (a newer one replaced it). @param {unknown} error */
export const aborted = (error) => error instanceof DOMException && error.name === "AbortError";
