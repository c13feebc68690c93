// The DOM helpers every scorepad script shares (an ES module: pad.js, pad-offline.js).

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
