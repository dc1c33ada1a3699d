// The live hint of the position on the board: its search (server-sent events, ten updates a
// second), the whole turns best first (a win-% bar with its interval, the words, and the line
// that follows, seat by seat in the order played, with the cards each move buys or reserves),
// and the turn outlined on the board: the best one as the search goes, or the one the player
// clicked. A hint belongs to one position: the page clears it whenever the position on the
// board changes (app.js, present()), and its panel stands outside the tabs, so a hint asked
// from any tab is shown. The final report adds the plan of the best turn, the threats among
// the turns (the next seat's win next turn, and the turns that stop it) and each turn's threat.
import { $, cardsOf, escapeHtml, say } from "/static/common.js";

const PV_TURNS = 5;  // seat turns of a principal variation shown

export class HintPanel {
  // `outline(actions)` outlines a turn on the board; `play(text)` plays a move.
  constructor({ outline, play }) {
    this.outline = outline;
    this.play = play;
    this.source = null;   // the EventSource of the search running
    this.run = 0;         // counts the searches started: a report of an older one is dropped
    this.chosen = null;   // the actions of the turn the player clicked ("12,40"), kept through updates
    this.available = false;
    this.session = null;
    $("hint-start").onclick = () => this.start();
    $("hint-stop").onclick = () => { this.stop(); say("hint stopped"); };
  }

  get running() { return this.source !== null; }

  // Whether a hint may be asked (the board shows a session's position with a move awaited),
  // and of which session (its game names the cards of the lines).
  offer(available, session) {
    this.available = available;
    this.session = session;
    this.buttons();
  }

  buttons() {
    $("hint-start").disabled = !this.available || this.running;
    $("hint-stop").disabled = !this.running;
  }

  start() {
    if (!this.available) return;
    this.halt();
    const seconds = Number($("hint-seconds").value) || 10;
    const source = new EventSource(`/api/sessions/${this.session.id}/hint?seconds=${seconds}`);
    const run = ++this.run;
    this.source = source;
    this.chosen = null;
    this.buttons();
    const panel = $("hint-panel");
    panel.hidden = false;
    $("hint-head").textContent = "thinking...";
    delete $("hint-head").dataset.updates;
    $("hint-turns").innerHTML = "";
    this.advice({ plan: null, threats: [] });
    // Shown where the player is: when the panel sits below the board (a narrow window), brought into view.
    if (panel.getBoundingClientRect().top > window.innerHeight - 80) panel.scrollIntoView({ block: "start" });
    let updates = 0;
    source.onmessage = async (event) => {
      const report = JSON.parse(event.data);
      updates += 1;
      if (report.error) {
        say(report.error, true);
      } else {
        const { cards } = await cardsOf(this.session.game);
        if (run !== this.run) return;  // cleared, or another search started, meanwhile
        this.draw(report, updates, cards);
      }
      if (report.final && run === this.run) {
        this.halt();
        $("hint-start").textContent = "Continue";
      }
    };
    source.onerror = () => { if (run === this.run && this.source === source) this.halt(); };
  }

  // Stops the search (closing the stream: the server stops it) and keeps the list.
  stop() {
    if (!this.running) return;
    this.halt();
    $("hint-start").textContent = "Continue";
  }

  halt() {
    if (this.source) this.source.close();
    this.source = null;
    this.buttons();
  }

  // Forgets the hint (the position it was of is gone): search stopped, panel emptied and hidden.
  clear() {
    this.halt();
    this.run += 1;
    this.chosen = null;
    $("hint-panel").hidden = true;
    $("hint-head").textContent = "";
    delete $("hint-head").dataset.updates;
    $("hint-turns").innerHTML = "";
    this.advice({ plan: null, threats: [] });
    $("hint-start").textContent = "Hint";
  }

  // The plan and the threats of a report (a partial report has none: both hidden).
  advice(report) {
    const plan = $("hint-plan");
    plan.textContent = report.plan ? `Plan: ${report.plan.words}` : "";
    plan.hidden = !report.plan;
    const threats = $("hint-threats");
    threats.innerHTML = "";
    for (const threat of report.threats ?? []) {
      const li = document.createElement("li");
      li.textContent = `Threat: ${threat.summary}`;
      threats.appendChild(li);
    }
    threats.hidden = !threats.children.length;
  }

  draw(report, updates, cards) {
    const byId = Object.fromEntries(cards.map((c) => [c.id, c]));
    $("hint-head").textContent = `${report.words} — ${report.iterations.toLocaleString()} iterations in ` +
      `${report.seconds.toFixed(1)} s` + (report.reused ? `, continuing from ${report.reused.toLocaleString()} visits` : "") +
      (report.final ? "" : " (thinking)");
    $("hint-head").dataset.updates = updates;
    this.advice(report);
    const list = $("hint-turns");
    list.innerHTML = "";
    for (const turn of report.turns) list.appendChild(this.turnItem(turn, byId));
    // The outline keeps up with the list: the best turn of this update, unless the player chose one.
    const outlined = this.chosen ?? report.turns[0]?.actions.join(",");
    if (outlined !== undefined) this.mark(outlined);
  }

  turnItem(turn, byId) {
    const li = document.createElement("li");
    li.className = "turn";
    li.dataset.actions = turn.actions.join(",");
    const label = document.createElement("div");
    label.className = "turn-label";
    label.textContent = turn.label + (turn.complete ? "" : ", ...");
    label.title = "click to outline it on the board, double-click to play its first move";
    label.onclick = () => { this.chosen = li.dataset.actions; this.mark(this.chosen); };
    label.ondblclick = () => this.play(turn.text.split(", ")[0]);
    li.appendChild(label);
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.innerHTML = `<div class="fill" style="width:${(100 * turn.winRate).toFixed(1)}%"></div>` +
      `<div class="interval" style="left:${(100 * turn.lcb).toFixed(1)}%;width:${(100 * (turn.ucb - turn.lcb)).toFixed(1)}%"></div>`;
    li.appendChild(bar);
    const value = document.createElement("div");
    value.className = "value";
    value.textContent = `${turn.words} · ${turn.visits.toLocaleString()} visits`;
    li.appendChild(value);
    if (turn.threat?.status === "wins") {
      const threat = document.createElement("div");
      threat.className = "threat";
      threat.textContent = `then ${turn.threat.words}`;
      li.appendChild(threat);
    }
    li.appendChild(lineAfter(turn.pv, byId));
    return li;
  }

  // Outlines a turn on the board and in the list.
  mark(actions) {
    for (const li of $("hint-turns").children) li.classList.toggle("outlined", li.dataset.actions === actions);
    this.outline(actions);
  }
}

// The line after a turn, one row per seat's turn in the order played (its moves run together),
// each with the cards it buys or reserves, drawn large enough to read their cost.
function lineAfter(pv, byId) {
  const turns = [];
  for (const step of pv) {
    if (!turns.length || turns[turns.length - 1].seat !== step.seat) turns.push({ seat: step.seat, steps: [] });
    turns[turns.length - 1].steps.push(step);
  }
  const list = document.createElement("ol");
  list.className = "pv";
  for (const line of turns.slice(0, PV_TURNS)) {
    const row = document.createElement("li");
    row.dataset.seat = line.seat;
    const cardsShown = line.steps.filter((step) => step.card !== null && byId[step.card]).map((step) => byId[step.card].svg).join("");
    row.innerHTML = `<span class="pv-text">seat ${line.seat + 1}: ${escapeHtml(line.steps.map((step) => step.label).join(", "))}</span>` +
      (cardsShown ? `<span class="pv-cards">${cardsShown}</span>` : "");
    list.appendChild(row);
  }
  return list;
}
