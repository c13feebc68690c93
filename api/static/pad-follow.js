// Pages that follow an event without a reload or a tap: the wall screen (every second),
// the director's page and the players' event page (every 5 s).
//
// The page asks for itself again (data-src: the director's page shown after a refused
// form) with If-None-Match: the page's ETag (its data-follow attribute, unquoted) is a
// digest of the whole event, so while nothing changed the answer is an empty 304. Once a
// table's score or result changed, each part of the page marked data-part is replaced by
// the new page's part of the same id, but not a part in use: one with an open <details>
// (the director's "Time called" form) or the focus in a form field. That part is replaced
// at the first check after it is left: the new ETag is taken only once every part is new.
// A part replaced keeps the focus (on the element at the same place in it) and the
// sideways scroll of its scroll boxes. A hidden page (another tab, a phone's screen off)
// asks nothing until it is shown again.

const WALL_EVERY = 1000;
const PAGE_EVERY = 5000;

/** @param {Element} part */
function inUse(part) {
  const focused = document.activeElement;
  return (focused && part.contains(focused) && focused.matches("input, select, textarea")) ||
    part.querySelector("details[open]") !== null;
}

/** @param {Element} part @param {Element} node @returns {number[]} */
function pathTo(part, node) {
  // the child indexes from part down to node
  const path = [];
  for (let /** @type {Element | null} */ at = node; at && at !== part; at = at.parentElement) {
    path.unshift(Array.prototype.indexOf.call(at.parentElement?.children ?? [], at));
  }
  return path;
}

/** @param {Element} part @param {Element} replacement */
function replace(part, replacement) {
  const fresh = document.importNode(replacement, true);
  const focused = document.activeElement;
  const focusPath = focused && part.contains(focused) ? pathTo(part, focused) : null;
  const scrolled = [...part.querySelectorAll(".scroll")].map((box) => box.scrollLeft);
  part.replaceWith(fresh);
  fresh.querySelectorAll(".scroll").forEach((box, i) => { box.scrollLeft = scrolled[i] || 0; });
  if (focusPath === null) return;
  /** @type {Element | undefined} */
  let target = fresh;
  for (const i of focusPath) target = target && target.children[i];
  if (target) /** @type {HTMLElement} */ (target).focus({ preventScroll: true });
}

/** @param {HTMLElement} root */
function follow(root) {
  const source = root.dataset.src || window.location.href;
  let etag = root.dataset.follow; // (the root may be a part: replaced, it is not read again)
  let busy = false;
  async function check() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const response = await fetch(source, {
        headers: { Accept: "text/html", "If-None-Match": `"${etag}"` },
        cache: "no-store",
      });
      if (response.status !== 200) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
      const next = /** @type {HTMLElement | null} */ (fresh.querySelector("[data-follow]"));
      if (!next) return;
      let all = true;
      for (const part of document.querySelectorAll("[data-part]")) {
        const replacement = fresh.getElementById(part.id);
        if (!replacement) continue;
        if (inUse(part)) {
          all = false;
        } else {
          replace(part, replacement);
        }
      }
      if (all) etag = next.dataset.follow;
    } catch {
      // the server out of reach for a moment: the next check tries again
    } finally {
      busy = false;
    }
  }
  setInterval(check, root.hasAttribute("data-wall") ? WALL_EVERY : PAGE_EVERY);
}

const root = /** @type {HTMLElement | null} */ (document.querySelector("[data-follow]"));
if (root) follow(root);
