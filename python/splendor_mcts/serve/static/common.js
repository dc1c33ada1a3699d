// What every part of the page shares: its elements by id, requests to the board's server,
// the message line, problem lists, and each game's card pictures (fetched once).

export const $ = (id) => document.getElementById(id);

// A JSON request (a POST when there is a body); its answer, or an Error with the server's
// message and `problems` (each with a JSON path).
export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const error = new Error(data.error || `HTTP ${response.status}`);
    error.problems = data.problems || [];
    throw error;
  }
  return data;
}

// A POST answered with server-sent events (EventSource only GETs): each event's data, parsed.
// Aborting `signal` drops the request (the server then stops its work).
export async function* postEvents(path, body, signal) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(body), signal,
  });
  if (!response.ok) {
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    throw new Error(data.error || `HTTP ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const lines = buffer.slice(0, end).split("\n").filter((line) => line.startsWith("data: "));
      buffer = buffer.slice(end + 2);
      if (lines.length) yield JSON.parse(lines.map((line) => line.slice(6)).join("\n"));
    }
  }
}

export function say(text, isError = false) {
  const box = $("message");
  box.textContent = text;
  box.classList.toggle("error", isError);
}

export function problemList(list, problems) {
  list.innerHTML = "";
  for (const p of problems) {
    const li = document.createElement("li");
    li.textContent = (p.path ? `${p.path}: ` : "") + p.message;
    list.appendChild(li);
  }
}

const cards = {};

// Every card (and noble or royal) of a game with its SVG; asked once per game.
export function cardsOf(game) {
  cards[game] ??= api(`/api/cards/${game}`).catch((error) => { delete cards[game]; throw error; });
  return cards[game];
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}
