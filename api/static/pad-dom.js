// The DOM helpers every scorepad script shares (an ES module: pad.js, pad-offline.js).

/** The first element under `root` that `sel` matches, if any.
 * @param {string} sel @param {ParentNode} [root] @returns {HTMLElement | null} */
export const $ = (sel, root = document) => root.querySelector(sel);
/** Every element under `root` that `sel` matches.
 * @param {string} sel @param {ParentNode} [root] @returns {HTMLElement[]} */
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
