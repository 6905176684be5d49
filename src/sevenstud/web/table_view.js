// Drawing the table from the server's `view` message: the seats around the oval (yours at the
// bottom), their cards, bets and markers, the pots, the community card, the clock and the last
// hand's showdown. Everything drawn comes from the view; nothing here decides a rule.
import { el, cardElement, chips, stakesName } from "/web/common.js";
import { gameName, t } from "/web/i18n.js";
import { eventWords } from "/web/table_log.js";

/** Each table seat's place round the table, as fractions of the felt's box (0..1 across and
 *  down): `anchor` (your seat, else seat 1) at the bottom and the others clockwise. `ring` (0..1)
 *  is how far out from the middle: 1 for the seats, less for their chips in front of them. */
export function seatPosition(seat, anchor, size, ring = 1) {
  const place = (seat - anchor + size) % size;
  const angle = Math.PI / 2 + (place * 2 * Math.PI) / size;
  return { x: 0.5 + 0.5 * ring * Math.cos(angle), y: 0.5 + 0.5 * ring * Math.sin(angle) };
}

/** A seat's place on a narrow screen, where your seat spans the table's bottom edge: the
 *  others (`place` 1..`count`, clockwise from your left) go up the left side, across the top
 *  (one, when they are odd in number) and down the right side, evenly spaced, so that no two
 *  boxes meet however many sit. Fractions of the space above your seat. */
export function narrowPosition(place, count) {
  const side = Math.floor(count / 2);
  const top = count % 2;
  const down = (row) => (side === 1 ? 0.4 : row / (side - 1));
  if (place <= side) return { x: 0, y: 1 - down(place - 1) + (side === 1 ? -0.2 : 0) };
  if (place <= side + top) return { x: 0.5, y: 0 };
  return { x: 1, y: down(place - side - top - 1) };
}

/** The narrow layout (a phone, or 200% zoom): the chips go in the seat's own box. */
export const NARROW = window.matchMedia("(max-width: 52rem)");

function nameOf(view, seat) {
  const player = view.players && view.players[String(seat)];
  if (player) return player.name;
  const state = (view.view.seats || []).find((s) => s.seat === seat);
  return state ? state.player : t("table.seat", { seat });
}

/** Formats seconds left as m:ss. */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The low half's words: "LO: 8,6,4,3,2" for a made low (five cards), "LO: no low yet (7
 *  toward one)" for fewer low cards than five (a bare "LO: 7" beside three cards read as a low
 *  made), "LO: no low yet" before five cards, "LO: no low" where the server names none. The
 *  sentences are the terminal's (sevenstud.wording.HOLDING). */
export function lowWords(names) {
  const early = (names.high_cards || []).length < 5 && (names.low_cards || []).length < 5; // fewer than five cards dealt
  if (!names.low) return t("hand.lo", { hand: t(early ? "hand.no_low_yet" : "hand.no_low") });
  const made = (names.low_cards || []).length >= 5;
  return made ? t("hand.lo", { hand: names.low }) : t("hand.lo", { hand: t("hand.low_so_far", { cards: names.low }) });
}

/** The hand names line(s) for one seat: "HI: ..." and "LO: ..." ("no low" where the game has
 *  a low and the server names none). */
function handNames(names, hasLow, testid) {
  if (!names) return null;
  const box = el("div", { class: "hand-names", "data-testid": testid });
  if (names.high) box.append(el("span", { class: "hi", text: t("hand.hi", { hand: names.high }) }));
  if (hasLow) box.append(el("span", { class: "lo", text: lowWords(names) }));
  // A phone cuts each name to its seat's width (table.css): the whole of it on hover.
  for (const line of box.children) line.title = line.textContent;
  return box;
}

export class TableView {
  /** `felt` holds the seats, `middle` the pots and the community card; `handlers` has
   *  sit(seat) and addBot(seat), called from the empty seats' buttons. */
  constructor(felt, middle, showdown, showdownBody, handlers) {
    this.felt = felt;
    this.middle = middle;
    this.showdown = showdown;
    this.showdownBody = showdownBody;
    this.handlers = handlers;
    this.seen = new Map(); // table seat -> [hand number, cards drawn], so that only new cards animate
    this.bets = new Map(); // table seat -> the bet drawn, so that a new bet's chips move
    this.sayings = new Map(); // table seat -> {hand, street, words, fresh}: its last action, shown there
    this.clock = null;
    this.clockOffset = 0;
    this.timer = setInterval(() => this.tick(), 250);
  }

  /** A `clock` message: the server's deadlines for the seat to act, with the local clock's
   *  offset from the server's (server_time was the server's clock when it was sent). */
  setClock(message) {
    this.clock = message;
    this.clockOffset = message.server_time - Date.now() / 1000;
    this.tick();
  }

  tick() {
    const box = this.felt.querySelector("[data-testid=clock]");
    if (!box) return;
    // A clock for another seat than the one the view says is to act is not this turn's.
    if (!this.clock || this.clock.seat !== Number(box.closest(".seat").dataset.seat)) {
      box.textContent = "";
      return;
    }
    const now = Date.now() / 1000 + this.clockOffset;
    const left = this.clock.act_by - now;
    if (left > 0) {
      box.textContent = t("table.to_act_in", { time: clockText(left) });
      box.classList.remove("bank");
    } else {
      box.textContent = t("table.time_bank", { time: clockText(this.clock.deadline - now) });
      box.classList.add("bank");
    }
  }

  /** An event at the table: an action is shown at its seat until the street ends (the words
   *  are the log's); a new street or hand clears them. */
  said(event, name) {
    if (event.type === "hand_started" || event.type === "street_started") {
      this.sayings.clear();
      return;
    }
    const acted = event.type === "action_taken" || event.type === "ante_posted" || event.type === "hand_mucked" || event.type === "timed_out";
    if (!acted || event.seat === undefined) return;
    const words = eventWords(event, name);
    if (words) this.sayings.set(event.seat, { words, fresh: true });
  }

  /** A hand shown (or turned up) at the table: its cards, as the event gave them, stay on
   *  the seat until the next hand. */
  reveal(handNumber, seat, cards) {
    if (!this.revealed || this.revealed.hand !== handNumber) this.revealed = { hand: handNumber, seats: new Map() };
    this.revealed.seats.set(seat, cards);
  }

  /** Between hands, the hand that just ended as the last view of it showed it, with every
   *  hand shown since face up, so that the table does not go blank at the showdown. */
  finishedHand(view, bySeat) {
    const last = view.last_hand;
    const kept = this.kept;
    if (!last || !kept || kept.number !== last.hand) return null;
    const hand = { ...kept.hand, bets: kept.hand.bets.map(() => 0), cards: [...kept.hand.cards], face_up: [...kept.hand.face_up] };
    hand.stacks = kept.seats.map((seat, i) => (bySeat.has(seat) ? bySeat.get(seat).stack : kept.hand.stacks[i]));
    const revealed = this.revealed && this.revealed.hand === last.hand ? this.revealed.seats : new Map();
    kept.seats.forEach((seat, i) => {
      const cards = revealed.get(seat);
      if (cards) {
        hand.cards[i] = cards;
        hand.face_up[i] = cards.map(() => true);
      }
    });
    return { number: last.hand, hand, seats: kept.seats };
  }

  draw(view, { spectator }) {
    const table = view.view;
    const size = view.seats;
    const anchor = view.you || 1;
    const bySeat = new Map((table.seats || []).map((s) => [s.seat, s]));
    let hand = table.hand;
    let handSeats = table.hand_seats || [];
    this.handNumber = table.hand_number;
    if (hand) {
      this.kept = { number: table.hand_number, hand, seats: handSeats };
    } else {
      const finished = this.finishedHand(view, bySeat);
      if (finished) ({ hand, seats: handSeats, number: this.handNumber } = finished);
    }
    this.felt.classList.toggle("finished", !table.hand && Boolean(hand));
    const handIndex = new Map(handSeats.map((seat, i) => [seat, i]));
    const shown = this.shownNow(view);
    // The seats are drawn afresh from each view: a button that had the focus gets it back.
    const focused = this.felt.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    for (const old of this.felt.querySelectorAll(".seat")) old.remove();
    for (const old of this.felt.querySelectorAll(":scope > .bet")) old.remove();
    for (let seat = 1; seat <= size; seat += 1) {
      const spot = seatPosition(seat, anchor, size);
      const state = bySeat.get(seat);
      const node = state
        ? this.seatNode(view, seat, state, hand, handIndex.get(seat), shown)
        : this.emptySeat(view, seat, spectator);
      node.style.setProperty("--x", spot.x.toFixed(4));
      node.style.setProperty("--y", spot.y.toFixed(4));
      const place = (seat - anchor + size) % size;
      if (place > 0) {
        const narrow = narrowPosition(place, size - 1);
        node.style.setProperty("--nx", narrow.x.toFixed(4));
        node.style.setProperty("--ny", narrow.y.toFixed(4));
      }
      this.felt.append(node);
      // A seat's chips lie on the felt in front of it (in its box on a narrow screen).
      const bet = node.querySelector(".bet");
      if (bet && !NARROW.matches) {
        bet.dataset.seat = String(seat);
        this.felt.append(bet);
      }
    }
    this.placeBets();
    if (focused) {
      const again = this.felt.querySelector(`[data-testid="${focused}"]`);
      if (again) again.focus();
    }
    this.drawMiddle(view);
    this.drawShowdown(view);
    this.tick();
  }

  /** The narrow layout's guarantee that no two seats meet, however much a seat has grown (its
   *  shown cards, hand names, what it said): the others stand in columns up the table's sides,
   *  `rows` a column, in the room above your seat. A seat taller than its share of that room
   *  drops its least needed lines, in steps (what it said, then its hand names: both are in
   *  the log and the showdown panel), and is finally cut to its share (--seat-room). `youHeight`
   *  is the height of your seat along the bottom edge (px). */
  squeeze(youHeight) {
    const felt = this.felt;
    const others = [...felt.querySelectorAll(":scope > .seat:not(.you)")];
    const withTop = NARROW.matches && others.length % 2 === 1;
    // The wide layout has nothing to squeeze: nothing written, nothing laid out again.
    if (!NARROW.matches && !felt.matches(".tight, .tighter, .with-top") && !felt.style.getPropertyValue("--seat-room")) return;
    felt.classList.remove("tight", "tighter");
    felt.style.removeProperty("--seat-room");
    felt.classList.toggle("with-top", withTop);
    if (!NARROW.matches || !others.length) return;
    const rows = Math.max(1, Math.floor(others.length / 2));
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const above = felt.clientHeight - youHeight - 0.4 * rem;
    const room = Math.floor((above - (rows - 1) * 2) / rows);
    const tallest = () => Math.max(...others.map((seat) => seat.getBoundingClientRect().height));
    for (const step of ["tight", "tighter"]) {
      if (tallest() <= room) break;
      felt.classList.add(step);
    }
    felt.style.setProperty("--seat-room", `${Math.max(0, room)}px`);
  }

  /** Puts each seat's chips on the felt just in front of it: on the line from the seat's
   *  centre to the table's, clear of the seat's own box (however tall the seat has grown). */
  placeBets() {
    const felt = this.felt.getBoundingClientRect();
    const mx = felt.width / 2;
    const my = felt.height / 2;
    for (const bet of this.felt.querySelectorAll(":scope > .bet")) {
      const seat = this.felt.querySelector(`:scope > .seat[data-seat="${bet.dataset.seat}"]`);
      if (!seat) continue;
      const box = seat.getBoundingClientRect();
      const cx = box.left - felt.left + box.width / 2;
      const cy = box.top - felt.top + box.height / 2;
      const length = Math.hypot(mx - cx, my - cy) || 1;
      const dx = (mx - cx) / length;
      const dy = (my - cy) / length;
      // Where the line leaves the seat's box, then half the chips' own size and a gap beyond.
      const out = Math.min(dx ? box.width / 2 / Math.abs(dx) : Infinity, dy ? box.height / 2 / Math.abs(dy) : Infinity);
      const chip = Math.abs(dx) * bet.offsetWidth / 2 + Math.abs(dy) * bet.offsetHeight / 2 + 6;
      bet.style.left = `${Math.round(cx + dx * (out + chip))}px`;
      bet.style.top = `${Math.round(cy + dy * (out + chip))}px`;
    }
  }

  /** The last hand's shown hands while it is still on show (until the next hand is dealt). */
  shownNow(view) {
    const last = view.last_hand;
    if (!last) return {};
    const table = view.view;
    if (table.hand && table.hand_number !== last.hand) return {};
    return last.shown || {};
  }

  seatNode(view, seat, state, hand, index, shown) {
    const you = view.you === seat;
    const inHand = hand && index !== undefined;
    const folded = inHand && hand.folded[index];
    const toAct = view.view.to_act === seat;
    const classes = ["seat", "taken"];
    if (you) classes.push("you");
    if (folded) classes.push("folded");
    if (toAct) classes.push("to-act");
    if (state.sitting_out) classes.push("sitting-out");
    const name = nameOf(view, seat);
    const node = el("section", {
      class: classes.join(" "),
      "data-testid": `seat-${seat}`,
      "data-seat": seat,
      "aria-label": t(you ? "table.seat_you" : "table.seat_named", { seat, name }),
    });
    const bot = view.players && view.players[String(seat)] && view.players[String(seat)].bot;
    const head = el("div", { class: "seat-head" },
      el("span", { class: "name", "data-testid": `name-${seat}`, title: name, text: `${name}${you ? t("table.you_mark") : ""}${bot ? t("table.bot_mark") : ""}` }),
      el("span", { class: "stack", "data-testid": `stack-${seat}`, text: chips(inHand ? hand.stacks[index] : state.stack) }));
    node.append(head);
    const marks = el("div", { class: "marks" });
    if (view.bring_in === seat && inHand) marks.append(el("span", { class: "marker bring-in", "data-testid": "bring-in", text: t("table.bring_in") }));
    if (folded) marks.append(el("span", { class: "marker", text: t("table.folded") }));
    if (state.sitting_out) marks.append(el("span", { class: "marker", text: t("table.sitting_out") }));
    if (state.leaving) marks.append(el("span", { class: "marker", text: t("table.leaving") }));
    if (toAct) {
      marks.append(el("span", { class: "marker turn", text: t("table.to_act") }));
      marks.append(el("span", { class: "clock", "data-testid": "clock", role: "timer", "aria-live": "off" }));
      marks.append(el("span", { class: "bank-left", text: t("table.bank_left", { seconds: Math.round(state.time_bank) }) }));
    }
    if (marks.children.length) node.append(marks);
    if (inHand) {
      node.append(this.cardsNode(seat, hand, index, shown[String(seat)]));
      const names = (view.hands || {})[String(seat)];
      const named = handNames(names, view.has_low, you ? "your-hand" : `hand-${seat}`);
      if (named) node.append(named);
      const said = this.sayings.get(seat);
      if (said) {
        node.append(el("p", { class: `said${said.fresh ? " fresh" : ""}`, "data-testid": `said-${seat}`, text: said.words, title: said.words }));
        said.fresh = false;
      }
      const bet = hand.bets[index];
      if (bet > 0) {
        const moved = this.bets.get(seat) !== bet;
        // In the seat's head, by the stack, on a narrow screen; on the felt in front of the
        // seat otherwise (moved there by draw).
        head.append(el("span", { class: `bet${moved ? " moved" : ""}`, "data-testid": `bet-${seat}`, text: t("table.bet", { amount: bet }) }));
      }
      this.bets.set(seat, bet);
    } else {
      this.bets.delete(seat);
    }
    return node;
  }

  cardsNode(seat, hand, index, shownHand) {
    const row = el("div", { class: "cards", "data-testid": `cards-${seat}` });
    const cards = hand.cards[index];
    const faceUp = hand.face_up[index];
    const before = this.seen.get(seat);
    const drawnBefore = before && before[0] === this.handNumber ? before[1] : 0;
    const lit = new Set(shownHand ? [...(shownHand.high_cards || []), ...(shownHand.low_cards || [])] : []);
    cards.forEach((card, i) => {
      const node = cardElement(card, { down: card !== null && !faceUp[i], highlight: lit.has(card) });
      if (i >= drawnBefore) node.classList.add("dealt");
      row.append(node);
    });
    this.seen.set(seat, [this.handNumber, cards.length]);
    return row;
  }

  emptySeat(view, seat, spectator) {
    const node = el("section", { class: "seat empty", "data-testid": `seat-${seat}`, "aria-label": t("table.seat_empty", { seat }) },
      el("span", { class: "name", text: t("table.seat", { seat }) }));
    if (spectator || view.tournament) return node; // (a tournament's seats are its own to give)
    if (view.you === null || view.you === undefined) {
      node.append(el("button", { type: "button", "data-testid": `sit-${seat}`, onclick: () => this.handlers.sit(seat), text: t("table.sit_here") }));
    } else if (view.may_seat_bots) { // (the server says who may: a house's bots are its operators')
      node.append(el("button", { type: "button", "data-testid": `add-bot-${seat}`, onclick: () => this.handlers.addBot(seat), text: t("table.add_bot") }));
    }
    return node;
  }

  drawMiddle(view) {
    const hand = view.view.hand;
    this.middle.replaceChildren();
    this.middle.append(el("p", { class: "game", text: `${gameName(view.game, view.game_name)} ${stakesName(view.stakes)}` }));
    const pots = el("ul", { class: "pots", "data-testid": "pots", "aria-label": t("table.pots") });
    (view.pots || []).forEach((pot, i) => {
      const who = pot.seats.map((s) => nameOf(view, s)).join(", ");
      pots.append(el("li", { "data-testid": `pot-${i}`, text: `${i === 0 ? t("table.main_pot") : t("table.side_pot", { number: i })}: ${chips(pot.amount)}`, title: who }));
    });
    if (!pots.children.length && hand) pots.append(el("li", { text: t("table.pot", { chips: chips(hand.pot) }) }));
    this.middle.append(pots);
    if (hand && hand.community) {
      this.middle.append(el("div", { class: "community", "data-testid": "community" },
        el("span", { text: `${t("table.community_card")} ` }), cardElement(hand.community)));
    }
    const last = view.last_hand;
    const strip = document.getElementById("result-strip");
    if (strip) strip.replaceChildren();
    if (!hand && last && (last.summary || []).length) {
      // The result where everybody looks: the middle of the table (the panel below has it all);
      // on a narrow screen, too narrow there, a strip above the buttons.
      const result = el("ul", { class: "result", "data-testid": "middle-result" });
      for (const sentence of last.summary) result.append(el("li", { text: sentence }));
      (NARROW.matches && strip ? strip : this.middle).append(result);
    } else if (!hand) {
      this.middle.append(el("p", { class: "between", text: t("table.waiting_next") }));
    }
  }

  drawShowdown(view) {
    const last = view.last_hand;
    const table = view.view;
    const onShow = last && !(table.hand && table.hand_number !== last.hand);
    this.showdown.hidden = !onShow;
    if (!onShow) return;
    if (this.showdownBody.dataset.hand === String(last.hand)) return;
    this.showdownBody.dataset.hand = String(last.hand);
    const body = [];
    body.push(el("p", { class: "hand-number", text: t("table.hand", { number: last.hand }) }));
    for (const [seat, names] of Object.entries(last.shown || {})) {
      const row = el("div", { class: "shown", "data-testid": `shown-${seat}` },
        el("p", { class: "who", text: nameOf(view, Number(seat)) }));
      if (names.high) row.append(halfNode(t("hand.hi", { hand: names.high }), names.high_cards, "hi"));
      const low = lowWords(names);
      if (view.has_low) row.append(halfNode(low, names.low ? names.low_cards : [], "lo"));
      body.push(row);
    }
    const summary = el("ul", { class: "summary", "data-testid": "summary" });
    for (const sentence of last.summary || []) summary.append(el("li", { text: sentence }));
    body.push(summary);
    this.showdownBody.replaceChildren(...body);
  }
}

function halfNode(words, cards, kind) {
  const row = el("div", { class: `half ${kind}` }, el("span", { class: "half-name", "data-testid": `half-${kind}`, text: words }));
  const five = el("span", { class: "five" });
  for (const card of cards || []) five.append(cardElement(card, { highlight: true }));
  row.append(five);
  return row;
}
