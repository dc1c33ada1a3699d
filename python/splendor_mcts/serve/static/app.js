// The web board's page: plain ES module, no build step. The server draws every picture
// (board, cards, review graph) as SVG; this module places them, sends moves and reads the
// live hint (server-sent events).
import { SetupEditor } from "/static/setup.js";

const $ = (id) => document.getElementById(id);
const state = { session: null, cards: {}, hint: null, reviewPly: null };

// ------------------------------------------------------------------ requests
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

export async function cardsOf(game) {
  if (!state.cards[game]) state.cards[game] = await api(`/api/cards/${game}`);
  return state.cards[game];
}

// ------------------------------------------------------------------ tabs
function showTab(name) {
  for (const tab of document.querySelectorAll("nav .tab")) tab.classList.toggle("active", tab.dataset.tab === name);
  for (const panel of document.querySelectorAll("#right .panel")) panel.hidden = panel.id !== `panel-${name}`;
}

// ------------------------------------------------------------------ the board
export function showBoard(svg) {
  const box = $("board");
  box.innerHTML = svg;
  box.dataset.ready = "true";
}

function showSession(data) {
  state.session = data;
  cardsOf(data.game);  // fetched ahead: the hint draws its principal variations with them
  showBoard(data.svg);
  $("play-bar").hidden = false;
  const waiting = data.waiting;
  $("reveal-box").hidden = waiting !== "reveal";
  $("reveal-prompt").textContent = data.revealPrompt || "";
  $("undo").disabled = !data.canUndo;
  $("hint-start").disabled = waiting !== "move";
  $("hint-start").textContent = "Hint";
  $("export-record").disabled = !data.hasRecord;
  const history = $("history");
  history.innerHTML = "";
  for (const step of data.history) {
    if (step.by === "dealt") continue;
    const li = document.createElement("li");
    li.textContent = step.label;
    li.className = step.by;
    history.appendChild(li);
  }
  history.scrollTop = history.scrollHeight;
  $("status").textContent = `${data.title}, ${data.players} players, ${data.mode}` +
    (data.over ? ` — game over: ${data.over}` : waiting === "engine" ? " — the engine thinks" :
      waiting === "reveal" ? " — a reveal is due" : ` — seat ${data.toMove + 1} to move`);
  refreshMoves();
  if (waiting === "engine") engineTurn();
}

async function refreshMoves() {
  const session = state.session;
  const select = $("legal-moves");
  const list = $("move-list");
  select.innerHTML = "";
  list.innerHTML = "";
  if (!session || session.waiting !== "move") return;
  const { moves } = await api(`/api/sessions/${session.id}/moves`);
  for (const m of moves) {
    const option = new Option(m.label, m.text);
    select.add(option);
    const hint = document.createElement("option");
    hint.value = m.text;
    hint.label = m.label;
    list.appendChild(hint);
  }
}

async function playMove(text) {
  if (!state.session) return;
  stopHint();
  try {
    const data = await api(`/api/sessions/${state.session.id}/move`, { move: text });
    $("move-input").value = "";
    say(`played ${data.played}`);
    showSession(data);
  } catch (error) {
    say(`cannot play ${JSON.stringify(text)}: ${error.message}`, true);
  }
}

async function engineTurn() {
  const id = state.session.id;
  try {
    const data = await api(`/api/sessions/${id}/engine`, { iterations: Number($("strength").value) });
    if (state.session.id !== id) return;
    say(data.engineTurns.map((t) => `seat ${t.seat + 1} plays ${t.label}`).join("; "));
    showSession(data);
  } catch (error) {
    say(error.message, true);
  }
}

async function undo() {
  stopHint();
  try {
    const data = await api(`/api/sessions/${state.session.id}/undo`, {});
    say(`undid ${data.undid}`);
    showSession(data);
  } catch (error) {
    say(error.message, true);
  }
}

// Clicking the board: a card proposes "buy L.S" (a second click "reserve L.S"), a bank token
// adds its colour to "take ...", a cell adds itself to "take ...", a reserved card "buy".
function boardClicked(event) {
  if (!state.session || state.session.waiting !== "move" || !$("panel-setup").hidden) return;
  const target = event.target.closest("[id]");
  if (!target) return;
  const input = $("move-input");
  const id = target.id;
  let match;
  if ((match = id.match(/^card-(\d\.\d)$/))) {
    input.value = input.value === `buy ${match[1]}` ? `reserve ${match[1]}` : `buy ${match[1]}`;
  } else if ((match = id.match(/^deck-(\d)$/))) {
    input.value = state.session.game === "duel" ? `reserve deck${match[1]} gold ` : `reserve deck ${match[1]}`;
  } else if ((match = id.match(/^bank-(\w+)$/))) {
    const letter = { white: "W", blue: "U", green: "G", red: "R", black: "K" }[match[1]];
    if (letter) input.value = (input.value.startsWith("take ") ? input.value : "take ") + letter;
  } else if ((match = id.match(/^cell-([a-e][1-5])$/))) {
    input.value = (input.value.startsWith("take ") || input.value.includes(" gold") ? input.value.trimEnd() + " " : "take ") + match[1];
  } else if ((match = id.match(/^seat-\d-reserved-(\d)$/))) {
    input.value = state.session.game === "duel" ? `buy r${match[1]}` : `buy reserved ${match[1]}`;
  } else if ((match = id.match(/^noble-(\d+)$/))) {
    input.value = `noble ${match[1]}`;
  } else if ((match = id.match(/^royal-(\d+)$/))) {
    input.value = `royal ${match[1]}`;
  }
  input.focus();
}

// ------------------------------------------------------------------ the hint
function stopHint() {
  if (state.hint) {
    state.hint.close();  // the server sees the page go and stops the search
    state.hint = null;
  }
  $("hint-start").disabled = !state.session || state.session.waiting !== "move";
  $("hint-stop").disabled = true;
}

function startHint() {
  stopHint();
  const seconds = Number($("hint-seconds").value) || 10;
  const source = new EventSource(`/api/sessions/${state.session.id}/hint?seconds=${seconds}`);
  state.hint = source;
  $("hint-panel").hidden = false;
  $("hint-start").disabled = true;
  $("hint-stop").disabled = false;
  $("hint-head").textContent = "thinking...";
  $("hint-turns").innerHTML = "";
  let updates = 0;
  source.onmessage = async (event) => {
    const report = JSON.parse(event.data);
    updates += 1;
    if (report.error) {
      say(report.error, true);
    } else {
      await showHint(report, updates);
    }
    if (report.final) {
      source.close();
      if (state.hint === source) stopHint();
      $("hint-start").textContent = "Continue";
    }
  };
  source.onerror = () => { if (state.hint === source) stopHint(); };
}

async function showHint(report, updates) {
  const cards = (await cardsOf(state.session.game)).cards;
  const byId = Object.fromEntries(cards.map((c) => [c.id, c]));
  $("hint-head").textContent = `${report.words} — ${report.iterations.toLocaleString()} iterations in ` +
    `${report.seconds.toFixed(1)} s` + (report.reused ? `, continuing from ${report.reused.toLocaleString()} visits` : "") +
    (report.final ? "" : " (thinking)");
  $("hint-head").dataset.updates = updates;
  const list = $("hint-turns");
  list.innerHTML = "";
  for (const turn of report.turns) {
    const li = document.createElement("li");
    const label = document.createElement("div");
    label.className = "turn-label";
    label.textContent = turn.label + (turn.complete ? "" : ", ...");
    label.title = "click to mark it on the board, double-click to play its first move";
    label.onclick = () => markTurn(turn.actions);
    label.ondblclick = () => playMove(turn.text.split(", ")[0]);
    li.appendChild(label);
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.innerHTML = `<div class="fill" style="width:${(100 * turn.winRate).toFixed(1)}%"></div>` +
      `<div class="interval" style="left:${(100 * turn.lcb).toFixed(1)}%;width:${(100 * (turn.ucb - turn.lcb)).toFixed(1)}%"></div>` +
      `<span class="value">${turn.words} · ${turn.visits.toLocaleString()} visits</span>`;
    li.appendChild(bar);
    const pv = document.createElement("div");
    pv.className = "pv";
    // The line after the turn, one box per seat's turn (its moves run together), with its cards.
    const turns = [];
    for (const step of turn.pv) {
      if (!turns.length || turns[turns.length - 1].seat !== step.seat) turns.push({ seat: step.seat, steps: [] });
      turns[turns.length - 1].steps.push(step);
    }
    for (const line of turns.slice(0, 5)) {
      const box = document.createElement("div");
      box.className = "step";
      const cardsShown = line.steps.filter((step) => step.card).map((step) => byId[step.card].svg).join("");
      box.innerHTML = `<div>${cardsShown}</div><span>seat ${line.seat + 1}: ${escapeHtml(line.steps.map((step) => step.label).join(", "))}</span>`;
      pv.appendChild(box);
    }
    li.appendChild(pv);
    list.appendChild(li);
  }
  if (report.turns.length && (updates === 1 || report.final)) markTurn(report.turns[0].actions);
}

// The board with a turn's cards and tokens outlined (the server draws the marks).
async function markTurn(actions) {
  const response = await fetch(`/api/sessions/${state.session.id}/board.svg?actions=${actions.join(",")}`);
  if (response.ok) showBoard(await response.text());
}

// A POST answered with server-sent events (EventSource only GETs): each event's data, parsed.
async function* postEvents(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json", Accept: "text/event-stream" }, body: JSON.stringify(body),
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

export function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

// ------------------------------------------------------------------ card picker
export async function pickCard(game, title, filter) {
  const data = await cardsOf(game);
  return pick(title, data.cards.filter(filter || (() => true)).map((c) => ({ id: c.id, svg: c.svg, text: `${c.text} #${c.id}` })));
}

export async function pickNoble(game) {
  const data = await cardsOf(game);
  return pick("Choose a noble", (data.nobles || []).map((n) => ({ id: n.id, svg: n.svg, text: `noble ${n.id}` })));
}

function pick(title, items) {
  const dialog = $("picker");
  $("picker-title").textContent = title;
  const box = $("picker-items");
  const filter = $("picker-filter");
  filter.value = "";
  const draw = () => {
    box.innerHTML = "";
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const item of items) {
      if (!words.every((w) => item.text.toLowerCase().includes(w))) continue;
      const button = document.createElement("button");
      button.className = "pick";
      button.type = "button";
      button.dataset.id = item.id;
      button.title = item.text;
      button.innerHTML = item.svg;
      button.onclick = () => { dialog.close(String(item.id)); };
      box.appendChild(button);
    }
  };
  filter.oninput = draw;
  draw();
  return new Promise((resolve) => {
    dialog.onclose = () => resolve(dialog.returnValue && dialog.returnValue !== "cancel" ? Number(dialog.returnValue) : null);
    dialog.returnValue = "";
    dialog.showModal();
  });
}

// ------------------------------------------------------------------ starting sessions
export async function startFromPosition(position, mode, seat) {
  stopHint();
  const data = await api("/api/sessions/position", { position, mode, seat });
  say(`${mode}: ${data.title}, ${data.players} players`);
  showTab("game");
  showSession(data);
  return data;
}

async function newGame(event) {
  event.preventDefault();
  stopHint();
  try {
    const data = await api("/api/sessions", {
      game: $("new-game-name").value, players: Number($("new-players").value), seed: Number($("new-seed").value),
      mode: $("new-mode").value, seat: Number($("new-seat").value),
    });
    say("a new game");
    showSession(data);
  } catch (error) {
    say(error.message, true);
  }
}

async function loadText(kind) {
  const text = $("load-text").value;
  problemList($("load-problems"), []);
  try {
    const mode = $("load-mode").value;
    const data = kind === "position"
      ? await api("/api/sessions/position", { position: text, mode })
      : await api("/api/sessions/record", { record: text, mode });
    say(`loaded a ${kind}`);
    showSession(data);
  } catch (error) {
    problemList($("load-problems"), error.problems.length ? error.problems : [{ path: "", message: error.message }]);
  }
}

async function revealPicked() {
  const session = state.session;
  const prompt = session.revealPrompt || "";
  const noble = prompt.startsWith("a noble");
  const id = noble ? await pickNoble(session.game) : await pickCard(session.game, prompt);
  if (id !== null) await playMove(noble ? `noble ${id}` : `#${id}`);
}

// ------------------------------------------------------------------ review
async function review() {
  if (!state.session) return say("load a record first", true);
  $("review-start").disabled = true;
  $("review-graph").innerHTML = "<p class=muted id=review-progress data-updates=0>reviewing...</p>";
  try {
    let data = null;
    for await (const report of postEvents(`/api/sessions/${state.session.id}/review`,
      { iterations: Number($("review-iterations").value) })) {
      if (report.error) throw new Error(report.error);
      if (report.final) { data = report; break; }
      const progress = $("review-progress");
      progress.dataset.updates = Number(progress.dataset.updates) + 1;
      progress.innerHTML = `reviewing decision ${report.decision} of ${report.of} ` +
        `<progress max="${report.of}" value="${report.decision - 1}"></progress>`;
    }
    if (data === null) throw new Error("the review ended without an answer");
    $("review-graph").innerHTML = data.graph;
    const body = $("review-table").tBodies[0];
    body.innerHTML = "";
    for (const d of data.decisions) {
      const row = body.insertRow();
      row.dataset.ply = d.action_number;
      row.className = d.drop >= data.threshold ? "mistake" : "";
      for (const text of [d.turn_number + 1, d.seat + 1, d.played_turn, (100 * d.played_win_rate).toFixed(1), (100 * d.drop).toFixed(1), d.best_turn]) {
        row.insertCell().textContent = text;
      }
      row.onclick = () => showReviewedTurn(d);
    }
    for (const point of $("review-graph").querySelectorAll("circle.point")) {
      const decision = data.decisions.find((d) => d.action_number === Number(point.dataset.ply));
      point.addEventListener("click", () => showReviewedTurn(decision));
    }
    say(`reviewed ${data.decisions.length} decisions`);
  } catch (error) {
    $("review-graph").innerHTML = "";
    say(error.message, true);
  } finally {
    $("review-start").disabled = false;
  }
}

async function showReviewedTurn(decision) {
  const response = await fetch(`/api/sessions/${state.session.id}/board.svg?ply=${decision.action_number}&mark=best`);
  if (response.ok) {
    showBoard(await response.text());
    say(`turn ${decision.turn_number + 1}: seat ${decision.seat + 1} played ${decision.played_turn} ` +
        `(${(100 * decision.played_win_rate).toFixed(1)}%); the best turn found, marked: ${decision.best_turn} ` +
        `(${(100 * decision.best_win_rate).toFixed(1)}%, a loss of ${(100 * decision.drop).toFixed(1)}%)`);
  }
}

// ------------------------------------------------------------------ exports
function download(name, blob) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function exportPng() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const image = new Image();
  const url = URL.createObjectURL(new Blob([svg.outerHTML], { type: "image/svg+xml" }));
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = svg.viewBox.baseVal.width;
    canvas.height = svg.viewBox.baseVal.height;
    canvas.getContext("2d").drawImage(image, 0, 0);
    URL.revokeObjectURL(url);
    canvas.toBlob((blob) => download("board.png", blob));
  };
  image.src = url;
}

async function exportFrom(path, name) {
  const response = await fetch(`/api/sessions/${state.session.id}/${path}`);
  if (!response.ok) return say((await response.json()).error, true);
  download(name, await response.blob());
}

// ------------------------------------------------------------------ start
async function init() {
  const { games } = await api("/api/games");
  for (const select of [$("new-game-name"), $("setup-game")]) {
    for (const g of games) select.add(new Option(g.title, g.name));
  }
  // Duel is for two: its player count follows the game chosen.
  for (const [gameSelect, playersSelect] of [[$("new-game-name"), $("new-players")], [$("setup-game"), $("setup-players")]]) {
    gameSelect.onchange = () => {
      const game = games.find((g) => g.name === gameSelect.value);
      for (const option of playersSelect.options) option.disabled = !game.players.includes(Number(option.value));
      if (!game.players.includes(Number(playersSelect.value))) playersSelect.value = String(game.players[0]);
    };
  }
  for (const tab of document.querySelectorAll("nav .tab")) tab.onclick = () => showTab(tab.dataset.tab);
  $("new-game").onsubmit = newGame;
  $("move-form").onsubmit = (event) => { event.preventDefault(); playMove($("move-input").value.trim()); };
  $("legal-play").onclick = () => playMove($("legal-moves").value);
  $("undo").onclick = undo;
  $("hint-start").onclick = startHint;
  $("hint-stop").onclick = () => { stopHint(); $("hint-start").textContent = "Continue"; say("hint stopped"); };
  $("board").addEventListener("click", boardClicked);
  $("reveal-pick").onclick = revealPicked;
  $("load-position").onclick = () => loadText("position");
  $("load-record").onclick = () => loadText("record");
  $("review-start").onclick = review;
  $("export-svg").onclick = () => exportFrom("board.svg", "board.svg");
  $("export-png").onclick = exportPng;
  $("export-position").onclick = () => exportFrom("position", "position.json");
  $("export-record").onclick = () => exportFrom("record", "record.json");
  new SetupEditor({ api, cardsOf, showBoard, say, problemList, pickCard, pickNoble, startFromPosition });
  document.body.dataset.ready = "true";
}

init().catch((error) => say(`the page could not start: ${error.message}`, true));
