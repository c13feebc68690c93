// Typed cards, read with the server's own grammar (scorekeeper.cards: CARD_NOTATION,
// CARD_RANK and CARD_SEPARATORS, which the page carries as <html data-card-notation
// data-card-rank data-card-separators>): "As 2s 3s", "10h", "th", "7♣", any case,
// separated by white space, commas or semicolons. The typed box also takes cards run
// together ("as2s3s") and turns them into separate ticks: the server is sent the ticks.
// In the page's language the grammar also takes the local rank letters (French "Vd" for
// the jack of diamonds: api/pad/card_letters.py), which ``letters`` maps to the core's,
// and the local suit letters (French "Vk", the jack of diamonds), which ``suits`` maps
// to the core's suit, or to the two suits of a letter that names two there (French "c":
// coeur, or clubs in English), refused naming both cards: never read as one of them.

import { say, shownLetters } from "./pad-words.js";

/** @typedef {import("./pad-words.js").Letters} Letters */
/** @typedef {import("./pad-words.js").SuitLetters} SuitLetters */
/** The server's grammar of typed cards (<html>'s data-card-*: regular expressions).
 * @typedef {{cardNotation: string, cardRank: string, cardSeparators: string}} Grammar */
/** What typed text says: its card codes, and the first problem in it (null if none).
 * @typedef {{codes: string[], problem: string | null}} Read */

/** @type {Record<string, string>} */
const SUIT_OF = { "♣": "c", "♦": "d", "♥": "h", "♠": "s" };
/** @type {Record<string, string>} */
const SHOWN = { c: "♣", d: "♦", h: "♥", s: "♠" };
// A card as the typed line writes it in a language whose ``suits`` are given: its suit
// letter where that letter names the same suit on this pad, else the symbol ("4♠" where
// "s" also means hearts).
/** @param {string} code @param {SuitLetters} [suits] @returns {string} */
export const spelled = (code, suits = {}) =>
  code[0] + (suits[code[1].toUpperCase()] === undefined ? code[1] : SHOWN[code[1]]);
/** @param {string} code */
const shown = (code) => (code[0] === "T" ? "10" : shownLetters[code[0]] || code[0]) + SHOWN[code[1]];

// The reader of typed text under the grammar ``{cardNotation, cardRank, cardSeparators}``
// (an element's dataset), the language's ``letters`` (local rank letter -> the core's)
// and ``suits`` (local suit letter -> the core's suit, or [two suits]): text -> {codes,
// problem}. With typing, a last rank without its suit yet ("7", "1" of "10") is not a
// problem.
/** @param {Grammar} grammar @param {Letters} [letters] @param {SuitLetters} [suits]
 * @returns {(text: string, options?: {typing?: boolean}) => Read} */
export function cardReader({ cardNotation, cardRank, cardSeparators }, letters = {}, suits = {}) {
  const card = new RegExp(cardNotation, "y");
  const rankOnly = new RegExp(`^(?:${cardRank}|1)$`);
  const separators = new RegExp(cardSeparators);
  return function readTyped(text, { typing = false } = {}) {
    /** @type {string[]} */
    const codes = [];
    /** @type {string | null} */
    let problem = null;
    const chunks = text.split(separators).filter(Boolean);
    chunks.forEach((chunk, index) => {
      let at = 0;
      for (;;) {
        card.lastIndex = at;
        const match = card.exec(chunk);
        if (!match) break;
        at = card.lastIndex;
        const rank = match[1].toUpperCase();
        const core = rank === "10" ? "T" : letters[rank] || rank;
        const suit = SUIT_OF[match[2][0]] || suits[match[2].toUpperCase()] || match[2].toLowerCase();
        const code = core + suit;
        if (Array.isArray(suit)) {
          problem ??= say("two_suits", { text: match[0], first: shown(core + suit[0]),
                                        second: shown(core + suit[1]) });
        } else if (codes.includes(code)) problem ??= say("twice", { card: shown(code) });
        else codes.push(code);
      }
      const rest = chunk.slice(at);
      const last = index === chunks.length - 1;
      // The card being typed ("7" before its suit) is not a mistake yet.
      if (rest && !(typing && last && rankOnly.test(rest))) {
        problem ??= say("not_card", { text: rest });
      }
    });
    return { codes, problem };
  };
}
