// The card picker: a dialog of card (or noble) pictures with a filter (`green 1pt`, `#53`);
// it resolves to the id picked, or null when closed.
import { $, cardsOf } from "/static/common.js";

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
