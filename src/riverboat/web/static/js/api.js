// The API client: JSON in and out, the CSRF header on every POST, and an error body
// {error, code} (docs/web.md) thrown as an Error with its message and code.

const csrf = () => (document.cookie.match(/riverboat_csrf=([^;]+)/) || [])[1] || "";

export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() }, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.code = data.code;
    throw error;
  }
  return data;
}
