// A live sheet: the sheet page (editing phones and read-only viewers alike) follows
// every change of its game within moments, without a reload.
//
// Where the server runs live updates (the h1 has data-live-stream), the game's event
// stream tells of each change (Server-Sent Events from nginx; each event's data is
// {"version", ...}); elsewhere, or once the stream is refused, the page polls its
// sheet every 15 s with If-None-Match (an unchanged sheet is a 304). When the sheet
// is newer than the page, the page's content is fetched again and changed in place:
// elements stay where the new page has the same element (so the undo form keeps its
// confirmation, and nothing the user holds moves), only what changed is replaced.
// The sheet page has no open form to lose: hands are typed on pages of their own.

const POLL = 15000;

// What pad.js sets up when the page opens: an element of these that the update brings
// anew would miss its behaviour, so such an update reloads the page instead.
const SCRIPTED = "form[data-confirm], [data-copy], [data-queue], [data-grid], [data-play-choice], " +
  "form[data-options], form[data-quick], [data-game], [data-step]";

/** @param {HTMLElement} heading the page's h1 with data-live (and data-live-stream) */
function live(heading) {
  const found = document.getElementById("main");
  if (!found) return;
  const main = found;
  const shown = () => Number(
    /** @type {HTMLElement | null} */ (document.querySelector("[data-live]"))?.dataset.liveVersion);
  let wanted = shown();
  let busy = false;

  let leaving = false;  // a form sent or a link followed: that page is coming, leave this one be
  window.addEventListener("submit", (event) => { leaving = leaving || !event.defaultPrevented; });
  window.addEventListener("beforeunload", () => { leaving = true; });

  async function refresh() {
    if (busy || leaving) return;
    busy = true;
    const before = shown();
    try {
      const response = await fetch(window.location.href, {
        headers: { Accept: "text/html" }, cache: "no-store",
      });
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html")
        .getElementById("main");
      if (!fresh || !fresh.querySelector("[data-live]")) return;
      if (leaving) return;
      const scripted = new Set(main.querySelectorAll(SCRIPTED));
      morph(main, fresh);
      if ([...main.querySelectorAll(SCRIPTED)].some((element) => !scripted.has(element))) {
        window.location.reload();
      }
    } catch {
      // offline for a moment: the next event or poll tries again
    } finally {
      busy = false;
    }
    if (wanted > shown() && shown() > before) refresh();  // more came meanwhile
  }

  /** @param {number} version */
  function newer(version) {
    if (version > wanted) wanted = version;
    if (wanted > shown()) refresh();
  }

  async function check() {
    if (document.visibilityState !== "visible") return;
    try {
      const response = await fetch(/** @type {string} */ (heading.dataset.live), {  // [data-live]
        headers: { Accept: "application/json", "If-None-Match": `"${shown()}"` },
      cache: "no-store",
      });
      if (response.status === 200) newer((await response.json()).version);
    } catch {
      // offline for a moment: try again later
    }
  }

  /** @type {ReturnType<typeof setInterval> | null} */
  let polling = null;
  const poll = () => { polling = polling || setInterval(check, POLL); };
  if (heading.dataset.liveStream === undefined || !("EventSource" in window)) {
    poll();
    return;
  }
  const stream = new EventSource(`${heading.dataset.live}/events`);
  stream.addEventListener("open", check);  // what changed before the stream was open
  stream.addEventListener("message", (event) => {
    try {
      newer(JSON.parse(event.data).version);
    } catch {
      // not an event of ours
    }
  });
  stream.addEventListener("error", () => {
    if (stream.readyState === EventSource.CLOSED) poll();  // refused: it will not come back
  });
}

// Makes `old` look like `fresh`: same-named elements are kept and their attributes and
// children brought up to date; other nodes are replaced. The offline queue's panel is
// pad-offline.js's to fill: it only gets the new count of hands.
/** @param {Element} old @param {Element} fresh */
function morph(old, fresh) {
  if (old.isEqualNode(fresh)) return;
  if (old instanceof HTMLElement && fresh instanceof HTMLElement && old.matches("[data-queue]")) {
    old.dataset.hands = fresh.dataset.hands;
    return;
  }
  for (const { name, value } of [...fresh.attributes]) {
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  for (const { name } of [...old.attributes]) {
    if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  }
  const before = [...old.childNodes];
  const after = [...fresh.childNodes];
  after.forEach((node, i) => {
    const here = before[i];
    if (here && here.nodeType === node.nodeType && here.nodeName === node.nodeName) {
      if (here instanceof Element && node instanceof Element) morph(here, node);
      else if (here.nodeValue !== node.nodeValue) here.nodeValue = node.nodeValue;
    } else if (here) {
      old.replaceChild(document.importNode(node, true), here);
    } else {
      old.appendChild(document.importNode(node, true));
    }
  });
  for (const extra of before.slice(after.length)) extra.remove();
}

const heading = /** @type {HTMLElement | null} */ (document.querySelector("[data-live]"));
if (heading) live(heading);
