// Setting up a position by clicking what the table shows: the face-up cards and nobles on
// the board (Duel: the cells of the token board), each seat's tokens and Duel privileges
// (steppers), bought and reserved cards (pickers), and in Splendor an opponent's bought
// cards as the table shows them: per colour, how many cards and how many points (the
// `bought` summary, steppers; the server draws the cards and infers the decks). In Duel a
// royal on the board goes to seat 1, seat 2 and back to the table as it is clicked, and a
// bought joker's colour is a button that shows the next colour. The page
// edits a player's view (docs/position-format.md) and the server checks it after every
// change: its problems are listed by JSON path, as the command line lists them.
// What differs between games comes from the server (/api/games: each game's `page`, from its
// registry entry): the token kinds, the fields the server derives when they are left out
// (`derived`, `derived_player`), where the face-up cards are (`face_up`), the gem colours,
// the kinds a board cell cycles through (`cells`) and which parts of a seat are offered.

const $ = (id) => document.getElementById(id);

// A count with − and + buttons (the + has the id `plusId`); `onStep(delta)` changes it.
function stepper(label, value, plusId, onStep) {
  const span = document.createElement("span");
  span.className = "stepper";
  span.innerHTML = `${label} <button type="button" data-step="-1">−</button><b>${value}</b>` +
    `<button type="button" data-step="1" id="${plusId}">+</button>`;
  for (const button of span.querySelectorAll("button")) button.onclick = () => onStep(Number(button.dataset.step));
  return span;
}

export class SetupEditor {
  constructor(page) {
    this.page = page;
    this.pos = null;
    this.svg = null;  // the table's last picture, shown again when its tab is
    $("setup-form").onsubmit = (event) => { event.preventDefault(); this.newTable(); };
    $("board").addEventListener("click", (event) => this.boardClicked(event));
    $("setup-to-move").onchange = () => { this.pos.to_move = Number($("setup-to-move").value); this.changed(); };
    $("setup-observer").onchange = () => { this.pos.observer = Number($("setup-observer").value); this.changed(); };
    $("setup-analyze").onclick = () => this.start("analyze");
    $("setup-follow").onclick = () => this.start("follow");
    $("setup-play").onclick = () => this.start("play");
  }

  active() { return !$("panel-setup").hidden && this.pos !== null; }

  // The table being set up back on the board (its tab opened again).
  show() { if (this.svg !== null) this.page.showBoard(this.svg); }
  get game() { return this.pos.game; }
  get setup() { return this.page.gamePage(this.game); }
  get rows() { return this.pos[this.setup.face_up]; }

  async newTable() {
    const { position } = await this.page.api("/api/new-position", {
      game: $("setup-game").value, players: Number($("setup-players").value), seed: Number($("setup-seed").value),
    });
    this.pos = position;
    $("setup-fields").hidden = false;
    await this.changed();
  }

  cleaned() {
    const pos = structuredClone(this.pos);
    for (const key of this.setup.derived) delete pos[key];
    delete pos.variant;  // the number of seats is counted from the players
    for (const player of pos.players) for (const key of this.setup.derived_player) delete player[key];
    // Cards given by colour have no level the page knows: the server infers the decks then.
    if (pos.players.some((player) => Object.keys(player.bought || {}).length)) delete pos.decks;
    return pos;
  }

  async changed() {
    const data = await this.page.api("/api/preview", { position: this.cleaned() });
    if (data.valid) {
      this.svg = data.svg;
      this.page.showBoard(data.svg);
    }
    this.page.problemList($("setup-problems"), data.problems);
    $("setup-problems").dataset.count = data.problems.length;
    this.drawSeats();
  }

  async levelOf(id) {
    const { cards } = await this.page.cardsOf(this.game);
    return cards.find((c) => c.id === id).level;
  }

  async boardClicked(event) {
    if (!this.active()) return;
    const target = event.target.closest("[id]");
    if (!target) return;
    let match;
    if ((match = target.id.match(/^card-(\d)\.(\d)$/))) {
      const level = Number(match[1]);
      const id = await this.page.pickCard(this.game, `The card at level ${level}, slot ${match[2]}`, (c) => c.level === level);
      if (id === null) return;
      this.rows[level - 1][Number(match[2]) - 1] = id;
    } else if ((match = target.id.match(/^noble-(\d+)$/))) {
      const id = await this.page.pickNoble(this.game);
      if (id === null) return;
      this.pos.nobles = this.pos.nobles.map((n) => (n === Number(match[1]) ? id : n));
    } else if ((match = target.id.match(/^cell-([a-e])([1-5])$/)) && this.setup.cells) {
      // A cell of the token board: each click shows the next kind (Duel: empty, the gems, pearl, gold).
      const order = this.setup.cells;
      const row = Number(match[2]) - 1;
      const column = "abcde".indexOf(match[1]);
      const line = this.pos.board[row];
      const next = order[(order.indexOf(line[column]) + 1) % order.length];
      this.pos.board[row] = line.slice(0, column) + next + line.slice(column + 1);
    } else if ((match = target.id.match(/^royal-(\d+)$/)) && this.setup.royals) {
      this.passRoyal(Number(match[1]));
    } else {
      return;
    }
    await this.changed();
  }

  // A Duel royal's holder: the table, then each seat in turn, then the table again (the
  // table's royals are those no seat holds; the server checks them against the crowns).
  passRoyal(id) {
    const players = this.pos.players;
    const holder = players.findIndex((player) => player.royals.includes(id));
    if (holder >= 0) players[holder].royals = players[holder].royals.filter((r) => r !== id);
    if (holder + 1 < players.length) players[holder + 1].royals.push(id);
  }

  // A joker bought joins a colour: the first one the seat has a card of (the rules want one).
  async jokerEntry(seat, id) {
    const { cards } = await this.page.cardsOf(this.game);
    const colourOf = (entry) => cards.find((c) => c.id === (typeof entry === "number" ? entry : entry.card)).text.split(" ")[0];
    const gems = this.setup.gems;
    const owned = this.pos.players[seat].cards.map(colourOf).filter((colour) => gems.includes(colour));
    return { card: id, colour: owned[0] || gems[0] };
  }

  // A card leaving the unseen pool (bought, reserved face up or blind) takes one from its deck's count.
  async addCard(seat, where, blindLevel) {
    const player = this.pos.players[seat];
    if (blindLevel) {
      player.reserved.push({ level: blindLevel, blind: true });
      this.pos.decks[blindLevel - 1] -= 1;
    } else {
      const id = await this.page.pickCard(this.game, where === "cards" ? `A card seat ${seat + 1} bought` : `A card seat ${seat + 1} reserved`);
      if (id === null) return;
      const joker = this.setup.jokers && where === "cards" && (await this.page.cardsOf(this.game)).cards
        .find((c) => c.id === id).text.startsWith("joker");
      player[where].push(joker ? await this.jokerEntry(seat, id) : where === "cards" ? id : { card: id });
      this.pos.decks[(await this.levelOf(id)) - 1] -= 1;
    }
    await this.changed();
  }

  async removeCard(seat, where, index) {
    const entry = this.pos.players[seat][where].splice(index, 1)[0];
    const id = typeof entry === "number" ? entry : entry.card;
    const level = id === undefined ? entry.level : await this.levelOf(id);
    this.pos.decks[level - 1] += 1;
    await this.changed();
  }

  step(seat, kind, delta) {
    const tokens = this.pos.players[seat].tokens;
    tokens[kind] = Math.max(0, (tokens[kind] || 0) + delta);
    this.changed();
  }

  // A seat's bought cards of a colour as the table shows them (totals: listed cards count among them).
  stepBought(seat, colour, field, delta) {
    const player = this.pos.players[seat];
    const bought = (player.bought ??= {});
    const entry = (bought[colour] ??= { cards: 0, points: 0 });
    entry[field] = Math.max(0, entry[field] + delta);
    if (!entry.cards && !entry.points) delete bought[colour];
    if (!Object.keys(bought).length) delete player.bought;
    this.changed();
  }

  drawSeats() {
    const seats = this.pos.players.length;
    for (const select of [$("setup-to-move"), $("setup-observer")]) {
      const value = select.id === "setup-to-move" ? this.pos.to_move : this.pos.observer ?? 0;
      select.innerHTML = "";
      for (let s = 0; s < seats; s++) select.add(new Option(`seat ${s + 1}`, s));
      select.value = value;
    }
    const box = $("setup-seats");
    box.innerHTML = "";
    this.pos.players.forEach((player, seat) => {
      const div = document.createElement("div");
      div.className = "seat-edit";
      div.id = `setup-seat-${seat}`;
      div.innerHTML = `<h3>seat ${seat + 1}</h3>`;
      const tokens = document.createElement("div");
      for (const kind of this.setup.token_kinds) {
        tokens.appendChild(stepper(kind, player.tokens[kind] || 0, `step-${seat}-${kind}`,
          (delta) => this.step(seat, kind, delta)));
      }
      if (this.setup.privileges) {
        tokens.appendChild(stepper("privileges", player.privileges, `step-${seat}-privileges`, (delta) => {
          player.privileges = Math.max(0, player.privileges + delta);
          this.changed();
        }));
      }
      div.appendChild(tokens);
      div.appendChild(this.cardLine(seat, "cards", "bought"));
      if (this.setup.bought_summary) div.appendChild(this.boughtLine(seat));
      if (this.setup.royals) {
        const royals = document.createElement("div");
        royals.id = `royals-${seat}`;
        royals.textContent = `royals: ${player.royals.map((r) => `royal ${r}`).join(", ") || "none"} ` +
          "(click a royal on the board to pass it to the next seat)";
        div.appendChild(royals);
      }
      div.appendChild(this.cardLine(seat, "reserved", "reserved"));
      box.appendChild(div);
    });
  }

  // Splendor: "by colour, cards / points" steppers, the `bought` summary of docs/position-format.md.
  boughtLine(seat) {
    const line = document.createElement("div");
    line.className = "bought-edit";
    line.id = `bought-${seat}`;
    line.append("by colour (cards, points as the table shows them): ");
    const bought = this.pos.players[seat].bought || {};
    for (const colour of this.setup.gems) {
      const entry = bought[colour] || { cards: 0, points: 0 };
      const group = document.createElement("span");
      group.className = "bought-colour";
      group.dataset.colour = colour;
      group.append(colour);
      for (const field of ["cards", "points"]) {
        group.appendChild(stepper(field === "cards" ? "" : "pt", entry[field], `bought-${seat}-${colour}-${field}`,
          (delta) => this.stepBought(seat, colour, field, delta)));
      }
      line.appendChild(group);
    }
    return line;
  }

  cardLine(seat, where, words) {
    const line = document.createElement("div");
    line.append(`${words}: `);
    this.pos.players[seat][where].forEach((entry, index) => {
      const chip = document.createElement("span");
      chip.className = "chip";
      const id = typeof entry === "number" ? entry : entry.card;
      chip.textContent = id === undefined ? `level ${entry.level} blind` : `#${id}`;
      if (where === "cards" && typeof entry === "object") chip.appendChild(this.jokerButton(seat, entry, index));
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "×";
      remove.title = "remove";
      remove.onclick = () => this.removeCard(seat, where, index);
      chip.appendChild(remove);
      line.appendChild(chip);
    });
    const add = document.createElement("button");
    add.type = "button";
    add.id = `add-${where}-${seat}`;
    add.textContent = where === "cards" ? "+ bought card" : "+ face-up reserve";
    add.onclick = () => this.addCard(seat, where);
    line.appendChild(add);
    if (where === "reserved") {
      for (const level of [1, 2, 3]) {
        const blind = document.createElement("button");
        blind.type = "button";
        blind.textContent = `+ blind ${level}`;
        blind.onclick = () => this.addCard(seat, where, level);
        line.appendChild(blind);
      }
    }
    return line;
  }

  // A joker's colour: each click the next gem colour.
  jokerButton(seat, entry, index) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = `joker-${seat}-${index}`;
    button.className = "joker-colour";
    button.textContent = entry.colour ?? "colour?";
    button.title = "the colour this joker joined (click: the next one)";
    button.onclick = () => {
      const gems = this.setup.gems;
      entry.colour = gems[(gems.indexOf(entry.colour) + 1) % gems.length];
      this.changed();
    };
    return button;
  }

  async start(mode) {
    try {
      await this.page.startFromPosition(this.cleaned(), mode, this.pos.observer ?? 0);
    } catch (error) {
      this.page.problemList($("setup-problems"), error.problems.length ? error.problems : [{ path: "", message: error.message }]);
    }
  }
}
