// The wall's pages (event_wall.html): when the standings or the round's tables do not fit
// the screen, both are cut into the same number of pages, their rows shared evenly, shown
// in turn every data-turn seconds (1 to 15); "Page 2 of 3" says which. The cut is
// measured: a page's rows fit between its list's top and the screen's bottom. It is made
// again, keeping the page shown, when pad-follow.js replaces the board (a result came) and
// when the screen is resized. Without this script every row is there, by scrolling.

const BOTTOM = 12; // px kept free under a page's last row

/** @type {HTMLElement[][][]} each list's pages of rows */
let cuts = [];
let page = 0;
let pages = 1;
/** @type {number | undefined} */
let timer;

/** @returns {HTMLElement | null} */
function board() {
  return document.querySelector("[data-wall]");
}

/** @param {HTMLElement[]} rows @param {number} count @returns {HTMLElement[][]} */
function cut(rows, count) {
  const each = Math.max(1, Math.ceil(rows.length / count));
  /** @type {HTMLElement[][]} */
  const parts = [];
  for (let i = 0; i < rows.length; i += each) parts.push(rows.slice(i, i + each));
  return parts;
}

/** @param {HTMLElement[][]} parts @returns {boolean} whether every part fits below its list's top */
function fits(parts) {
  if (!parts.length) return true;
  const top = parts[0][0].getBoundingClientRect().top;
  return parts.every((rows) => {
    const height = rows[rows.length - 1].getBoundingClientRect().bottom - rows[0].getBoundingClientRect().top;
    return top + height <= window.innerHeight - BOTTOM;
  });
}

/** Measure the lists (every row shown) and cut them into the fewest pages that fit. */
function layout() {
  const wall = board();
  if (!wall) return;
  const lists = [...wall.querySelectorAll("table.standings tbody, ul.tables")]
    .map((list) => /** @type {HTMLElement[]} */ ([...list.children]))
    .filter((rows) => rows.length);
  lists.flat().forEach((row) => { row.hidden = false; });
  const most = Math.max(1, ...lists.map((rows) => rows.length));
  pages = 1;
  while (pages < most && !lists.every((rows) => fits(cut(rows, pages)))) pages += 1;
  cuts = lists.map((rows) => cut(rows, pages));
  page %= pages;
  show();
}

/** Show page `page` of every list, and say which it is. */
function show() {
  for (const parts of cuts) {
    const shown = Math.min(page, parts.length - 1);
    parts.forEach((rows, i) => rows.forEach((row) => { row.hidden = i !== shown; }));
  }
  const wall = board();
  const where = /** @type {HTMLElement | null} */ (wall && wall.querySelector(".wall-page"));
  if (!wall || !where) return;
  wall.dataset.page = String(page + 1);
  where.hidden = pages < 2;
  where.textContent = (where.dataset.words || "")
    .replace("{page}", String(page + 1))
    .replace("{pages}", String(pages));
}

function turn() {
  page = (page + 1) % pages;
  show();
}

function start() {
  const wall = board();
  if (!wall) return;
  const every = Math.min(15, Math.max(1, Number(wall.dataset.turn) || 10));
  layout();
  clearInterval(timer);
  timer = setInterval(turn, every * 1000);
}

const main = board()?.parentElement;
if (main) {
  new MutationObserver(layout).observe(main, { childList: true });
  window.addEventListener("resize", layout);
  start();
}
