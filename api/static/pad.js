// The scorepad's enhancements on top of forms that work without JavaScript.
// No framework, no build step: one small ES module.

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function cardChip(card) {
  return el("span", { class: `card s-${card.suit}`, role: "img", "aria-label": card.name,
                      text: card.label });
}

// ---------------------------------------------------------------- the tap grids

const meldsUrl = document.documentElement.dataset.meldsUrl;

function setupGrid(fieldset) {
  const prefix = fieldset.dataset.grid;
  const live = $(`#live-${prefix}`);
  const otherPrefix = fieldset.dataset.other;
  const other = otherPrefix ? $(`[data-grid="${otherPrefix}"]`) : null;
  let controller = null;
  let timer = null;

  const chosen = () => $$("input[type=checkbox]:checked", fieldset).map((box) => box.value);

  function syncOther() {
    // A card tapped here cannot be tapped in the other player's grid.
    if (!other) return;
    const mine = new Set(chosen());
    for (const box of $$("input[type=checkbox]", other)) {
      const taken = mine.has(box.value);
      if (taken && box.checked) continue;  // already in both (typed earlier): leave for the server
      box.disabled = taken;
      const label = box.nextElementSibling;
      if (label) label.title = taken ? `Already in ${fieldset.dataset.owner}'s cards` : "";
    }
  }

  function show(data, count) {
    live.replaceChildren();
    live.append(el("span", { class: "count", text: `${count} card${count === 1 ? "" : "s"}` }));
    if (!data) return;
    if (data.message) {
      live.append(" ", el("span", { class: "error", text: data.message }));
      return;
    }
    live.append(" · ", el("span", { class: "dw", text: `deadwood ${data.deadwood}` }));
    if (data.melds.length) {
      const melds = el("div", { class: "small melds" }, "Best melds: ");
      for (const meld of data.melds) {
        melds.append(el("span", { class: "meld" }, ...meld.map(cardChip)));
      }
      live.append(melds);
    } else if (count) {
      live.append(el("div", { class: "small muted melds", text: "No melds yet." }));
    }
  }

  async function refresh() {
    const cards = chosen();
    syncOther();
    if (!cards.length || !meldsUrl) { show(null, cards.length); return; }
    if (controller) controller.abort();
    controller = new AbortController();
    try {
      const url = `${meldsUrl}?cards=${encodeURIComponent(cards.join(" "))}`;
      const response = await fetch(url, { signal: controller.signal,
                                          headers: { Accept: "application/json" } });
      show(await response.json(), cards.length);
    } catch (error) {
      if (error.name !== "AbortError") show(null, cards.length);
    }
  }

  fieldset.addEventListener("change", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 60);
    if (other) other.dispatchEvent(new CustomEvent("grid:sync"));
  });
  fieldset.addEventListener("grid:sync", syncOther);
  refresh();
}

// ---------------------------------------------------------------- start-a-game options

function setupOptions(form) {
  const data = $("#preset-values");
  if (!data) return;
  const presets = JSON.parse(data.textContent);
  const shownFor = $("input[name=options_for]", form);
  const radios = $$("input[name=preset]", form);
  const current = () => (radios.find((r) => r.checked) || {}).value || "standard";

  function markChanged() {
    const values = presets[current()];
    for (const [name, value] of Object.entries(values)) {
      const field = form.elements[name];
      if (!field) continue;
      const wrapper = field.closest(".field");
      if (wrapper) wrapper.classList.toggle("changed", String(field.value) !== String(value));
    }
  }

  function fill() {
    const values = presets[current()];
    for (const [name, value] of Object.entries(values)) {
      const field = form.elements[name];
      if (field) field.value = value === null ? "" : String(value);
    }
    shownFor.value = current();
    markChanged();
  }

  for (const radio of radios) radio.addEventListener("change", fill);
  form.addEventListener("input", markChanged);
  const refreshButton = $("[data-show-preset]", form);
  if (refreshButton) refreshButton.hidden = true;

  // The first-dealer choice follows the names as they are typed.
  const names = $$("input[data-player]", form);
  function relabel() {
    for (const input of names) {
      const label = $(`[data-dealer-label="${input.dataset.player}"]`, form);
      if (label) label.textContent = input.value.trim() || `Player ${Number(input.dataset.player) + 1}`;
    }
  }
  for (const input of names) input.addEventListener("input", relabel);
  relabel();
  markChanged();
}

// ---------------------------------------------------------------- small things

function setupCopy(button) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const input = $(button.dataset.copy);
    try {
      await navigator.clipboard.writeText(input.value);
      button.textContent = "Copied";
    } catch {
      input.select();
    }
  });
}

function setupConfirm(form) {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}

function setupKeys() {
  // Replay: the arrow keys step back and forth.
  const prev = $("[data-step=prev]");
  const next = $("[data-step=next]");
  if (!prev && !next) return;
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft" && prev) prev.click();
    if (event.key === "ArrowRight" && next) next.click();
  });
}

function setupModeSwitch(form) {
  // Quick entry: deadwood of the player who went out is 0 for gin.
  const kinds = $$("input[name=kind]", form);
  const knocker = form.elements.knocker_deadwood;
  if (!knocker) return;
  const sync = () => {
    const kind = (kinds.find((k) => k.checked) || {}).value;
    const field = knocker.closest(".field");
    const gin = kind === "gin" || kind === "big_gin";
    const voided = kind === "void";
    if (gin) knocker.value = "0";
    knocker.readOnly = gin;
    if (field) field.hidden = voided;
    const defender = form.elements.defender_deadwood;
    if (defender && defender.closest(".field")) defender.closest(".field").hidden = voided;
    const who = $("[data-who]", form);
    if (who) who.hidden = voided;
  };
  for (const kind of kinds) kind.addEventListener("change", sync);
  sync();
}

function setupWatch(note) {
  // A read-only sheet reloads itself when the scorekeeper changes the game (polled with
  // If-None-Match: an unchanged sheet answers 304, not a re-scored sheet).
  const check = async () => {
    if (document.visibilityState !== "visible") return;
    try {
      // 304 (not changed since this version) costs the server one row read
      const response = await fetch(note.dataset.watch, {
        headers: { Accept: "application/json", "If-None-Match": `"${note.dataset.version}"` },
      });
      if (!response.ok) return;
      const sheet = await response.json();
      if (String(sheet.version) !== note.dataset.version) window.location.reload();
    } catch {
      // offline for a moment: try again later
    }
  };
  setInterval(check, 15000);
}

function start() {
  $$("[data-grid]").forEach(setupGrid);
  $$("form[data-options]").forEach(setupOptions);
  $$("[data-copy]").forEach(setupCopy);
  $$("form[data-confirm]").forEach(setupConfirm);
  $$("form[data-quick]").forEach(setupModeSwitch);
  $$("[data-watch]").forEach(setupWatch);
  setupKeys();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
