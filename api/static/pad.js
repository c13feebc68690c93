// The scorepad's enhancements on top of forms that work without JavaScript.
// No framework, no build step: small ES modules (pad-offline.js: the queue of
// unsent hands, the service worker and the wake lock; pad-save.js: a hand's save;
// pad-reach.js: what needs the server, off without a connection; pad-cards.js: typed cards;
// pad-share.js: sharing a result; pad-quick.js: the quick form's chips and keypad;
// pad-dom.js: the helpers they share).

import { cardReader, spelled } from "./pad-cards.js";
import { $, $$ } from "./pad-dom.js";
import { startOffline } from "./pad-offline.js";
import { setupQuickPad } from "./pad-quick.js";
import { watchReach } from "./pad-reach.js";
import { startShare } from "./pad-share.js";
import { letters, say, sayCount, sayParts, suitLetters } from "./pad-words.js";

/** @typedef {import("./pad-cards.js").Grammar} Grammar */
/** A card as the pages show it (api.pad.terms.card_info).
 * @typedef {{code: string, rank: string, suit: string, symbol: string, label: string,
 *   name: string, suit_name: string}} CardInfo */
/** /melds's live read-out of the ticked cards (api.pad.routes_tools.melds): their
 * deadwood and best melds, or only the message saying why they are no hand.
 * @typedef {{deadwood: number, melds: CardInfo[][], message?: string}} Melds */
/** A card of the defender's that fits one of the knocker's melds.
 * @typedef {{card: CardInfo, meld: CardInfo[], best: boolean, checked: boolean}} Fit */
/** An arrangement the knocker may have laid down, as play_choice.html's data gives it
 * (api.pad.declared.play_choice): its field value, gin or not, and the layoffs that fit.
 * @typedef {{value: string, gin: boolean, layoffs: Fit[]}} PlayOption */
/** Every rule preset's option values (api.pad.forms_start.preset_values), by preset.
 * @typedef {Record<string, Record<string, string | number | null>>} Presets */

/** The inputs under `root` that `sel` (a selector of inputs) matches.
 * @param {string} sel @param {ParentNode} [root] */
const inputs = (sel, root) => /** @type {HTMLInputElement[]} */ ($$(sel, root));

/** A new element with its attributes (`text`: its text) and its children (falsy ones left out).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Record<string, string>} [attrs] @param {...(Node | string)} children */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** @param {CardInfo} card */
function cardChip(card) {
  return el("span", { class: `card s-${card.suit}`, role: "img", "aria-label": card.name,
                      text: card.label });
}

// ---------------------------------------------------------------- the tap grids

const meldsUrl = document.documentElement.dataset.meldsUrl;

// base.html always gives <html> the grammar's three data-card-* attributes.
const grammar = /** @type {Grammar} */ (document.documentElement.dataset);
const readTyped = cardReader(grammar, letters, suitLetters);

/** @param {HTMLElement} fieldset (a player's tap grid: macros.html's grid) */
function setupGrid(fieldset) {
  const prefix = fieldset.dataset.grid;
  const live = /** @type {HTMLElement} */ ($(`#live-${prefix}`));  // the grid's own read-out
  const otherPrefix = fieldset.dataset.other;
  const other = otherPrefix ? $(`[data-grid="${otherPrefix}"]`) : null;
  const typedBox = $("[data-typed]", fieldset);
  const typed = typedBox ? /** @type {HTMLInputElement | null} */ ($("input", typedBox)) : null;
  let typedProblem = /** @type {string | null} */ (null);
  let controller = /** @type {AbortController | null} */ (null);
  let timer = /** @type {number | undefined} */ (undefined);
  // The strip grows when its melds wrap: a card the keyboard reaches scrolls clear of it
  // (pad.css's scroll-margin-top on the grid reads its height).
  new ResizeObserver(() => fieldset.style.setProperty("--live-height", `${live.offsetHeight}px`))
    .observe(live);

  const chosen = () => inputs("input[type=checkbox]:checked", fieldset).map((box) => box.value);

  function syncOther() {
    // A card tapped here cannot be tapped in the other player's grid.
    if (!other) return;
    const mine = new Set(chosen());
    for (const box of inputs("input[type=checkbox]", other)) {
      const taken = mine.has(box.value);
      if (taken && box.checked) continue;  // already in both (typed earlier): leave for the server
      box.disabled = taken;
      const label = /** @type {HTMLElement | null} */ (box.nextElementSibling);
      if (label) label.title = taken ? say("taken_tip", { name: fieldset.dataset.owner }) : "";
    }
  }

  /** @param {Melds | null} data @param {number} count */
  function show(data, count) {
    live.replaceChildren();
    live.append(el("span", { class: "count", text: sayCount("cards", count) }));
    if (typedProblem) {
      live.append(" ", el("span", { class: "error", text: typedProblem }));
      return;
    }
    if (!data) return;
    if (data.message) {
      live.append(" ", el("span", { class: "error", text: data.message }));
      return;
    }
    live.append(" · ", el("span", { class: "dw", text: say("deadwood", { points: data.deadwood }) }));
    if (data.melds.length) {
      // Every meld shows: the strip wraps onto a second line rather than hiding one.
      const melds = el("div", { class: "small melds" }, `${say("best_melds")} `);
      for (const meld of data.melds) {
        melds.append(el("span", { class: "meld" }, ...meld.map(cardChip)));
      }
      live.append(melds);
    } else if (count) {
      live.append(el("div", { class: "small muted melds", text: say("no_melds") }));
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
      if (/** @type {Error} */ (error).name !== "AbortError") show(null, cards.length);
    }
  }

  function changed() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 60);
    if (other) other.dispatchEvent(new CustomEvent("grid:sync"));
  }

  /** @param {HTMLInputElement} typed */
  function fromTyped(typed) {
    // The typed text decides which boxes are ticked; the grid shows it at once.
    const { codes, problem } = readTyped(typed.value, { typing: true });
    const wanted = new Set(codes);
    typedProblem = problem;
    for (const box of inputs("input[type=checkbox]", fieldset)) {
      if (box.disabled && wanted.has(box.value)) {
        typedProblem ??= say("taken", { card: box.getAttribute("aria-label") });
        wanted.delete(box.value);
      }
      box.checked = wanted.has(box.value);
    }
    changed();
  }

  /** @param {HTMLInputElement} typed */
  function typedFromTaps(typed) {
    // A tap shows in the typed line too: cards kept in the order given, new ones last.
    const now = chosen();
    const kept = readTyped(typed.value).codes.filter((code) => now.includes(code));
    typed.value = [...kept, ...now.filter((code) => !kept.includes(code))]
      .map((code) => spelled(code, suitLetters)).join(" ");
  }

  fieldset.addEventListener("change", (event) => {
    const target = /** @type {HTMLInputElement | HTMLFieldSetElement} */ (event.target);
    if (typed && (target.type === "checkbox" || target === fieldset)) {
      typedProblem = null;
      typedFromTaps(typed);
    }
    if (target !== typed) changed();
  });
  fieldset.addEventListener("grid:sync", syncOther);
  if (typedBox && typed) {
    typedBox.hidden = false;
    typedFromTaps(typed);
    typed.addEventListener("input", () => fromTyped(typed));
    typed.addEventListener("keydown", (event) => {
      if (event.key === "Enter") event.preventDefault();  // Enter does not send a half-typed hand
    });
  }
  refresh();
}

// ---------------------------------------------------------------- what was laid down

/** @param {CardInfo[]} cards */
function meldChip(cards) {
  return el("span", { class: "meld", role: "group", "aria-label": say("meld") }, ...cards.map(cardChip));
}

/** @param {string} message @param {ParentNode} [scope] */
function markStale(message, scope = document) {
  // The score shown was checked for another choice: say so until the next check.
  const result = $("[data-result]", scope);
  if (!result || $(".stale-note", result)) return;
  result.classList.add("stale");
  result.prepend(el("p", { class: "stale-note", role: "status", text: message }));
}

/** @param {HTMLElement} section (play_choice.html's section) */
function setupPlayChoice(section) {
  // Choosing another arrangement lists the layoffs that fit it, the best ones ticked,
  // without a round trip (the data is in the page); the server checks them all again.
  // A game of a partnership deal has its own fields (data-prefix: g0_, g1_) and result.
  const prefix = section.dataset.prefix || "";
  const scope = section.closest("[data-game]") || document;
  // play_choice.html always renders the data, the list and the hidden layoffs_for.
  const data = /** @type {HTMLElement} */ ($("[data-play-data]", section));
  const options = /** @type {PlayOption[]} */ (JSON.parse(data.textContent));
  const list = /** @type {HTMLElement} */ ($("[data-layoff-list]", section));
  const layoffsFor = /** @type {HTMLInputElement} */ (
    $(`input[name="${prefix}layoffs_for"]`, section));
  const defender = section.dataset.defender;
  const check = section.dataset.check;
  const button = $("[data-show-layoffs]", section);
  if (button) button.hidden = true;
  const again = say("changed", { button: check });

  /** @param {PlayOption} option */
  function show(option) {
    list.replaceChildren();
    if (option.gin) {
      list.append(el("p", { text: say("no_layoffs_gin") }));
    } else if (!option.layoffs.length) {
      list.append(el("p", { class: "muted", text: say("nothing_fits", { name: defender }) }));
    }
    for (const fit of option.layoffs) {
      const box = el("input", { type: "checkbox", name: `${prefix}layoffs`, value: fit.card.code });
      box.checked = fit.best;
      const text = el("span", {}, ...sayParts("laid_on", { card: cardChip(fit.card), meld: meldChip(fit.meld) }));
      if (fit.best) text.append(" ", el("span", { class: "small muted", text: say("best") }));
      list.append(el("label", { class: "pick layoff" }, box, text));
    }
    layoffsFor.value = option.value;
  }

  // A choice made before this script ran (a slow phone, a page restored by Back) is
  // shown as if made now: its layoffs, and the score marked out of date.
  const early = /** @type {HTMLInputElement | null} */ (
    $(`input[name="${prefix}arrangement"]:checked`, section));
  const earlyOption = early && early.value !== layoffsFor.value &&
    options.find((o) => o.value === early.value);
  if (earlyOption) {
    show(earlyOption);
    markStale(again, scope);
  }

  section.addEventListener("change", (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);  // an arrangement or a layoff
    if (target.name === `${prefix}arrangement`) {
      const option = options.find((o) => o.value === target.value);
      if (option) show(option);
    }
    markStale(again, scope);
  });
  for (const grid of $$("[data-grid]", scope)) {
    grid.addEventListener("change", () => markStale(
      say("cards_changed", { button: check }), scope));
  }
}

// ---------------------------------------------------------------- start-a-game options

/** @param {HTMLFormElement} form (start.html's) */
function setupOptions(form) {
  const data = $("#preset-values");
  if (!data) return;
  const presets = /** @type {Presets} */ (JSON.parse(data.textContent));
  const shownFor = /** @type {HTMLInputElement} */ ($("input[name=options_for]", form));
  const radios = inputs("input[name=preset]", form);
  const current = () => radios.find((r) => r.checked)?.value || "standard";
  // An option's field: a select or a number (start.html).
  /** @param {string} name */
  const option = (name) => /** @type {HTMLInputElement | HTMLSelectElement | null} */ (
    form.elements.namedItem(name));

  function markChanged() {
    const values = presets[current()];
    for (const [name, value] of Object.entries(values)) {
      const field = option(name);
      if (!field) continue;
      const wrapper = field.closest(".field");
      if (wrapper) wrapper.classList.toggle("changed", String(field.value) !== String(value));
    }
  }

  function fill() {
    const values = presets[current()];
    for (const [name, value] of Object.entries(values)) {
      const field = option(name);
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
  const names = inputs("input[data-player]", form);
  function relabel() {
    for (const input of names) {
      const label = $(`[data-dealer-label="${input.dataset.player}"]`, form);
      if (label) label.textContent = input.value.trim() || say("player", { num: Number(input.dataset.player) + 1 });
      // Players 3 and 4 are optional: no name, no dealer choice for them.
      const choice = $(`[data-dealer-choice="${input.dataset.player}"]`, form);
      if (choice && Number(input.dataset.player) >= 2) {
        choice.hidden = !input.value.trim();
        const radio = /** @type {HTMLInputElement} */ ($("input", choice));
        if (choice.hidden && radio.checked) inputs("input[name=dealer]", form)[0].checked = true;
      }
    }
  }
  for (const input of names) input.addEventListener("input", relabel);
  relabel();
  markChanged();
}

// ---------------------------------------------------------------- small things

/** @param {HTMLElement} button (its data-copy: the selector of the input it copies) */
function setupCopy(button) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const input = /** @type {HTMLInputElement} */ ($(/** @type {string} */ (button.dataset.copy)));
    try {
      await navigator.clipboard.writeText(input.value);
      button.textContent = say("copied");
    } catch {
      input.select();
    }
  });
}

/** @param {HTMLElement} form */
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
    if (/** @type {Element} */ (event.target).closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft" && prev) prev.click();
    if (event.key === "ArrowRight" && next) next.click();
  });
}

/** @param {HTMLElement} scope */
function setupModeSwitch(scope) {
  // Quick entry (the quick form, or one game of a partnership deal form): the
  // deadwood of the player who went out is 0 for gin; a void hand asks for nothing.
  const kinds = inputs("input[name$=kind]", scope);
  const knocker = /** @type {HTMLInputElement | null} */ ($("input[name$=knocker_deadwood]", scope));
  if (!knocker) return;
  const defender = $("input[name$=defender_deadwood]", scope);
  /** @param {Element} input @returns {HTMLElement | null} */
  const fieldOf = (input) => input.closest(".field");
  const sync = () => {
    const kind = kinds.find((k) => k.checked)?.value;
    const field = fieldOf(knocker);
    const gin = kind === "gin" || kind === "big_gin";
    const voided = kind === "void";
    if (gin) knocker.value = "0";
    knocker.readOnly = gin;
    if (field) field.hidden = voided;
    const defenderField = defender && fieldOf(defender);
    if (defenderField) defenderField.hidden = voided;
    const who = $("[data-who]", scope);
    if (who) who.hidden = voided;
  };
  for (const kind of kinds) kind.addEventListener("change", sync);
  sync();
}

function localTimes() {
  // The server writes times in UTC (the fallback); the phone shows them in its own time
  // zone and the page's language: each <time datetime> with a date and a time.
  const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
                                         { dateStyle: "medium", timeStyle: "short" });
  for (const time of /** @type {HTMLTimeElement[]} */ ($$("time[datetime]"))) {
    const when = new Date(time.dateTime);
    if (!time.dateTime.includes("T") || Number.isNaN(when.getTime())) continue;
    time.title = time.textContent;
    time.textContent = format.format(when);
  }
}

function timeZoneFields() {
  // Days typed in a filter are the phone's days: the server is told its offset from UTC.
  for (const zone of inputs("input[name=tz]")) zone.value = String(-new Date().getTimezoneOffset());
}

function focusOutcome() {
  // After a round trip, the error (the summary of a long form first) or the
  // checked result takes the focus and comes into view; the page's top otherwise.
  const target = $(".error-summary") || $("#main .banner[role=alert]") ||
    $(".invalid input:not([type=hidden]), .invalid select, .invalid textarea") || $("#result");
  if (!target) return;
  if (!target.matches("input, select, textarea")) target.tabIndex = -1;
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: target.matches("input") ? "center" : "start" });
}

function start() {
  $$("[data-grid]").forEach(setupGrid);
  $$("[data-play-choice]").forEach(setupPlayChoice);
  /** @type {HTMLFormElement[]} */ ($$("form[data-options]")).forEach(setupOptions);
  $$("[data-copy]").forEach(setupCopy);
  startShare();
  $$("form[data-confirm]").forEach(setupConfirm);
  $$("form[data-quick], [data-game]").forEach(setupModeSwitch);
  $$("form[data-quick], form[data-deal]").forEach(setupQuickPad);
  setupKeys();
  localTimes();
  timeZoneFields();
  focusOutcome();
  startOffline();
  watchReach();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
