// The page's words for its scripts, in the page's language: the JSON the server
// renders into <script type="application/json" id="pad-words"> (api/pad/script_words.py,
// translated there with gettext). Messages have named placeholders ("%(name)s",
// "%(num)d"); a count's message carries each plural form of the language, chosen here
// with Intl.PluralRules. A page without the block (none should lack it) speaks English
// placeholders' names rather than fail.

const block = typeof document === "undefined" ? null : document.getElementById("pad-words");
/** @typedef {Record<string, string>} Letters (a card's letter: the page's own, by the API's)
 * @typedef {Record<string, string | [string, string]>} SuitLetters (a suit's letter: the
 *   API's suit, or the two it names there)
 * @typedef {{lang?: string, letters?: Letters, suits?: SuitLetters, shown?: Letters,
 *   words?: Record<string, string>, counts?: Record<string, Record<string, string>>}} Catalog
 * @typedef {Record<string, unknown>} Values (a placeholder's value, by its name) */

/** @type {Catalog} */
const catalog = block ? JSON.parse(block.textContent || "{}") : {};

export const lang = catalog.lang || "en";
export const letters = catalog.letters || {};
export const suitLetters = catalog.suits || {};
export const shownLetters = catalog.shown || {};

const PLACEHOLDER = /%\((\w+)\)[sd]/g;

// The message ``key`` with its placeholders filled from ``values``, as text.
/** @param {string} key @param {Values} [values] @returns {string} */
export function say(key, values = {}) {
  const message = (catalog.words || {})[key] ?? key;
  return message.replace(PLACEHOLDER, (/** @type {string} */ whole, /** @type {string} */ name) =>
    (name in values ? String(values[name]) : whole));
}

// The message ``key`` as pieces to append to an element: text, and the values
// (elements too) where the placeholders are.
/** @template V @param {string} key @param {Record<string, V>} [values] @returns {(string | V)[]} */
export function sayParts(key, values = {}) {
  const message = (catalog.words || {})[key] ?? key;
  return message.split(/(%\(\w+\)[sd])/).filter(Boolean).map((piece) => {
    const name = /^%\((\w+)\)[sd]$/.exec(piece);
    return name && name[1] in values ? values[name[1]] : piece;
  });
}

const plural = new Intl.PluralRules(lang);

// The counting message ``key`` for ``num`` (the form the language uses for it).
/** @param {string} key @param {number} num @param {Values} [values] @returns {string} */
export function sayCount(key, num, values = {}) {
  const forms = (catalog.counts || {})[key] || {};
  const message = forms[plural.select(num)] ?? forms.other ?? Object.values(forms).pop() ?? key;
  return message.replace(PLACEHOLDER, (/** @type {string} */ whole, /** @type {string} */ name) =>
    (name === "num" ? String(num) : name in values ? String(values[name]) : whole));
}

// A list in the language's way: "2, 3 and 4".
/** @param {string[]} items */
export const listed = (items) => new Intl.ListFormat(lang, { type: "conjunction" }).format(items);
