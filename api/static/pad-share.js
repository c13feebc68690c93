// Share a finished game or the rematch tally (issue 21): the Share button sends the
// result as text (the page's own sentences and its final table, in the page's
// language) through the Web Share API, with a picture of it where the phone can
// share files; without the Web Share API the text goes to the clipboard.
// The button is a script's control: hidden in the HTML, shown here.

import { $, $$ } from "./pad-dom.js";
import { say } from "./pad-words.js";

// Plain text for a chat app: without the invisible isolates around names (U+2066-U+2069,
// which the page's title carries and many apps show as boxes), spaces collapsed.
/** @param {string} text */
const clean = (text) => text.replace(/[\u2066-\u2069]/g, "").replace(/\s+/g, " ").trim();

/** @param {HTMLElement} table */
function tableLines(table) {
  // The table as plain text: one line per row, columns padded to line up.
  const rows = $$("tr", table).map((tr) => $$("th, td", tr).map((cell) => clean(cell.textContent)));
  /** @type {number[]} */
  const widths = [];
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] || 0, cell.length); });
  return rows.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
    .join("  ").trimEnd());
}

/** @param {HTMLElement} scope @returns {string[]} */
export function shareLines(scope) {
  // What a scope's [data-share-text] parts say, in page order: a table by rows, a
  // list by items, anything else as one line.
  const lines = [];
  for (const part of $$("[data-share-text]", scope)) {
    if (part.matches("table")) lines.push("", ...tableLines(part), "");
    else if (part.matches("ul, ol")) lines.push(...$$(":scope > li", part).map((li) => clean(li.textContent)));
    else lines.push(clean(part.textContent));
  }
  return lines.filter((line, i, all) => line || (i > 0 && all[i - 1])).join("\n").trim().split("\n");
}

/** @param {string[]} lines @returns {Promise<File | null>} */
function picture(lines) {
  // The lines drawn on a canvas, as a PNG file (null where the browser cannot).
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d");
  if (!context || !canvas.toBlob) return Promise.resolve(null);
  const size = 28;
  const font = `${size}px ui-monospace, Menlo, Consolas, monospace`;
  context.font = font;
  const width = Math.max(...lines.map((line) => context.measureText(line).width));
  canvas.width = Math.ceil(width) + 2 * size;
  canvas.height = Math.ceil(lines.length * size * 1.4) + 2 * size;
  context.fillStyle = "#fbfaf5";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = "#1d1d1b";
  context.font = font;
  context.textBaseline = "top";
  lines.forEach((line, i) => context.fillText(line, size, size + i * size * 1.4));
  return new Promise((resolve) => canvas.toBlob((blob) => {
    resolve(blob ? new File([blob], "gin-rummy.png", { type: "image/png" }) : null);
  }, "image/png"));
}

/** @param {HTMLElement} button */
function setupShare(button) {
  // Every Share button sits in the part it shares (templates/pad: the sheet's end, the tally).
  const scope = /** @type {HTMLElement} */ (button.closest("[data-share-scope]"));
  const note = $("[data-share-note]", scope);
  button.hidden = false;
  button.addEventListener("click", async () => {
    const lines = shareLines(scope);
    const text = lines.join("\n");
    const title = clean(document.title);
    try {
      if (navigator.share) {
        // (a browser without canShare leaves it undefined, whatever the DOM's types say)
        const file = typeof navigator.canShare === "function" ? await picture(lines) : null;
        const withFile = file && navigator.canShare({ files: [file] });
        await navigator.share(withFile ? { title, text, files: [file] } : { title, text });
        return;
      }
      await navigator.clipboard.writeText(text);
      if (note) note.textContent = say("copied");
    } catch (error) {
      if (/** @type {Error | null} */ (error)?.name === "AbortError") return; // the player closed the share sheet
      if (note) note.textContent = say("share_failed");
    }
  });
}

export function startShare() {
  $$("[data-share]").forEach(setupShare);
}
