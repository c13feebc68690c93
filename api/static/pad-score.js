// The scorepad's own scorer (an ES module): hands typed on the phone and not yet on the
// server are scored here, so the page can show provisional totals, the next dealer and
// the game's end while they wait, and a quick hand's score as it is typed. It is the
// core's rules, ported: scorekeeper.sheet (score_sheet, next_dealer, the single,
// Hollywood and partnership sheets, the game's result), scorekeeper.hands and
// scorekeeper.knock (a quick hand: who went out and the two deadwood counts; a hand
// typed card by card: verify_knock's best play, the knocker's arrangement against the
// defender's best melds and layoffs) and the pad's hand forms (api.pad.forms_hand:
// quick_input, cards_form_input, deal_input). It does not fork the rules:
// tests/test_pad_score.py plays thousands of random hands through both, across every
// preset and option value, and finds them equal, sheet for sheet.
//
// What it gives (every sheet is what the core's to_dict() gives, as JSON):
// - scoreSheet(entries, {players, rules, dealer, stake, after}): score_sheet.
// - addHand(sheet, fields): a hand of the pad's form (its [name, value] pairs, as the
//   queue keeps them) added to a sheet summary: {entry, record, sheet}, the new
//   summary (score_sheet's ``after``: the sheet with ``hands`` their number). The
//   live preview of the quick form is its entry and record.
// - provisional(sheet, queued): the hands waiting to sync, scored after the sheet the
//   server last sent (its JSON, hands as a list or their number).
//
// Choices:
// - ``rules`` is the game's whole rules object (every option, as a sheet carries it):
//   presets live in the core only, so a missing option is an error, not a default.
// - A hand it cannot score throws: Refused (what the server would refuse, with the
//   core's code and the field at fault, never a sentence: the server's words come on
//   sync) or NeedsServer (a deal record, or a card hand whose form declares the play:
//   an arrangement chosen after the server's check; such a hand is scored on sync).
//   provisional() stops at the first such hand: who plays and deals after it, and
//   the totals, wait for the server.
// - Cards and upcards are card codes ("Ts", "7h"), as the pad's tap grids and upcard
//   list send them (the typed box sends its cards as ticks).
// - A card hand is scored by its best play, as the core scores a hand with nothing
//   declared: the arrangement (every legal one is weighed) that does best against the
//   defender's least deadwood after layoffs; only the two counts are needed, so ties
//   between arrangements of equal result need not be broken as the core breaks them.

/** The game's rules, every option of the core (scorekeeper.rules.Rules.to_dict()).
 * @typedef {{knock_limit: number, oklahoma: boolean, ace_upcard: string, spade_doubles: boolean,
 *   gin_bonus: number, big_gin_bonus: number | null, undercut_bonus: number, box_bonus: number,
 *   game_bonus: number, shutout: string, target: number, next_dealer: string, scoring: string,
 *   tie: string, three_player_dealer: string, partnership_netting: string,
 *   [option: string]: unknown}} Rules */
/** A game of a four-player deal: its two players (seats), the dealer and the hand's result.
 * @typedef {{game: number, players: number[], dealer: number}} DealGame */
/** A sheet as the core's to_dict() gives it (JSON): ``hands`` their records, or their number
 * (a summary, what score_sheet goes on from).
 * @typedef {{players: string[], rules: Rules, scoring: string, stake: Stake,
 *   hands: HandRecord[] | number, totals: number[], boxes: number[], needed: number[],
 *   next_dealer: number, next_games?: DealGame[], teams?: number[][], columns?: Column[],
 *   opened?: number[][], over: boolean, result: Result | null}} Sheet */
/** A hand's result once checked (sheet._parse_hand): the winning and losing seats, if any.
 * @typedef {{winner: number | null, loser: number | null, points: number,
 *   outcome: string | null, void: boolean}} Parsed */
/** A hand's record on the sheet (a sheet's ``hands``): the single sheet's, Hollywood's
 * (its columns) or a partnership deal's (its games).
 * @typedef {Parsed & {n: number, dealer: number, totals: number[], game_over_after: boolean,
 *   sits_out?: number, columns?: number[], opened?: number | null, closed?: number[],
 *   column_totals?: number[][], dealer_team?: number, team_points?: number[],
 *   games?: (DealGame & Parsed)[]}} HandRecord */
/** What a loser pays the winner.
 * @typedef {{payer: number, payee: number, amount: number}} Payment */
/** The end of a game (sheet._result), won by side ``winner``.
 * @typedef {{winner: number, loser: number | null, losers: number[], totals: number[],
 *   game_bonus: number, box_bonus: number[], shutout: boolean, final: number[], net: number,
 *   nets: number[], stake: Stake, settlement: Payment | Payment[] | null,
 *   shut_out: number[]}} GameResult */
/** The end of a Hollywood match (sheet._match_result): ``winner`` null on a tie.
 * @typedef {{winner: number | null, loser: number | null, losers: number[], totals: number[],
 *   game_bonuses: number[], box_bonus: number[], shutouts: boolean[], column_winners: number[],
 *   final: number[], net: number, nets: number[], stake: Stake,
 *   settlement: Payment | null}} MatchResult */
/** @typedef {GameResult | MatchResult} Result */
/** A Hollywood column.
 * @typedef {{game: number, totals: number[], boxes: number[], opened: boolean[],
 *   over: boolean, result: GameResult | null, needed: number[]}} Column */
/** A sheet with its hands listed (the API's, or scoreSheet's).
 * @typedef {Sheet & {hands: HandRecord[]}} FullSheet */
/** The waiting hands scored (provisional()): the summary after them, their records, and
 * where the scoring stopped (the hand that could not be scored here, and why), if it did.
 * @typedef {{sheet: Sheet, records: HandRecord[],
 *   stopped: {index: number, error: Error | null} | null}} Provisional */
/** A stake per point (a decimal, as JSON carries it), or none.
 * @typedef {number | string | null} Stake */
/** A card read from its code: its rank (0 the ace), suit and point value.
 * @typedef {{code: string, rank: number, suit: string, value: number}} Card */
/** A hand's score (knock.score_hand): who won it, the knocker or the defender (null: a tie).
 * @typedef {{outcome: string, winner: "knocker" | "defender" | null, points: number}} Score */
/** A hand input (hands.py's, as a form gives it): quick, by its cards, void or a deal.
 * @typedef {{kind: string, knocker?: number | string, knocker_deadwood?: number,
 *   defender_deadwood?: number, big_gin?: boolean, upcard?: string | null,
 *   knocker_cards?: string[], defender_cards?: string[], games?: HandInput[],
 *   knocker_melds?: unknown, defender_melds?: unknown, layoffs?: unknown}} HandInput */
/** A sheet entry (hands.evaluate_hand's): a hand's result, void, or a deal's games.
 * @typedef {{void?: boolean, winner?: number | null, loser?: number | null, points?: number,
 *   outcome?: string | null, games?: SheetEntry[]}} SheetEntry */
/** Who plays a hand (scorekeeper.seating): the table's size, the two seats, the dealer
 * and the dealer who sits out (three players).
 * @typedef {{count: number, seats: number[], dealer: number, sitsOut: number | null}} Seating */
/** A form's fields by name (a tap grid's cards as a list).
 * @typedef {Record<string, string | string[]>} FormValues */
/** Where a sheet's scoring starts: the hands before, totals, boxes, dealer and result.
 * @typedef {{before: number, totals: number[], boxes: number[], dealer: number,
 *   result: Result | null, ended?: number | null}} Start */
/** What every sheet starts with.
 * @typedef {{players: string[], rules: Rules, scoring: string, stake: Stake}} Head */

export class Refused extends Error {
  /** @param {string} code @param {string | null} [field] */
  constructor(code, field = null) {
    super(field ? `${field}: ${code}` : code);
    this.name = "Refused";
    this.code = code;
    this.field = field;
  }

  // This refusal placed in a wider input (the core's ScorekeeperError.within).
  /** @param {string} place */
  within(place) {
    return new Refused(this.code, this.field ? `${place}.${this.field}` : place);
  }
}

export class NeedsServer extends Error {
  /** @param {string} kind */
  constructor(kind) {
    super(`a ${kind} hand is scored by the server`);
    this.name = "NeedsServer";
    this.kind = kind;
  }
}

// The options the scorer reads (a sheet's rules carry every option of the core).
const OPTIONS = ["knock_limit", "oklahoma", "ace_upcard", "spade_doubles", "gin_bonus",
  "big_gin_bonus", "undercut_bonus", "box_bonus", "game_bonus", "shutout", "target",
  "next_dealer", "scoring", "tie", "three_player_dealer", "partnership_netting"];
const OUTCOMES = ["knock", "gin", "big_gin", "undercut"];
const TEAMS = [[0, 2], [1, 3]];
const TEAM_OF = [0, 1, 0, 1];
const COLUMNS = 3;
const MAX_DEADWOOD = 98;
const RANKS = "A23456789TJQK";
/** @type {Record<number, string[]>} */
const MODES = { 2: ["quick", "cards", "record"], 3: ["quick", "cards"], 4: ["deal", "deal_cards"] };
const HAND_KINDS = ["quick", "cards", "record", "void", "deal"];

/** @param {unknown} value @returns {value is number} */
const isWhole = (value) => typeof value === "number" && Number.isInteger(value);
/** @template T @param {T} value @returns {value is NonNullable<T>} */
const given = (value) => value !== undefined && value !== null;
/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
/** @param {number} n */
const range = (n) => Array.from({ length: n }, (_, i) => i);
/** Whether ``value`` is one of ``list``.
 * @template T @param {readonly T[]} list @param {unknown} value @returns {value is T} */
const isOneOf = (list, value) => list.includes(/** @type {T} */ (value));

/** @param {Rules} rules */
function checkRules(rules) {
  const missing = OPTIONS.filter((name) => !(name in (rules || {})));
  if (missing.length) throw new Error(`the rules lack ${missing.join(", ")}`);
  return rules;
}

// ---------------------------------------------------------------- one hand (knock.py)

// A card from its code ("Ts"): its rank (0 the ace), suit and point value; null if none.
/** @param {unknown} code @returns {Card | null} */
function card(code) {
  const match = typeof code === "string" && /^([A2-9TJQK])([cdhs])$/.exec(code);
  if (!match) return null;
  const rank = RANKS.indexOf(match[1]);
  return { code, rank, suit: match[2], value: Math.min(rank + 1, 10) };
}

// Rules.knock_limit_for and Rules.multiplier_for: Oklahoma's limit, a spade's doubling.
/** @param {Rules} rules @param {Card | null} up */
function knockLimitFor(rules, up) {
  if (!rules.oklahoma) return rules.knock_limit;
  if (!up) throw new Refused("missing_upcard", "upcard");
  if (up.rank === 0) return Math.min(rules.ace_upcard === "gin_only" ? 0 : 1, rules.knock_limit);
  return Math.min(up.value, rules.knock_limit);
}

/** @param {Rules} rules @param {Card | null} up */
function multiplierFor(rules, up) {
  if (!rules.spade_doubles) return 1;
  if (!up) throw new Refused("missing_upcard", "upcard");
  return up.suit === "s" ? 2 : 1;
}

// knock.score_hand: {outcome, winner ("knocker", "defender" or null: a tie), points}.
/** @param {number} k @param {number} d @param {Rules} rules @param {boolean} bigGin
 * @param {number} multiplier @returns {Score} */
function scoreHand(k, d, rules, bigGin, multiplier) {
  if (!bigGin && k && k === d && rules.tie === "no_score") {
    return { outcome: "tie", winner: null, points: 0 };
  }
  /** @type {[string, "knocker" | "defender", number, number]} */
  let play;
  if (bigGin) play = ["big_gin", "knocker", d, rules.big_gin_bonus || 0];
  else if (k === 0) play = ["gin", "knocker", d, rules.gin_bonus];
  else if (k < d) play = ["knock", "knocker", d - k, 0];
  else play = ["undercut", "defender", k - d, rules.undercut_bonus];
  const [outcome, winner, difference, bonus] = play;
  return { outcome, winner, points: (difference + bonus) * multiplier };
}

// hands.score_deadwood under rules already read.
/** @param {unknown} k @param {unknown} d @param {Rules} rules @param {unknown} upcard
 * @param {unknown} bigGin */
function scoreDeadwood(k, d, rules, upcard, bigGin) {
  let up = null;
  if (given(upcard)) {
    up = card(upcard);
    if (!up) throw new Refused("bad_card", "upcard");
  }
  const limit = knockLimitFor(rules, up);
  if (!isWhole(k) || k < 0) throw new Refused("bad_value", "knocker_deadwood");
  if (k > limit) throw new Refused("knock_over_limit", "knocker_deadwood");
  if (!isWhole(d) || d < 0 || d > MAX_DEADWOOD) throw new Refused("bad_value", "defender_deadwood");
  if (typeof bigGin !== "boolean") throw new Refused("bad_value", "big_gin");
  if (bigGin && rules.big_gin_bonus === null) throw new Refused("big_gin_not_allowed", "big_gin");
  if (bigGin && k) throw new Refused("big_gin_deadwood", "knocker_deadwood");
  return scoreHand(k, d, rules, bigGin, multiplierFor(rules, up));
}

// ---------------------------------------------------------------- a hand by its cards

// A card's place in the deck (scorekeeper.cards.DECK: suit by suit, ace to king).
/** @param {Card} up */
const deckIndex = (up) => "cdhs".indexOf(up.suit) * 13 + up.rank;
/** @param {number} index */
const points = (index) => Math.min(index % 13 + 1, 10);

// Every meld of ``cards`` (deck indexes), as masks of their positions in ``cards``:
// each set of 3 or 4 of a rank, each run of 3+ consecutive cards of a suit (ace low).
/** @param {number[]} cards @returns {number[]} */
function meldsOf(cards) {
  const at = new Map(cards.map((index, i) => [index, i]));
  /** @type {number[]} */
  const melds = [];
  for (let rank = 0; rank < 13; rank += 1) {
    const held = [0, 1, 2, 3].map((suit) => at.get(suit * 13 + rank))
      .filter(/** @returns {i is number} */ (i) => i !== undefined);
    if (held.length < 3) continue;
    const all = held.reduce((mask, i) => mask | (1 << i), 0);
    melds.push(all);
    if (held.length === 4) for (const i of held) melds.push(all & ~(1 << i));
  }
  for (let suit = 0; suit < 4; suit += 1) {
    for (let low = 0; low < 11; low += 1) {
      let mask = 0;
      for (let rank = low; rank < 13 && at.has(suit * 13 + rank); rank += 1) {
        mask |= 1 << /** @type {number} */ (at.get(suit * 13 + rank));
        if (rank - low >= 2) melds.push(mask);
      }
    }
  }
  return melds;
}

// The least deadwood of every subset of ``cards`` (a table indexed by position mask).
/** @param {number[]} cards @returns {number[]} */
function leastDeadwood(cards) {
  const melds = meldsOf(cards);
  const least = new Array(1 << cards.length).fill(0);
  for (let mask = 1; mask < least.length; mask += 1) {
    const low = mask & -mask;
    let best = points(cards[31 - Math.clz32(low)]) + least[mask & ~low];
    for (const meld of melds) {
      if (meld & low && (meld & mask) === meld) best = Math.min(best, least[mask & ~meld]);
    }
    least[mask] = best;
  }
  return least;
}

// The cards a meld of the knocker takes from the defender, as chains laid one after the
// other (knock.py _chains_of), each as the cumulative masks of the defender's positions
// that may be laid (the first, 0, lays nothing).
/** @param {number} meld @param {number[]} cards @param {number[]} theirs @returns {number[][]} */
function layoffChains(meld, cards, theirs) {
  const indexes = cards.filter((_, i) => meld & (1 << i)).sort((a, b) => a - b);
  const at = new Map(theirs.map((index, i) => [index, i]));
  const [first, last] = [indexes[0], indexes[indexes.length - 1]];
  /** @type {number[][]} */
  let chains;
  if (indexes.every((index) => index % 13 === first % 13)) {
    const missing = [0, 1, 2, 3].map((suit) => suit * 13 + (first % 13))
      .filter((index) => !indexes.includes(index));
    chains = indexes.length === 3 ? [missing] : [];
  } else {
    const base = first - (first % 13);
    chains = [range(first % 13).reverse().map((rank) => base + rank),
              range(12 - (last % 13)).map((step) => last + 1 + step)];
  }
  return chains.map((chain) => {
    const prefixes = [0];
    for (const index of chain) {
      if (!at.has(index)) break;
      prefixes.push(prefixes[prefixes.length - 1] | (1 << /** @type {number} */ (at.get(index))));
    }
    return prefixes;
  }).filter((prefixes) => prefixes.length > 1);
}

// The defender's least deadwood after laying off on ``melds`` (knock.py _best_reply).
/** @param {number[]} melds @param {number[]} cards @param {number[]} theirs
 * @param {number[]} least */
function bestReply(melds, cards, theirs, least) {
  const options = melds.flatMap((meld) => layoffChains(meld, cards, theirs));
  const full = (1 << theirs.length) - 1;
  let best = least[full];
  /** @param {number} i @param {number} laid */
  const walk = (i, laid) => {
    if (i === options.length) {
      best = Math.min(best, least[full & ~laid]);
      return;
    }
    for (const prefix of options[i]) if (!(laid & prefix)) walk(i + 1, laid | prefix);
  };
  walk(0, 0);
  return best;
}

// knock.py _net: the knocker's result of a knock (+ won, - undercut, 0 a no-score tie).
/** @param {number} k @param {number} d @param {Rules} rules */
function net(k, d, rules) {
  if (k < d) return d - k;
  if (k === d && rules.tie === "no_score") return 0;
  return -(k - d + rules.undercut_bonus);
}

// The two deadwood counts of a showdown played best (knock.verify_knock without declared
// melds or layoffs): the knocker's arrangement that does best against the defender's
// best reply (every legal arrangement is weighed: net result first, then the lower
// deadwood), and that reply.
/** @param {number[]} mine @param {number[]} theirs @param {number} limit @param {boolean} big
 * @param {Rules} rules @returns {{dead: number, reply: number}} */
function showdown(mine, theirs, limit, big, rules) {
  const least = leastDeadwood(mine);
  const minimum = least[(1 << mine.length) - 1];
  const replies = leastDeadwood(theirs);
  if (big && minimum) throw new Refused("big_gin_deadwood", "knocker");
  if (minimum > limit) throw new Refused("knock_over_limit", "knocker");
  if (minimum === 0) return { dead: 0, reply: replies[(1 << theirs.length) - 1] };
  const melds = meldsOf(mine);
  /** @type {{net: number, dead: number, reply: number} | null} */
  let best = null;
  /** @param {number} start @param {number} used @param {number[]} chosen */
  const walk = (start, used, chosen) => {
    const dead = mine.reduce((sum, index, i) => sum + (used & (1 << i) ? 0 : points(index)), 0);
    if (dead <= limit) {
      const reply = bestReply(chosen, mine, theirs, replies);
      const result = net(dead, reply, rules);
      if (!best || result > best.net || (result === best.net && dead < best.dead)) {
        best = { net: result, dead, reply };
      }
    }
    for (let j = start; j < melds.length; j += 1) {
      if (!(melds[j] & used)) walk(j + 1, used | melds[j], [...chosen, melds[j]]);
    }
  };
  walk(0, 0, []);
  // (the arrangement of the least deadwood is walked, and it is within the limit)
  return /** @type {{dead: number, reply: number}} */ (/** @type {unknown} */ (best));
}

// hands.py's cards hand scored as verify_knock scores it when nothing is declared.
/** @param {HandInput} hand @param {Rules} rules */
function scoreCards(hand, rules) {
  /** @param {unknown} codes @param {string} field @param {number[]} counts */
  const read = (codes, field, counts) => {
    const cards = Array.isArray(codes) ? codes.map(card) : [];
    if (!Array.isArray(codes) || cards.some((c) => !c)) throw new Refused("bad_card", field);
    const indexes = /** @type {Card[]} */ (cards).map(deckIndex);
    if (new Set(indexes).size !== indexes.length) throw new Refused("duplicate_card", field);
    if (!counts.includes(indexes.length)) throw new Refused("card_count", field);
    return indexes;
  };
  const mine = read(hand.knocker_cards, "knocker", [10, 11]);
  const theirs = read(hand.defender_cards, "defender", [10]);
  if (theirs.some((index) => mine.includes(index))) throw new Refused("card_in_both_hands", "defender");
  let up = null;
  if (given(hand.upcard)) {
    up = card(hand.upcard);
    if (!up) throw new Refused("bad_card", "upcard");
  }
  const limit = knockLimitFor(rules, up);
  const multiplier = multiplierFor(rules, up);
  const big = mine.length === 11;
  if (big && rules.big_gin_bonus === null) throw new Refused("big_gin_not_allowed", "knocker");
  for (const key of /** @type {const} */ (["knocker_melds", "defender_melds", "layoffs"])) {
    if (given(hand[key])) throw new NeedsServer("declared");
  }
  const { dead, reply } = showdown(mine, theirs, limit, big, rules);
  return scoreHand(dead, reply, rules, big, multiplier);
}

// ---------------------------------------------------------------- a hand input (hands.py)

// sheet.check_seat: ``value`` as a player of the hand (``seats``), not the sitting-out dealer.
/** @param {unknown} value @param {string} key @param {number} count @param {number[]} seats
 * @param {number | null} [sittingOut] */
function checkSeat(value, key, count, seats, sittingOut = null) {
  if (!isWhole(value) || value < 0 || value >= count) throw new Refused("bad_value", key);
  if (value === sittingOut) throw new Refused("dealer_sits_out", key);
  if (!seats.includes(value)) throw new Refused("not_in_this_game", key);
  return value;
}

/** @param {HandInput} hand @param {Rules} rules @param {number} count @param {number[]} seats
 * @param {number | null} sittingOut @returns {SheetEntry} */
function evaluateKnock(hand, rules, count, seats, sittingOut) {
  const knocker = checkSeat(hand.knocker, "knocker", count, seats, sittingOut);
  const score = hand.kind === "quick"
    ? scoreDeadwood(hand.knocker_deadwood, hand.defender_deadwood, rules, hand.upcard,
                    given(hand.big_gin) ? hand.big_gin : false)
    : scoreCards(hand, rules);
  if (score.winner === null) return { winner: null, loser: null, points: 0, outcome: "tie" };
  const defender = knocker === seats[0] ? seats[1] : seats[0];
  const [winner, loser] = score.winner === "knocker" ? [knocker, defender] : [defender, knocker];
  return { winner, loser, points: score.points, outcome: score.outcome };
}

// hands.evaluate_hand's sheet entry, for the hands the page can score (quick, void, and
// a four-player deal of quick or void games); ``dealer`` deals it (three players),
// ``games`` are a four-player deal's pairings (the sheet's next_games).
/** @param {HandInput} hand @param {Rules} rules
 * @param {{players: string[], dealer?: number | null, games?: DealGame[] | null}} table
 * @returns {SheetEntry} */
export function evaluateHand(hand, rules, { players, dealer = null, games = null }) {
  checkRules(rules);
  if (!isObject(hand)) throw new Refused("bad_value", "kind");
  const { kind } = hand;
  const count = players.length;
  if (kind === "void") return { void: true };
  if (!HAND_KINDS.includes(kind)) throw new Refused("bad_value", "kind");
  if (kind === "record") {
    if (count !== 2) throw new Refused("record_two_players", "kind");
    throw new NeedsServer(kind);
  }
  if ((kind === "deal") !== (count === 4)) throw new Refused("bad_kind", "kind");
  if (kind === "deal") {
    const pairings = /** @type {DealGame[]} */ (games);  // a four-player sheet has its next_games
    const typed = hand.games;
    if (!Array.isArray(typed) || typed.length !== pairings.length) {
      throw new Refused("bad_games", "games");
    }
    return {
      games: pairings.map((game, i) => {
        try {
          return evaluateGame(typed[i], rules, count, game.players);
        } catch (error) {
          throw error instanceof Refused ? error.within(`games.${i}`) : error;
        }
      }),
    };
  }
  if (count === 3 && dealer === null) throw new Error("a three-player hand needs its dealer");
  const seats = count === 2 ? [0, 1] : range(3).filter((p) => p !== dealer);
  return evaluateKnock(hand, rules, count, seats, count === 3 ? dealer : null);
}

/** @param {HandInput} hand @param {Rules} rules @param {number} count @param {number[]} seats
 * @returns {SheetEntry} */
function evaluateGame(hand, rules, count, seats) {
  const kind = isObject(hand) ? hand.kind : null;
  if (!isOneOf(["quick", "cards", "void"], kind)) throw new Refused("bad_value", "kind");
  if (kind === "void") return { void: true };
  return evaluateKnock(hand, rules, count, seats, null);
}

// ---------------------------------------------------------------- the pad's quick forms

// Who plays the next hand of a sheet (scorekeeper.seating.seatings): one seating for two
// or three players, two (the deal's games) for four.
/** @param {Sheet} sheet @returns {Seating[]} */
export function seatings(sheet) {
  const count = sheet.players.length;
  if (count === 4) {  // a four-player sheet names its next games
    return /** @type {DealGame[]} */ (sheet.next_games).map((game) => ({
      count, seats: game.players, dealer: game.dealer, sitsOut: null }));
  }
  const dealer = sheet.next_dealer;
  const seats = count === 2 ? [0, 1] : range(3).filter((p) => p !== dealer);
  return [{ count, seats, dealer, sitsOut: count === 3 ? dealer : null }];
}

/** @param {unknown} value @param {Seating} seating */
function formKnocker(value, seating) {
  const raw = String(value);
  const seat = seating.seats.find((p) => String(p) === raw);
  if (seat !== undefined) return seat;
  if (range(seating.count).some((p) => String(p) === raw)) {
    throw new Refused(Number(raw) === seating.sitsOut ? "dealer_sits_out" : "not_in_this_game",
                      "knocker");
  }
  throw new Refused("rule", "knocker");
}

/** @param {unknown} value @param {string} field */
function formWhole(value, field) {
  const raw = String(given(value) ? value : "").trim();
  if (!/^[0-9]{1,3}$/.test(raw) || Number(raw) > MAX_DEADWOOD) throw new Refused("rule", field);
  return Number(raw);
}

/** @param {Rules} rules @param {unknown} upcard */
function formUpcard(rules, upcard) {
  if (!given(upcard) || upcard === "") {
    if (rules.oklahoma) throw new Refused("rule", "upcard");
    return null;
  }
  const up = card(upcard);
  if (!up) throw new Refused("rule", "upcard");
  return up;
}

// forms_hand.quick_input: the hand input of the quick form, checked.
/** @param {Rules} rules @param {FormValues} values @param {string} prefix @param {Seating} seating
 * @returns {HandInput} */
function quickInput(rules, values, prefix, seating) {
  /** @param {string} name */
  const field = (name) => values[prefix + name];
  const kind = field("kind");
  if (kind === "void") return { kind: "void" };
  if (!isOneOf(["knock", "gin", "big_gin"], kind)) throw new Refused("rule", "kind");
  const seat = formKnocker(field("knocker"), seating);
  if (kind === "big_gin" && rules.big_gin_bonus === null) throw new Refused("rule", "kind");
  const up = formUpcard(rules, field("upcard"));
  const limit = knockLimitFor(rules, up);
  let k = 0;
  if (kind === "knock") {
    k = formWhole(field("knocker_deadwood"), "knocker_deadwood");
    if (k && limit === 0) throw new Refused("rule", "kind");
    if (k > limit) throw new Refused("rule", "knocker_deadwood");
  } else if (!["", "0"].includes(String(field("knocker_deadwood") || "0").trim())) {
    throw new Refused("rule", "knocker_deadwood");
  }
  const d = formWhole(field("defender_deadwood"), "defender_deadwood");
  /** @type {HandInput} */
  const hand = { kind: "quick", knocker: seat, knocker_deadwood: k, defender_deadwood: d };
  if (kind === "big_gin") hand.big_gin = true;
  if (up) hand.upcard = up.code;
  return hand;
}

// forms_hand.cards_form_input: a hand typed card by card (a tap grid per player of the
// hand, ``<prefix>cards_<p>``), checked; a play declared on it (an arrangement chosen
// after the server's check) is left to the server.
/** @param {Rules} rules @param {FormValues} values @param {string} prefix @param {Seating} seating
 * @returns {HandInput} */
function cardsInput(rules, values, prefix, seating) {
  const raw = String(given(values[prefix + "knocker"]) ? values[prefix + "knocker"] : "");
  const knocker = formKnocker(raw, seating);
  const other = knocker === seating.seats[0] ? seating.seats[1] : seating.seats[0];
  // (a grid's cards are a list: formHand gathers them)
  /** @param {number} seat */
  const grid = (seat) => /** @type {string[]} */ (values[`${prefix}cards_${seat}`] || []);
  const [mine, theirs] = [grid(knocker), grid(other)];
  /** @param {string[]} codes */
  const readable = (codes) => codes.every(card) && new Set(codes).size === codes.length;
  const counts = rules.big_gin_bonus !== null ? [10, 11] : [10];
  const faults = [
    [knocker, !readable(mine) || !counts.includes(mine.length)],
    [other, !readable(theirs) || theirs.some((code) => mine.includes(code)) || theirs.length !== 10],
  ];
  for (const [seat, fault] of faults) if (fault) throw new Refused("rule", `${prefix}cards_${seat}`);
  const up = formUpcard(rules, values[prefix + "upcard"]);
  /** @type {HandInput} */
  const hand = { kind: "cards", knocker, knocker_cards: mine, defender_cards: theirs };
  if (up) hand.upcard = up.code;
  return hand;
}

// The hand input of a form's fields ([name, value] pairs, or an object): the quick or
// card form of two or three players, or the deal form of four (forms_hand.deal_input);
// a deal record NeedsServer.
/** @param {Rules} rules @param {[string, string][] | Record<string, string>} fields
 * @param {Seating[]} seated @returns {HandInput} */
export function formHand(rules, fields, seated) {
  checkRules(rules);
  /** @type {FormValues} */
  const values = {};
  for (const [name, value] of Array.isArray(fields) ? fields : Object.entries(fields)) {
    if (/^(g[01]_)?cards_[0-3]$/.test(name)) /** @type {string[]} */ (values[name] ??= []).push(value);
    else if (!(name in values)) values[name] = value;
  }
  const modes = MODES[seated[0].count];
  const mode = isOneOf(modes, values.mode) ? values.mode : modes[0];
  if (mode === "quick") return quickInput(rules, values, "", seated[0]);
  if (mode === "cards") return declared(cardsInput(rules, values, "", seated[0]), values, "");
  if (mode === "record") throw new NeedsServer(mode);
  const hands = seated.map((seating, i) => {
    const prefix = `g${i}_`;
    try {
      if (mode === "deal") return quickInput(rules, values, prefix, seating);
      return values[prefix + "knocker"] === "void" ? { kind: "void" }
        : cardsInput(rules, values, prefix, seating);
    } catch (error) {
      if (!(error instanceof Refused) || (error.field || "").startsWith(prefix)) throw error;
      throw new Refused(error.code, prefix + error.field);
    }
  });
  hands.forEach((hand, i) => declared(hand, values, `g${i}_`));
  if (hands.every((hand) => hand.kind === "void")) return { kind: "void" };
  return { kind: "deal", games: hands };
}

// A card hand whose form declares the play (an arrangement chosen after the server's
// check: routes_hands._declared) is left to the server; else it is scored as best play.
/** @param {HandInput} hand @param {FormValues} values @param {string} prefix */
function declared(hand, values, prefix) {
  if (hand.kind === "cards" && values[prefix + "arrangement"]) throw new NeedsServer("declared");
  return hand;
}

// ---------------------------------------------------------------- the sheet (sheet.py)

// sheet.next_dealer; with four players ``dealer`` is the dealing team.
/** @param {Rules} rules @param {number} dealer @param {number | null} winner
 * @param {boolean} isVoid @returns {number} */
export function nextDealer(rules, dealer, winner, isVoid, players = 2) {
  if (players === 4) return 1 - dealer;
  if (isVoid) return dealer;
  if (winner === null) {
    if (players === 3) return rules.three_player_dealer === "rotate" ? (dealer + 1) % 3 : dealer;
    return rules.next_dealer === "alternate" ? 1 - dealer : dealer;
  }
  if (players === 3) {
    if (winner === dealer) throw new Refused("dealer_sits_out", "winner");
    return rules.three_player_dealer === "rotate" ? (dealer + 1) % 3 : 3 - dealer - winner;
  }
  if (rules.next_dealer === "winner") return winner;
  if (rules.next_dealer === "loser") return 1 - winner;
  return 1 - dealer;
}

/** @param {Record<string, unknown>} entry @param {Rules} rules @returns {Parsed} */
function parseTie(entry, rules) {
  if (rules.tie !== "no_score") throw new Refused("tie_is_undercut", "outcome");
  for (const key of ["winner", "loser"]) if (given(entry[key])) throw new Refused("bad_value", key);
  if (!isOneOf([undefined, null, 0], entry.points)) throw new Refused("bad_value", "points");
  return { winner: null, loser: null, points: 0, outcome: "tie", void: false };
}

// sheet._parse_hand: one two-player entry, checked, with the loser filled in.
/** @param {unknown} entry @param {Rules} rules @param {number} count @param {number[]} seats
 * @param {boolean} [needLoser] @param {number | null} [sittingOut] @returns {Parsed} */
function parseHand(entry, rules, count, seats, needLoser = false, sittingOut = null) {
  if (!isObject(entry)) throw new Refused("bad_value", "hands");
  if (given(entry.games)) throw new Refused("bad_value", "games");
  const isVoid = given(entry.void) ? entry.void : false;
  if (typeof isVoid !== "boolean") throw new Refused("bad_value", "void");
  if (isVoid) {
    for (const key of ["winner", "loser", "outcome"]) {
      if (given(entry[key])) throw new Refused("bad_value", key);
    }
    if (!isOneOf([undefined, null, 0], entry.points)) throw new Refused("bad_value", "points");
    return { winner: null, loser: null, points: 0, outcome: null, void: true };
  }
  if (entry.outcome === "tie") return parseTie(entry, rules);
  /** @param {string} key */
  const seat = (key) => {
    if (!given(entry[key])) throw new Refused("missing_value", key);
    return checkSeat(entry[key], key, count, seats, sittingOut);
  };
  const winner = seat("winner");
  let loser = winner === seats[0] ? seats[1] : seats[0];
  if (given(entry.loser) || needLoser) {
    loser = seat("loser");
    if (loser === winner) throw new Refused("bad_value", "loser");
  }
  const { outcome, points } = entry;
  if (!given(outcome)) throw new Refused("missing_value", "outcome");
  if (!isOneOf(OUTCOMES, outcome)) throw new Refused("bad_value", "outcome");
  if (!given(points)) throw new Refused("missing_value", "points");
  if (!isWhole(points) || points < 0) throw new Refused("bad_value", "points");
  if (outcome === "big_gin" && rules.big_gin_bonus === null) {
    throw new Refused("big_gin_not_allowed", "outcome");
  }
  if ((outcome === "knock" || outcome === "undercut") && rules.knock_limit === 0) {
    throw new Refused("gin_only", "outcome");
  }
  const least = /** @type {Record<string, number>} */ ({ knock: 1, gin: rules.gin_bonus,
    undercut: rules.undercut_bonus, big_gin: rules.big_gin_bonus || 0 })[outcome];
  if (points < least) throw new Refused("too_few_points", "points");
  return { winner, loser, points, outcome, void: false };
}

// The pairings of deal ``index`` (0-based) when team ``dealTeam`` deals.
/** @param {number} index @param {number} dealTeam @returns {DealGame[]} */
function dealGames(index, dealTeam) {
  const opponents = index % 2 === 0 ? [1, 3] : [3, 1];
  return TEAMS[0].map((own, i) => ({
    game: i + 1, players: [own, opponents[i]], dealer: dealTeam === 0 ? own : opponents[i] }));
}

/** @param {unknown} entry @param {Rules} rules @param {number} count @param {DealGame[]} games
 * @returns {(DealGame & Parsed)[]} */
function parseDeal(entry, rules, count, games) {
  if (!isObject(entry)) throw new Refused("bad_value", "hands");
  let raw = entry.games;
  if (!given(raw)) {
    if (entry.void !== true) throw new Refused("missing_value", "games");
    raw = [{ void: true }, { void: true }];
  }
  if (!Array.isArray(raw) || raw.length !== 2) throw new Refused("bad_value", "games");
  const parsed = games.map((game, i) => ({ ...game, ...parseHand(raw[i], rules, count, game.players) }));
  if (entry.void === true && !parsed.every((game) => game.void)) throw new Refused("bad_value", "void");
  return parsed;
}

// |difference| x stake, rounded half up to cents, in decimal as the core's Decimal does.
/** @param {number} difference @param {number | string} stake (a decimal the core checked) */
function amount(difference, stake) {
  const [, whole, fraction = "", exponent = "0"] = /** @type {RegExpExecArray} */ (
    /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(stake)));
  const scale = Number(exponent) - fraction.length + 2;  // the stake in cents: digits x 10^scale
  let cents = BigInt(Math.abs(difference)) * BigInt(whole + fraction);
  if (scale >= 0) {
    cents *= 10n ** BigInt(scale);
  } else {
    const unit = 10n ** BigInt(-scale);
    const rest = cents % unit;
    cents = cents / unit + (2n * rest >= unit ? 1n : 0n);
  }
  return Number(`${cents}e-2`);
}

/** @param {number} winner @param {number} loser @param {number} difference
 * @param {number | string} stake @returns {Payment} */
function payment(winner, loser, difference, stake) {
  const [payer, payee] = difference >= 0 ? [loser, winner] : [winner, loser];
  return { payer, payee, amount: amount(difference, stake) };
}

// sheet._result: the end of a game won by side ``winner``.
/** @param {Rules} rules @param {number[]} totals @param {number[]} boxes @param {number} winner
 * @param {Stake} stake @returns {GameResult} */
function gameResult(rules, totals, boxes, winner, stake) {
  const sides = totals.length;
  const losers = range(sides).filter((p) => p !== winner);
  const shutOut = losers.filter((p) => boxes[p] === 0);
  const shutout = shutOut.length === losers.length;
  const boxBonus = boxes.map((b) => rules.box_bonus * b);
  const final = totals.map((t, p) => t + boxBonus[p]);
  /** @param {boolean} doubled */
  const bonus = (doubled) => rules.game_bonus * (doubled && rules.shutout === "double_bonus" ? 2 : 1);
  /** @param {boolean} doubled */
  const winnerFinal = (doubled) => {
    const total = final[winner] + bonus(doubled);
    return doubled && rules.shutout === "double_total" ? total * 2 : total;
  };
  const differences = new Map(losers.map((p) => [p, winnerFinal(shutOut.includes(p)) - final[p]]));
  final[winner] = winnerFinal(shutout);
  const nets = range(sides).map((p) => -(differences.get(p) || 0));
  nets[winner] = [...differences.values()].reduce((a, b) => a + b, 0);
  /** @type {Payment | Payment[] | null} */
  let settlement = null;
  if (stake !== null) {
    const payments = losers.map((p) => payment(winner, p, /** @type {number} */ (differences.get(p)), stake));
    settlement = sides === 2 ? payments[0] : payments;
  }
  return {
    winner, loser: sides === 2 ? losers[0] : null, losers, totals: [...totals],
    game_bonus: bonus(shutout), box_bonus: boxBonus, shutout, final, net: nets[winner], nets,
    stake, settlement, shut_out: shutOut,
  };
}

/** @param {Rules} rules @param {number[]} totals */
const needed = (rules, totals) => totals.map((t) => Math.max(0, rules.target - t));
/** @param {number[][]} rows */
const sumRows = (rows) => [0, 1].map((p) => rows.reduce((sum, row) => sum + row[p], 0));

/** @param {unknown[]} entries @param {Rules} rules @param {Start} start @param {Stake} stake
 * @param {Head} head @returns {FullSheet} */
function scoreSingle(entries, rules, start, stake, head) {
  const count = head.players.length;
  let { totals, boxes, dealer, result, ended } = start;
  const hands = entries.map((entry, i) => {
    const n = start.before + i + 1;
    if (result !== null) throw new Refused("game_over", "hands");
    const seats = count === 2 ? [0, 1] : range(3).filter((p) => p !== dealer);
    const hand = parseHand(entry, rules, count, seats, count === 3, count === 3 ? dealer : null);
    if (hand.winner !== null) {
      totals[hand.winner] += hand.points;
      boxes[hand.winner] += 1;
    }
    const over = Math.max(...totals) >= rules.target;
    /** @type {HandRecord} */
    const record = { n, dealer, ...hand, totals: [...totals], game_over_after: over };
    if (count === 3) record.sits_out = dealer;
    if (over && hand.winner !== null) {
      ended = n;
      result = gameResult(rules, totals, boxes, hand.winner, stake);
    }
    dealer = nextDealer(rules, dealer, hand.winner, hand.void, count);
    return record;
  });
  return { ...head, hands, totals, boxes, needed: needed(rules, totals), next_dealer: dealer,
           over: result !== null, result };
}

/** @param {unknown[]} entries @param {Rules} rules @param {Start} start @param {Stake} stake
 * @param {Head} head @param {Sheet | null} after @returns {FullSheet} */
function scoreHollywood(entries, rules, start, stake, head, after) {
  /** @type {(Column | null)[]} */
  const earlier = after ? /** @type {Column[]} */ (after.columns) : [null, null, null];
  const totals = earlier.map((col) => (col ? [...col.totals] : [0, 0]));
  const colBoxes = earlier.map((col) => (col ? [...col.boxes] : [0, 0]));
  const openedBy = earlier.map((col) => (col ? [...col.opened] : [false, false]));
  const results = earlier.map((col) => (col && col.result ? col.result : null));
  let { boxes, dealer } = start;
  let ended = after && after.over ? start.before : null;
  const hands = entries.map((entry, i) => {
    const n = start.before + i + 1;
    if (ended !== null) throw new Refused("game_over", "hands");
    const hand = parseHand(entry, rules, 2, [0, 1]);
    /** @type {number[]} */
    let entered = [];
    /** @type {number | null} */
    let opened = null;
    /** @type {number[]} */
    const closed = [];
    if (hand.winner !== null) {
      const w = hand.winner;
      boxes[w] += 1;
      opened = range(COLUMNS).find((c) => results[c] === null && !openedBy[c][w]) ?? null;
      if (opened !== null) openedBy[opened][w] = true;
      entered = range(COLUMNS).filter((c) => results[c] === null && openedBy[c][w]);
      for (const c of entered) {
        totals[c][w] += hand.points;
        colBoxes[c][w] += 1;
        if (totals[c][w] >= rules.target) {
          results[c] = gameResult(rules, totals[c], colBoxes[c], w, stake);
          closed.push(c);
        }
      }
    }
    const over = results.every((r) => r !== null);
    /** @type {HandRecord} */
    const record = { n, dealer, ...hand, columns: entered, opened, closed, totals: sumRows(totals),
                     column_totals: totals.map((row) => [...row]), game_over_after: over };
    if (over) ended = n;
    dealer = nextDealer(rules, dealer, hand.winner, hand.void);
    return record;
  });
  const columns = range(COLUMNS).map((c) => ({
    game: c + 1, totals: totals[c], boxes: colBoxes[c], opened: openedBy[c],
    over: results[c] !== null, result: results[c],
    needed: results[c] !== null ? [0, 0] : needed(rules, totals[c]),
  }));
  const openNeeds = columns.filter((col) => !col.over).map((col) => col.needed);
  const need = openNeeds.length ? [0, 1].map((p) => Math.min(...openNeeds.map((row) => row[p]))) : [0, 0];
  const result = ended !== null ? matchResult(results.filter((r) => r !== null), stake) : null;
  return {
    ...head, hands, columns,
    opened: [0, 1].map((p) => range(COLUMNS).filter((c) => openedBy[c][p])),
    totals: sumRows(totals), boxes, needed: need, next_dealer: dealer, over: result !== null, result,
  };
}

// sheet._match_result: the Hollywood match once its three columns are closed.
/** @param {GameResult[]} columns @param {Stake} stake @returns {MatchResult} */
function matchResult(columns, stake) {
  const final = sumRows(columns.map((col) => col.final));
  const winner = final[0] === final[1] ? null : (final[0] > final[1] ? 0 : 1);
  const gameBonuses = [0, 0];
  for (const col of columns) gameBonuses[col.winner] += col.game_bonus;
  const net = Math.abs(final[0] - final[1]);
  return {
    winner, loser: winner === null ? null : 1 - winner, losers: winner === null ? [] : [1 - winner],
    totals: sumRows(columns.map((col) => col.totals)), game_bonuses: gameBonuses,
    box_bonus: sumRows(columns.map((col) => col.box_bonus)),
    shutouts: columns.map((col) => col.shutout), column_winners: columns.map((col) => col.winner),
    final, net, nets: [final[0] - final[1], final[1] - final[0]], stake,
    settlement: stake !== null && winner !== null ? payment(winner, 1 - winner, net, stake) : null,
  };
}

/** @param {unknown[]} entries @param {Rules} rules @param {Start} start @param {Stake} stake
 * @param {Head} head @returns {FullSheet} */
function scorePartnership(entries, rules, start, stake, head) {
  let dealTeam = TEAM_OF[start.dealer];
  let { totals, boxes, result } = start;
  const hands = entries.map((entry, i) => {
    const n = start.before + i + 1;
    if (result !== null) throw new Refused("game_over", "hands");
    const games = dealGames(n - 1, dealTeam);
    const parsed = parseDeal(entry, rules, 4, games);
    const teamPoints = [0, 0];
    const won = [false, false];
    for (const game of parsed) {
      if (game.winner !== null) {
        teamPoints[TEAM_OF[game.winner]] += game.points;
        won[TEAM_OF[game.winner]] = true;
      }
    }
    const diff = teamPoints[0] - teamPoints[1];
    const scorer = diff === 0 ? null : (diff > 0 ? 0 : 1);
    /** @type {number | null} */
    let gameWinner;
    if (rules.partnership_netting === "per_game") {
      for (const team of [0, 1]) {
        totals[team] += teamPoints[team];
        boxes[team] += Number(won[team]);
      }
      const ahead = totals[0] === totals[1] ? null : (totals[0] > totals[1] ? 0 : 1);
      gameWinner = Math.max(...totals) >= rules.target ? ahead : null;
    } else {
      if (scorer !== null) {
        totals[scorer] += Math.abs(diff);
        boxes[scorer] += 1;
      }
      gameWinner = Math.max(...totals) >= rules.target ? scorer : null;
    }
    const isVoid = parsed.every((game) => game.void);
    /** @type {HandRecord} */
    const record = {
      n, dealer: games[0].dealer, dealer_team: dealTeam, void: isVoid, winner: scorer,
      loser: scorer === null ? null : 1 - scorer, outcome: null, points: Math.abs(diff),
      team_points: teamPoints, games: parsed, totals: [...totals], game_over_after: gameWinner !== null,
    };
    if (gameWinner !== null) result = gameResult(rules, totals, boxes, gameWinner, stake);
    dealTeam = nextDealer(rules, dealTeam, scorer, isVoid, 4);
    return record;
  });
  const upcoming = dealGames(start.before + hands.length, dealTeam);
  return { ...head, teams: TEAMS, hands, totals, boxes, needed: needed(rules, totals),
           next_dealer: upcoming[0].dealer, next_games: upcoming, over: result !== null, result };
}

// sheet.score_sheet: the sheet of ``entries`` (sheet entries, as evaluateHand gives them);
// with ``after`` (a sheet: the server's, or a summary) they follow its hands, and the
// sheet's ``hands`` are the new ones' records.
/** @param {unknown[]} entries
 * @param {{players: string[], rules: Rules, dealer?: number, stake?: Stake, after?: Sheet | null}} game
 * @returns {FullSheet} */
export function scoreSheet(entries, { players, rules, dealer = 0, stake = null, after = null }) {
  checkRules(rules);
  const count = players.length;
  if (![2, 3, 4].includes(count)) throw new Refused("bad_players", "players");
  if (!isWhole(dealer) || dealer < 0 || dealer >= count) throw new Refused("bad_value", "dealer");
  if (rules.scoring === "hollywood" && count !== 2) throw new Refused("hollywood_two_players", "scoring");
  const head = { players: [...players], rules: { ...rules }, scoring: rules.scoring, stake };
  const sides = count === 4 ? 2 : count;
  /** @type {Start} */
  const start = after === null
    ? { before: 0, totals: Array(sides).fill(0), boxes: Array(sides).fill(0), dealer, result: null }
    : {
        before: handCount(after), totals: [...after.totals], boxes: [...after.boxes],
        dealer: after.next_dealer, result: after.scoring === "hollywood" ? null : after.result,
      };
  start.ended = start.result !== null ? start.before : null;
  if (count === 4) return scorePartnership(entries, rules, start, stake, head);
  if (rules.scoring === "hollywood") return scoreHollywood(entries, rules, start, stake, head, after);
  return scoreSingle(entries, rules, start, stake, head);
}

// The number of hands on a sheet: its hands (a list), or their number (a summary).
/** @param {Sheet} sheet */
function handCount(sheet) {
  const count = Array.isArray(sheet.hands) ? sheet.hands.length : sheet.hands;
  if (!isWhole(count)) throw new Error("the sheet lacks its hands (a list, or their number)");
  return count;
}

// ---------------------------------------------------------------- the pad's waiting hands

// One hand of the pad's form added to ``sheet`` (the server's sheet, or a summary): the
// entry, the hand's record and the summary after it (``hands`` their number), as the
// server would store it. Throws Refused or NeedsServer.
/** @param {Sheet} sheet @param {[string, string][] | Record<string, string>} fields
 * @returns {{entry: SheetEntry, record: HandRecord, sheet: Sheet}} */
export function addHand(sheet, fields) {
  const { players, rules, stake } = sheet;
  const seated = seatings(sheet);
  const hand = formHand(rules, fields, seated);
  if (sheet.over) throw new Refused("game_over");
  const entry = evaluateHand(hand, rules, { players, dealer: sheet.next_dealer,
                                            games: sheet.next_games || null });
  const scored = scoreSheet([entry], { players, rules, stake, after: sheet });
  const [record] = scored.hands;
  return { entry, record, sheet: { ...scored, hands: handCount(sheet) + 1 } };
}

// The hands waiting to sync (each its form's fields), scored after the server's ``sheet``:
// {sheet (the provisional summary), records (one per hand scored), stopped (null, or
// {index, error}: the first hand that could not be scored here, Refused or NeedsServer;
// it and the hands after it wait for the server)}.
/** @param {Sheet} sheet @param {([string, string][] | Record<string, string>)[]} queued
 * @returns {Provisional} */
export function provisional(sheet, queued) {
  let current = sheet;
  /** @type {HandRecord[]} */
  const records = [];
  for (const [index, fields] of queued.entries()) {
    try {
      const added = addHand(current, fields);
      records.push(added.record);
      current = added.sheet;
    } catch (error) {
      if (!(error instanceof Refused || error instanceof NeedsServer)) throw error;
      return { sheet: current, records, stopped: { index, error } };
    }
  }
  return { sheet: current, records, stopped: null };
}
