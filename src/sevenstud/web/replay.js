// The hand replayer: one finished hand of the player's (GET /api/hands/{id}/replay), street by
// street. The server sends the events as the player saw them by the end of the hand; the page
// replays them in order, so another seat's down cards stay backs until the street on which that
// hand was shown or turned face up, just as the player saw it at the table.
import { api, applySettings, cardElement, chips, el, me, siteHeader } from "/web/common.js";
import { gameName, handName, lang, t, translatePage } from "/web/i18n.js";

const STREET_KEYS = { 3: "replay.street3", 4: "replay.street4", 5: "replay.street5", 6: "replay.street6", 7: "replay.street7" };

let replay = null;
let step = 0;

function streetName(street) {
  return STREET_KEYS[street] ? t(STREET_KEYS[street]) : String(street);
}

function nameOf(tableSeat) {
  const name = replay.players[String(tableSeat)];
  return name || t("table.seat", { seat: tableSeat });
}

// The hand's seats as they stand after the events of streets 0..upTo: each one's cards in
// dealing order and whether its hand has been shown (with its names) or turned face up.
// The events name seats as table seats, as the table's own stream does.
function seatsAfter(upTo) {
  const seats = replay.seats.map((tableSeat) => ({ tableSeat, cards: [], shown: null, opened: null, folded: false }));
  const byTableSeat = new Map(seats.map((seat) => [seat.tableSeat, seat]));
  for (const street of replay.streets.slice(0, upTo + 1)) {
    for (const event of street.events) {
      const seat = byTableSeat.get(event.seat);
      if (event.type === "card_dealt" && seat) seat.cards.push({ card: event.card, up: event.face_up });
      else if (event.type === "hand_shown" && seat) seat.shown = event;
      else if (event.type === "hand_turned_up" && seat) seat.opened = event.cards;
      else if (event.type === "action_taken" && seat && event.action && event.action.kind === "fold") seat.folded = true;
    }
  }
  return seats;
}

function drawSeat(seat, index, atEnd, bets) {
  const you = seat.tableSeat === replay.you;
  const revealed = seat.shown ? seat.shown.cards : seat.opened;
  const row = el("span", { class: "cards", "data-testid": `cards-${seat.tableSeat}` });
  seat.cards.forEach(({ card, up }, i) => {
    if (up) {
      row.append(cardElement(card));
    } else if (you) {
      row.append(cardElement(card, { down: true }));
    } else {
      // Another seat's down card: a back until that hand was shown or turned up.
      const known = revealed ? revealed[i] ?? null : null;
      row.append(cardElement(known, { down: Boolean(known) }));
    }
  });
  const stacks = atEnd && replay.result ? replay.result.stacks : replay.start_stacks;
  const stackWord = atEnd && replay.result ? t("replay.after_hand") : t("replay.at_start");
  const names = [];
  if (seat.shown) {
    if (seat.shown.high) names.push(el("span", { class: "hand-name", text: t("hand.hi", { hand: handName(seat.shown.high) }) }));
    // "no low" is said only where the game has a low half to miss (as the table does).
    if (seat.shown.low || replay.has_low) {
      names.push(el("span", { class: "hand-name", text: t("hand.lo", { hand: seat.shown.low || t("hand.no_low") }) }));
    }
  }
  return el("li", { class: `seat${you ? " you" : ""}${seat.folded ? " folded" : ""}`, "data-testid": `seat-${seat.tableSeat}` },
    el("div", { class: "seat-head" },
      el("strong", { text: nameOf(seat.tableSeat) }),
      el("span", { class: "seat-number", text: `${t("table.seat", { seat: seat.tableSeat })}${you ? t("table.you_mark") : ""}` }),
      el("span", { class: "stack", text: `${chips(stacks[index])} ${stackWord}` }),
      seat.folded ? el("span", { class: "folded-tag", "data-testid": `folded-${seat.tableSeat}`, text: t("replay.folded") }) : null,
      bets && bets[index] > 0 ? el("span", { class: "bet", "data-testid": `bet-${seat.tableSeat}`, text: t("table.bet", { amount: bets[index] }) }) : null),
    row,
    names.length ? el("div", { class: "hand-names" }, ...names) : null);
}

function render() {
  const last = replay.streets.length - 1;
  const atEnd = step === last;
  const street = replay.streets[step];
  document.getElementById("street").textContent =
    t("replay.street_of", { street: streetName(street.street), step: step + 1, count: replay.streets.length })
    + (atEnd ? t("replay.the_end") : "");
  const seats = seatsAfter(step);
  document.getElementById("seats").replaceChildren(...seats.map((s, i) => drawSeat(s, i, atEnd, street.bets)));
  // The pots as the server counted them at the end of this street's betting.
  document.getElementById("pots").replaceChildren(...(street.pots || []).map((pot, i) => el("li", {
    "data-testid": `pot-${i}`, title: pot.seats.map(nameOf).join(", "),
    text: `${i === 0 ? t("table.main_pot") : t("table.side_pot", { number: i })}: ${chips(pot.amount)}`,
  })));
  // The deck ran short on 7th street: one card face up that every hand plays.
  const community = replay.streets.slice(0, step + 1).flatMap((s) => s.events)
    .find((e) => e.type === "community_card_dealt");
  const board = document.getElementById("community");
  board.hidden = !community;
  board.replaceChildren(...(community ? [el("span", { text: `${t("table.community_card")}: ` }), cardElement(community.card)] : []));
  document.getElementById("actions").replaceChildren(...(street.text || []).map((line) => el("li", { text: line })));
  const result = document.getElementById("result");
  result.hidden = !atEnd;
  document.getElementById("summary").replaceChildren(
    ...((atEnd && replay.result && replay.result.summary) || []).map((line) => el("li", { text: line })));
  const buttons = { start: step > 0, previous: step > 0, next: step < last, end: step < last };
  const focused = document.activeElement;
  for (const [id, enabled] of Object.entries(buttons)) document.getElementById(id).disabled = !enabled;
  // A button that went disabled under the keyboard's focus would drop the focus to the page.
  if (focused && focused.disabled) document.getElementById(step > 0 ? "previous" : "next").focus();
}

function go(to) {
  const last = replay.streets.length - 1;
  step = Math.max(0, Math.min(last, to));
  render();
}

function onKey(event) {
  if (!replay || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  const moves = {
    ArrowLeft: () => go(step - 1), ArrowRight: () => go(step + 1),
    Home: () => go(0), End: () => go(replay.streets.length - 1),
  };
  const move = moves[event.key];
  if (move) {
    event.preventDefault();
    move();
  }
}

function handId() {
  const match = location.pathname.match(/^\/hands\/(\d+)\/?$/);
  return match ? match[1] : null;
}

function problem(text) {
  document.getElementById("problem").textContent = text;
}

async function start() {
  translatePage();
  applySettings();
  const account = await me();
  document.body.prepend(siteHeader(account));
  const id = handId();
  if (!id) {
    problem(t("replay.no_hand_named"));
    return;
  }
  // Signed out there is no hand of yours to ask for (the server would answer 401).
  if (!account) {
    problem(t("replay.sign_in"));
    return;
  }
  try {
    // The page's language by name (a browser whose languages say Ukrainian may have chosen English).
    replay = await api(`/api/hands/${id}/replay?lang=${lang}`);
  } catch (error) {
    if (error.status === 404) problem(t("replay.not_yours", { id }));
    else if (error.status === 401) problem(t("replay.sign_in"));
    else problem(t("replay.not_loaded", { why: error.message }));
    return;
  }
  if (!replay.streets || replay.streets.length === 0) {
    problem(t("replay.nothing", { id }));
    return;
  }
  const game = gameName(replay.game, replay.game_name);
  const stakes = Array.isArray(replay.stakes) ? replay.stakes : [];
  document.getElementById("heading").textContent = t("replay.hand_at", { number: replay.number, table: replay.table });
  document.title = t("replay.page_title", { number: replay.number, table: replay.table });
  document.getElementById("about").textContent = stakes.length === 4
    ? t("replay.about", { game, ante: stakes[0], bring_in: stakes[1], small: stakes[2], big: stakes[3] })
    : `${game}.`;
  for (const format of ["pokerstars", "phh"]) {
    const link = document.getElementById(`download-${format}`);
    link.href = `/api/hands/${id}?format=${format}`;
    link.setAttribute("download", `hand-${id}.${format === "phh" ? "phh" : "txt"}`);
  }
  document.getElementById("start").addEventListener("click", () => go(0));
  document.getElementById("previous").addEventListener("click", () => go(step - 1));
  document.getElementById("next").addEventListener("click", () => go(step + 1));
  document.getElementById("end").addEventListener("click", () => go(replay.streets.length - 1));
  document.addEventListener("keydown", onKey);
  document.getElementById("replay").hidden = false;
  go(0);
}

start();
