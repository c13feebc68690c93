// Without a connection (navigator.onLine false), a page offers nothing that cannot be
// had: a form sent to the server (Undo, a save's Undo, a correction, void, the language
// and deck switches) and a link to a page this phone kept no copy of would open the
// browser's "no internet" page. They are turned off (pad-lock.js), with one sentence at
// the top of the page saying why, and on again when the connection returns.
//
// Choices:
// - The hand form keeps a hand typed offline (pad-save.js): it stays on.
// - A link opens offline when the service worker controls the page and kept a copy of
//   its page, as sw.js finds one: by its address without a save's notice, or any copy
//   of its path. Without a worker (plain http to a LAN address) no page opens offline.
// - Links to another site, and to a place on this page, are left alone.

import { $, $$ } from "./pad-dom.js";
import { setLocked } from "./pad-lock.js";
import { say } from "./pad-words.js";

const WHY = "offline-why";

/** @param {HTMLElement} link */
async function kept(link) {
  if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return false;
  const url = new URL(link.dataset.href || link.getAttribute("href") || "", window.location.href);
  url.hash = "";
  if (url.searchParams.has("done")) {
    url.searchParams.delete("done");
    url.searchParams.delete("n");
  }
  return Boolean(await caches.match(url.href) || await caches.match(url.href, { ignoreSearch: true }));
}

/** @param {HTMLElement} link */
function leadsAway(link) {
  const url = new URL(link.dataset.href || link.getAttribute("href") || "", window.location.href);
  const here = new URL(window.location.href);
  return url.origin === here.origin && !(url.pathname === here.pathname && url.search === here.search);
}

let round = 0;  // the latest check: an older one that ends late changes nothing

async function check() {
  const mine = ++round;
  const offline = !navigator.onLine;
  const forms = $$("form").filter((form) => (form.getAttribute("method") || "").toLowerCase() === "post"
    && !form.hasAttribute("data-queue-game"));
  const buttons = forms.flatMap((form) => $$("button", form));
  const links = $$("a[href], a[data-href]").filter(leadsAway);
  const lost = offline ? (await Promise.all(links.map(async (link) => [link, !(await kept(link))])))
    .filter(([, gone]) => gone).map(([link]) => link) : [];
  if (mine !== round) return;
  const locked = new Set([...(offline ? buttons : []), ...lost]);
  for (const control of [...buttons, ...links]) setLocked(control, WHY, locked.has(control));
  let why = $(`#${WHY}`);
  if (locked.size && !why) {
    why = document.createElement("p");
    why.id = WHY;
    why.className = "offline-why small";
    why.textContent = say("offline_locked");
    const heading = $("#main h1");
    if (heading) heading.after(why);
    else $("#main")?.prepend(why);
  } else if (!locked.size && why) why.remove();
}

export function watchReach() {
  if (!$("#main")) return;
  window.addEventListener("online", check);
  window.addEventListener("offline", check);
  if (!navigator.onLine) check();
}
