// The web board's page: plain ES modules, no build step. The server draws every picture
// (board, cards, review graph) as SVG; this module places them, sends moves and reviews, and
// keeps the page's one model of what is on the board (below); hint.js shows the live hint,
// setup.js sets up a position, picker.js picks a card.
import { $, api, cardsOf, postEvents, problemList, say } from "/static/common.js";
import { HintPanel } from "/static/hint.js";
import { pickCard, pickNoble } from "/static/picker.js";
import { SetupEditor } from "/static/setup.js";

// ------------------------------------------------------------------ the model
// What the board shows, and what belongs to it. The hint (and its search), the turn
// outlined, the move typed and the legal moves listed are always of the position on the
// board: present() is the one place that position changes (a new game, a load, a move, an
// undo, the engine's reply, a reviewed decision, the set-up table), and it drops whatever
// belonged to the one before. An answer that arrives for a position no longer shown (an
// outline, the legal moves, the engine's turn, a review) is dropped: each carries the `epoch`
// it was asked in.
const model = {
  session: null,     // the session as the server last sent it (its current position)
  view: "none",      // on the board: "session" (its current position), "ply" (a reviewed position), "setup", "none"
  epoch: 0,          // counts the positions shown
  outlined: "",      // the actions outlined on the board ("12,40"), "" for none
  engineAsked: null, // the session whose engine turn is being asked for
  review: null,      // the review shown or running: { id, plies } of the session and record reviewed, `abort` ends it
};

const hint = new HintPanel({ outline, play: playMove });

function present(view, { session = model.session, svg = null, caption = "" } = {}) {
  const before = model.session;
  model.epoch += 1;
  model.view = view;
  model.session = session;
  model.outlined = "";
  outlining.next = null;
  hint.clear();
  $("move-input").value = "";
  $("legal-moves").innerHTML = "";
  $("move-list").innerHTML = "";
  // A review is of a session's record as it was: another session, or a move or undo since, ends it.
  if (model.review && (!session || session.id !== model.review.id || session.history.length !== model.review.plies)) {
    clearReview();
  }
  if (session && before && session.id !== before.id) model.engineAsked = null;
  if (session) cardsOf(session.game);  // fetched ahead: a hint draws its lines with them
  drawBoard(svg ?? (view === "none" ? null : session.svg));
  $("play-bar").hidden = !(session && (view === "session" || view === "ply"));
  $("viewing-box").hidden = view !== "ply";
  $("viewing-what").textContent = caption;
  if (session && view !== "setup") drawSession(session, view === "session");
  hint.offer(view === "session" && session.waiting === "move", session);
}

function drawBoard(svg) {
  const box = $("board");
  if (svg === null) return;
  box.innerHTML = svg;
  box.dataset.ready = "true";
  box.dataset.outlined = model.outlined;
}

// Outlines a turn's actions on the board (the server draws the marks). One request at a time,
// the latest wish next: the outline keeps up with a hint updating ten times a second.
const outlining = { busy: false, next: null };

async function outline(actions) {
  outlining.next = actions;
  if (outlining.busy) return;
  outlining.busy = true;
  try {
    while (outlining.next !== null && outlining.next !== model.outlined && model.view === "session") {
      const wanted = outlining.next;
      const epoch = model.epoch;
      outlining.next = null;
      const response = await fetch(`/api/sessions/${model.session.id}/board.svg?actions=${wanted}`);
      const svg = response.ok ? await response.text() : null;
      if (epoch === model.epoch && svg !== null) {
        model.outlined = wanted;
        drawBoard(svg);
      }
    }
  } finally {
    outlining.busy = false;
  }
}

// ------------------------------------------------------------------ tabs
function showTab(name) {
  for (const tab of document.querySelectorAll("nav .tab")) tab.classList.toggle("active", tab.dataset.tab === name);
  for (const panel of document.querySelectorAll("#right .tab-panel")) panel.hidden = panel.id !== `panel-${name}`;
  // The set-up tab shows the table being set up; leaving it, the board shows the game again.
  if (name === "setup") setup.show();
  else if (model.view === "setup" && model.session) present("session");
}

// ------------------------------------------------------------------ a session's position
function drawSession(data, current) {
  const waiting = data.waiting;
  $("reveal-box").hidden = !current || waiting !== "reveal";
  $("reveal-prompt").textContent = data.revealPrompt || "";
  $("undo").disabled = !current || !data.canUndo || waiting === "engine";  // not under the engine's reply
  for (const control of ["move-input", "move-play", "legal-moves", "legal-play"]) $(control).disabled = !current || waiting !== "move";
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
  if (!current) return;
  refreshMoves();
  if (waiting === "engine" && model.engineAsked !== data.id) engineTurn();
}

async function refreshMoves() {
  const { session, epoch } = model;
  if (session.waiting !== "move") return;
  let moves;
  try {
    ({ moves } = await api(`/api/sessions/${session.id}/moves`));
  } catch (error) {
    if (epoch === model.epoch) say(error.message, true);
    return;
  }
  if (epoch !== model.epoch) return;
  const select = $("legal-moves");
  const list = $("move-list");
  for (const m of moves) {
    select.add(new Option(m.label, m.text));
    const option = document.createElement("option");
    option.value = m.text;
    option.label = m.label;
    list.appendChild(option);
  }
}

// A session started (a new game, a load, the set-up table): shown on the board.
function startSession(data, message) {
  say(message);
  present("session", { session: data });
}

async function playMove(text) {
  if (model.view !== "session") return;
  hint.stop();  // the server stops its search at once, before the move
  const { session, epoch } = model;
  try {
    const data = await api(`/api/sessions/${session.id}/move`, { move: text });
    if (model.session.id !== session.id) return;
    say(`played ${data.played}`);
    present("session", { session: data });
  } catch (error) {
    if (epoch === model.epoch) say(`cannot play ${JSON.stringify(text)}: ${error.message}`, true);
  }
}

async function engineTurn() {
  const id = model.session.id;
  model.engineAsked = id;
  try {
    const data = await api(`/api/sessions/${id}/engine`, { iterations: Number($("strength").value) });
    if (model.session.id !== id) return;
    say(data.engineTurns.map((t) => `seat ${t.seat + 1} plays ${t.label}`).join("; "));
    model.engineAsked = null;
    // The set-up table or a reviewed position stays on the board; the game's is drawn on the way back.
    if (model.view === "session") present("session", { session: data });
    else model.session = data;
  } catch (error) {
    if (model.session.id === id) model.engineAsked = null;
    say(error.message, true);
  }
}

async function undo() {
  if (model.view !== "session") return;
  hint.stop();
  const id = model.session.id;
  try {
    const data = await api(`/api/sessions/${id}/undo`, {});
    if (model.session.id !== id) return;
    say(`undid ${data.undid}`);
    present("session", { session: data });
  } catch (error) {
    say(error.message, true);
  }
}

// Clicking the board: a card proposes "buy L.S" (a second click "reserve L.S"), a bank token
// adds its colour to "take ...", a cell adds itself to "take ...", a reserved card "buy".
function boardClicked(event) {
  if (model.view !== "session" || model.session.waiting !== "move") return;
  const target = event.target.closest("[id]");
  if (!target) return;
  const input = $("move-input");
  const game = model.session.game;
  const id = target.id;
  let match;
  if ((match = id.match(/^card-(\d\.\d)$/))) {
    input.value = input.value === `buy ${match[1]}` ? `reserve ${match[1]}` : `buy ${match[1]}`;
  } else if ((match = id.match(/^deck-(\d)$/))) {
    input.value = gamePage(game).deck_move.replace("{level}", match[1]);
  } else if ((match = id.match(/^bank-(\w+)$/))) {
    const letter = { white: "W", blue: "U", green: "G", red: "R", black: "K" }[match[1]];
    if (letter) input.value = (input.value.startsWith("take ") ? input.value : "take ") + letter;
  } else if ((match = id.match(/^cell-([a-e][1-5])$/))) {
    input.value = (input.value.startsWith("take ") || input.value.includes(" gold") ? input.value.trimEnd() + " " : "take ") + match[1];
  } else if ((match = id.match(/^seat-\d-reserved-(\d)$/))) {
    input.value = gamePage(game).reserved_move.replace("{index}", match[1]);
  } else if ((match = id.match(/^noble-(\d+)$/))) {
    input.value = `noble ${match[1]}`;
  } else if ((match = id.match(/^royal-(\d+)$/))) {
    input.value = `royal ${match[1]}`;
  }
  input.focus();
}

// ------------------------------------------------------------------ starting sessions
async function startFromPosition(position, mode, seat) {
  const data = await api("/api/sessions/position", { position, mode, seat });
  startSession(data, `${mode}: ${data.title}, ${data.players} players`);
  showTab("game");
  return data;
}

async function newGame(event) {
  event.preventDefault();
  try {
    const data = await api("/api/sessions", {
      game: $("new-game-name").value, players: Number($("new-players").value), seed: Number($("new-seed").value),
      mode: $("new-mode").value, seat: Number($("new-seat").value),
    });
    startSession(data, "a new game");
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
    startSession(data, `loaded a ${kind}`);
  } catch (error) {
    problemList($("load-problems"), error.problems.length ? error.problems : [{ path: "", message: error.message }]);
  }
}

async function revealPicked() {
  const session = model.session;
  const prompt = session.revealPrompt || "";
  const noble = prompt.startsWith("a noble");
  const id = noble ? await pickNoble(session.game) : await pickCard(session.game, prompt);
  if (id !== null && model.session === session) await playMove(noble ? `noble ${id}` : `#${id}`);
}

// ------------------------------------------------------------------ review
async function review() {
  if (!model.session) return say("load a record first", true);
  clearReview();
  const session = model.session;
  const running = { id: session.id, plies: session.history.length, abort: new AbortController() };
  model.review = running;
  $("review-start").disabled = true;
  $("review-graph").innerHTML = "<p class=muted id=review-progress data-updates=0>reviewing...</p>";
  try {
    let data = null;
    for await (const report of postEvents(`/api/sessions/${session.id}/review`,
      { iterations: Number($("review-iterations").value) }, running.abort.signal)) {
      if (report.error) throw new Error(report.error);
      if (report.final) { data = report; break; }
      const progress = $("review-progress");
      progress.dataset.updates = Number(progress.dataset.updates) + 1;
      progress.innerHTML = `reviewing turn ${report.decision} of ${report.of} ` +
        `<progress max="${report.of}" value="${report.decision - 1}"></progress>`;
    }
    if (data === null) throw new Error("the review ended without an answer");
    if (model.review !== running) return;
    $("review-graph").innerHTML = data.graph;
    const body = $("review-table").tBodies[0];
    body.innerHTML = "";
    for (const d of data.decisions) {
      const row = body.insertRow();
      row.dataset.ply = d.action_number;
      row.className = d.drop >= data.threshold || d.blunder ? "mistake" : "";
      const blunder = d.blunder ? `blunder: ${d.threat.words}` : "";
      for (const text of [d.turn_number + 1, d.seat + 1, d.played_turn, (100 * d.played_win_rate).toFixed(1), (100 * d.drop).toFixed(1), d.best_turn, blunder]) {
        row.insertCell().textContent = text;
      }
      row.onclick = () => showReviewedTurn(d);
    }
    for (const point of $("review-graph").querySelectorAll("circle.point")) {
      const decision = data.decisions.find((d) => d.action_number === Number(point.dataset.ply));
      point.addEventListener("click", () => showReviewedTurn(decision));
    }
    say(`reviewed ${data.decisions.length} turns`);
  } catch (error) {
    if (model.review !== running) return;  // ended because the game it was of is gone
    $("review-graph").innerHTML = "";
    say(error.message, true);
  } finally {
    if (model.review === running) $("review-start").disabled = false;
  }
}

// The review shown (or running) is dropped: its request ends, its graph and table go.
function clearReview() {
  if (model.review) model.review.abort.abort();
  model.review = null;
  $("review-graph").innerHTML = "";
  $("review-table").tBodies[0].innerHTML = "";
  $("review-start").disabled = false;
}

async function showReviewedTurn(decision) {
  const { session, epoch } = model;
  const response = await fetch(`/api/sessions/${session.id}/board.svg?ply=${decision.action_number}&mark=best`);
  if (!response.ok || epoch !== model.epoch) return;
  const svg = await response.text();
  if (epoch !== model.epoch) return;
  const words = `turn ${decision.turn_number + 1}: seat ${decision.seat + 1} played ${decision.played_turn} ` +
    `(${(100 * decision.played_win_rate).toFixed(1)}%); the best turn found, marked: ${decision.best_turn} ` +
    `(${(100 * decision.best_win_rate).toFixed(1)}%, a loss of ${(100 * decision.drop).toFixed(1)}%)` +
    (decision.blunder ? `; a blunder: after it ${decision.threat.words}` : "");
  present("ply", { svg, caption: `the board before turn ${decision.turn_number + 1}, seat ${decision.seat + 1}'s move` });
  say(words);
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
  const response = await fetch(`/api/sessions/${model.session.id}/${path}`);
  if (!response.ok) return say((await response.json()).error, true);
  download(name, await response.blob());
}

// ------------------------------------------------------------------ start
// The set-up editor shows its table on the board only while its tab is open.
let games = [];  // /api/games: each game's name, title, player counts, legend and page data
// What the page needs of a game beyond its positions (its registry entry's web_page).
const gamePage = (name) => games.find((g) => g.name === name).page;
const setup = new SetupEditor({
  api, cardsOf, say, problemList, pickCard, pickNoble, startFromPosition,
  gamePage,
  showBoard: (svg) => { if (!$("panel-setup").hidden) present("setup", { svg }); },
});

async function init() {
  ({ games } = await api("/api/games"));
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
  $("show-current").onclick = () => present("session");
  $("board").addEventListener("click", boardClicked);
  $("reveal-pick").onclick = revealPicked;
  $("load-position").onclick = () => loadText("position");
  $("load-record").onclick = () => loadText("record");
  $("review-start").onclick = review;
  $("export-svg").onclick = () => exportFrom("board.svg", "board.svg");
  $("export-png").onclick = exportPng;
  $("export-position").onclick = () => exportFrom("position", "position.json");
  $("export-record").onclick = () => exportFrom("record", "record.json");
  document.body.dataset.ready = "true";
}

init().catch((error) => say(`the page could not start: ${error.message}`, true));
