// The API client: JSON in and out, the CSRF header on every POST, and an error body
// {error, code} (docs/web.md) thrown as an Error with its message and code. A signal
// (an AbortController's) lets the page give up on a request it no longer wants.

const csrf = () => (document.cookie.match(/riverboat_csrf=([^;]+)/) || [])[1] || "";

/** An error the server answered with: its message, and its code when the body has one. @typedef {Error & { code?: string }} ApiError */

/**
 * GET `path`, or POST `body` to it as JSON; the server's view, parsed. Its shape is the
 * caller's to name (the views are in ../../typing/api.d.ts), so this returns `any`.
 * @param {string} path
 * @param {unknown} [body] a POST's JSON body; undefined for a GET
 * @param {AbortSignal} [signal]
 * @returns {Promise<any>}
 */
export async function api(path, body, signal) {
  const options = body === undefined ? { signal } : {
    method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() }, body: JSON.stringify(body), signal,
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    const error = /** @type {ApiError} */ (new Error(data.error || response.statusText));
    error.code = data.code;
    throw error;
  }
  return data;
}
