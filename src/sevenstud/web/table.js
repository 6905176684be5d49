// The table page, /table/{id} (?watch=1 to watch): one websocket to /ws, which says hello with
// `views: true` and draws every `view` message the server sends (the view is the truth), words
// the `event` messages in the log, runs the countdown from `clock` and shows `error`s. It
// reconnects by itself after a drop, saying the last number it saw.
import { applySettings, chips, el, me, settings, settingsControls, siteHeader, stakesName } from "/web/common.js";
import { ActionBar } from "/web/table_actions.js";
import { makeLog } from "/web/table_log.js";
import { NARROW, TableView } from "/web/table_view.js";
import { gameName, lang, t, translatePage } from "/web/i18n.js";

const MAX_BACKOFF = 4000;
const tableId = Number(location.pathname.split("/").filter(Boolean).pop());
const spectator = new URLSearchParams(location.search).get("watch") === "1";
// ?sit=1 (the lobby's "Play now"): take the first free seat with the largest buy-in the
// balance allows, once; the address loses it so that a reload does not ask again.
let sitOnArrival = !spectator && new URLSearchParams(location.search).get("sit") === "1";
const $ = (id) => document.getElementById(id);

const state = { socket: null, last: 0, view: null, retries: 0, names: new Map(), turn: false, historyFor: undefined, timer: null, closed: null };
const CLOSED = 4004; // the close code of a table closed for good: nothing to reconnect to
const LOGGED_OUT = 4003; // the session ended (an operator's suspension, a log-out elsewhere)
const status = $("connection");
const errors = $("errors");
const log = makeLog($("log"));
let baseTitle = document.title;

function send(message) {
  // A refusal stays on show until the player tries something else.
  errors.replaceChildren();
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(message));
  } else {
    showError(t("table.not_connected"));
  }
}

const bar = new ActionBar($("action-area"), send);
const tableView = new TableView($("felt"), $("middle"), $("showdown"), $("showdown-body"), {
  sit: (seat) => bar.askBuyIn(seat),
  addBot: (seat) => send({ type: "add_bot", seat }),
});

// The chat and the opponents' statistics (chat.js, stats_view.js, chat.css) and a tournament's
// bar are not needed to draw the table: they are fetched after the modules that draw it, so
// that the first view waits for fewer files (a browser asks a server for six at a time). What
// comes for the chat before chat.js has run is handed to it, in order, when it has.
const social = {
  panel: null,
  waiting: [],
  call(what) {
    if (this.panel) what(this.panel);
    else this.waiting.push(what);
  },
  event(event, name) { this.call((panel) => panel.event(event, name)); },
  chat(message) { this.call((panel) => panel.chat(message)); },
  draw(view, account) { this.call((panel) => panel.draw(view, account)); },
};
for (const button of document.querySelectorAll("[data-opens]")) {
  button.addEventListener("click", () => social.call((panel) => panel.open(button.dataset.opens, button)));
}
function later() {
  document.head.append(el("link", { rel: "stylesheet", href: "/web/chat.css" }));
  importLater("/web/chat.js", ({ Social }) => {
    social.panel = new Social($("social-slot"), send);
    for (const what of social.waiting.splice(0)) what(social.panel);
  });
  importLater("/web/tournament_bar.js", () => {});
  importLater("/web/table_host.js", ({ mountHost }) => mountHost($("private-slot"), $("host-slot"), tableId, privateNotes));
}
// Fetched after the table is drawn, a module may find the network gone (a connection cut just
// then): asked for again a little later (under a new address: a failed import is remembered),
// never left as an error on the page.
function importLater(path, use, tries = 0) {
  import(tries ? `${path}?try=${tries}` : path).then(use, () => {
    setTimeout(() => importLater(path, use, tries + 1), Math.min(1000 * 2 ** tries, 15000));
  });
}

// A home game's notices (table_paused, removed): table_host.js shows them; those that come
// before it has loaded wait here for it.
const privateNotes = [];
function privateNote(data) {
  privateNotes.push(data);
  window.dispatchEvent(new CustomEvent("sevenstud:private", { detail: data }));
}

function showError(message) {
  errors.replaceChildren(el("p", { class: "error", text: message }));
}

function nameOf(seat) {
  const view = state.view;
  const player = view && view.players && view.players[String(seat)];
  return player ? player.name : state.names.get(seat) || t("table.seat", { seat });
}

function onMessage(message) {
  let data;
  try {
    data = JSON.parse(message.data);
  } catch {
    return;
  }
  receive(data);
}

/** The socket table_early.js opened before the modules came, with its hello sent for this
 *  table and language, taken over once (its messages so far are received now, in order); null
 *  when there is none to take. */
function takeEarly() {
  const early = window.sevenstudEarly;
  window.sevenstudEarly = null;
  if (!early) return null;
  const usable = early.socket.readyState <= WebSocket.OPEN && early.tableId === tableId
    && early.lang === lang && early.spectator === spectator;
  if (!usable) {
    early.sink = () => {};
    early.socket.close();
    return null;
  }
  early.sink = onMessage;
  for (const message of early.messages.splice(0)) onMessage(message);
  return early.socket;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let socket = takeEarly();
  if (socket) {
    state.socket = socket;
  } else {
    socket = new WebSocket(`${scheme}://${location.host}/ws`);
    state.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", version: 1, table: tableId, last: state.last, views: true, lang }));
    });
    socket.addEventListener("message", onMessage);
  }
  socket.addEventListener("close", (event) => {
    if (state.socket !== socket) return;
    if (state.closed || event.code === CLOSED) { // closed for good: said so, not retried
      state.socket = null;
      return;
    }
    if (event.code === LOGGED_OUT) {
      state.socket = null;
      sessionEnded(event.reason);
      return;
    }
    lost();
  });
}

/** The socket is gone (or as good as gone): the page lets go of it, says "Reconnecting" and
 *  tries again after a back-off of 0.25 s, 0.5 s, 1 s ... up to 4 s, so a server coming back up
 *  is not flooded, yet a short drop is mended at once. */
function lost() {
  state.socket = null;
  const wait = Math.min(MAX_BACKOFF, 250 * 2 ** state.retries);
  state.retries += 1;
  status.textContent = t("table.reconnecting");
  status.classList.add("down");
  clearTimeout(state.timer);
  state.timer = setTimeout(connect, wait);
}

// A network that goes away can leave the socket open and silent: the browser's own word that
// it is offline drops it at once. The page does not wait for its close event, which comes only
// when the closing handshake, sent into a dead network, times out (up to a minute in Chromium).
window.addEventListener("offline", () => {
  const socket = state.socket;
  if (!socket) return;
  lost();
  socket.close();
});
window.addEventListener("online", () => {
  if (state.socket) return;
  clearTimeout(state.timer);
  state.retries = 0;
  connect();
});

function receive(data) {
  if (typeof data.number === "number" && data.type !== "error" && data.type !== "clock") {
    state.last = Math.max(state.last, data.number);
  }
  switch (data.type) {
    case "welcome":
      state.retries = 0;
      status.textContent = data.seat ? t("table.connected_seat", { seat: data.seat }) : spectator ? t("table.connected_watching") : t("table.connected");
      status.classList.remove("down");
      break;
    case "event":
      remember(data.event);
      tableView.said(data.event, nameOf);
      if (data.event.type === "hand_shown" || data.event.type === "hand_turned_up") {
        tableView.reveal(data.hand, data.event.seat, data.event.cards);
      }
      log.add(data.event, nameOf);
      social.event(data.event, nameOf);
      break;
    case "chat":
      social.chat(data);
      break;
    case "clock":
      tableView.setClock(data);
      break;
    case "view":
      draw(data);
      break;
    case "error":
      bar.sentFor = null;
      showError(data.message);
      if (state.view) draw(state.view);
      break;
    case "seat_offered":
      log.note(t("table.seat_offered", { seat: data.seat }));
      break;
    case "hand_cancelled":
      log.note(t("table.hand_cancelled", { hand: data.hand }));
      break;
    case "tournament_paused": // the room's operators paused or resumed the tournament
      log.note(t(data.paused ? "table.tournament_paused_note" : "table.tournament_resumed_note"));
      break;
    case "tournament_announcement": // a line from the room's operators (as text, never HTML)
      log.note(t("table.tournament_announced", { text: data.text }));
      break;
    case "table_closed":
      closed(data);
      break;
    case "table_paused":
    case "removed":
      privateNote(data);
      break;
    case "tournament_moved":
      // Your tournament seated you at another table (this one broken or balanced): followed
      // at once, the newest notice last (the tournament bar would find it a second later).
      if (bar.account && data.player === bar.account.name && data.table !== tableId) {
        state.closed = state.closed || data; // leaving: not reconnected here
        window.location.assign(`/table/${data.table}`);
      }
      break;
    default:
      break;
  }
}

/** The table closed for good (table_closed): the page stops reconnecting and says why, with
 *  where to go next; the felt stays as it was, dimmed, its clock stopped. A tournament's table
 *  leaves the rest to the tournament bar (your place, prize and its results; a move followed). */
function closed(data) {
  if (state.closed) return;
  state.closed = data;
  clearTimeout(state.timer);
  errors.replaceChildren();
  status.textContent = data.said || t("table.closed_status");
  status.classList.remove("down");
  tableView.setClock({ seat: null, server_time: Date.now() / 1000 });
  $("felt").classList.add("closed");
  document.body.dataset.closed = data.reason;
  const why = {
    closed: "table.closed_closed", broken: "table.closed_broken", tournament_over: "table.closed_over", house_closed: "table.closed_house",
  }[data.reason] || "table.closed_closed";
  // A tournament's end box (tournament_bar.js) has the links: said once, not twice.
  const links = data.reason === "tournament_over" ? [] : [el("a", { href: "/", class: "button primary", "data-testid": "end-lobby", text: t("table.to_lobby") })];
  if (data.tournament && data.reason !== "tournament_over") {
    links.push(el("a", { href: `/tournament/${data.tournament}`, class: "button", "data-testid": "end-tournament", text: t("tournament.bar_link") }));
  }
  const box = el("section", { class: "table-end", "data-testid": "table-closed", "aria-live": "polite" },
    el("p", { text: data.said || t(why) }), links.length ? el("p", { class: "end-links" }, ...links) : null);
  const main = $("table-main");
  const slot = main.querySelector("[data-testid=tournament-end]") || main.querySelector("[data-testid=tournament-bar]");
  if (slot) slot.after(box);
  else main.insertBefore(box, main.firstChild.nextSibling);
  window.dispatchEvent(new CustomEvent("sevenstud:table-closed", { detail: data }));
}

/** This page's session ended (its account suspended, banned or renamed by an operator, or
 *  logged out elsewhere): with another sign-in in this browser now the page reconnects on it;
 *  else it stops, saying the server's reason. */
async function sessionEnded(reason) {
  const account = await me().catch(() => null);
  if (account) connect();
  else closed({ reason: "session_ended", said: reason });
}

function remember(event) {
  if (event.player && event.seat !== undefined) state.names.set(event.seat, event.player);
  // Chips moved between the balance and the table: the header shows the server's balance.
  const moved = ["sat_down", "stood_up", "topped_up"].includes(event.type);
  if (moved && bar.account && event.player === bar.account.name) refreshBalance();
}

async function refreshBalance() {
  try {
    const account = await me();
    if (!account) return;
    bar.account = account;
    const shown = document.querySelector("header.site [data-testid=balance]");
    if (shown) shown.textContent = chips(account.balance);
  } catch {
    // The header keeps the balance it had; the next move tries again.
  }
}

/** The lobby's "Play now": sit at the first free seat (the server judges the buy-in). */
function sitDown(view) {
  sitOnArrival = false;
  history.replaceState(null, "", location.pathname);
  if (view.you !== null && view.you !== undefined) return;
  const taken = new Set(Object.keys(view.players || {}).map(Number));
  let seat = 1;
  while (seat <= view.seats && taken.has(seat)) seat += 1;
  if (seat > view.seats) {
    showError(t("table.every_seat_taken"));
    return;
  }
  const balance = bar.account ? bar.account.balance : view.max_buy_in;
  send({ type: "sit", seat, buy_in: Math.max(view.min_buy_in, Math.min(view.max_buy_in, balance)) });
}

/** Tells the style sheet where the felt starts on the page and how tall the action bar is,
 *  so that the felt and the bar fill the first screen (table.css); and, on a narrow screen,
 *  how tall your seat along the table's bottom edge is. */
function fit() {
  // Read everything first, then write only what changed: a write between reads, or one that
  // changes nothing, makes the browser lay the page out again (each draw did it three times).
  const feltTop = `${Math.round($("felt").getBoundingClientRect().top + window.scrollY)}px`;
  const barHeight = `${Math.ceil($("action-area").getBoundingClientRect().height)}px`;
  const yours = $("felt").querySelector(".seat.you");
  // The box's own height, fractions included, and a pixel to spare: offsetHeight rounds (a box
  // 100.4 px tall said 100, and the seat above it met it by a fraction of a pixel).
  const yoursHeight = yours ? Math.ceil(yours.getBoundingClientRect().height) + 1 : 0;
  const root = document.documentElement.style;
  setStyle(root, "--felt-top", feltTop);
  setStyle(root, "--bar-h", barHeight);
  setStyle($("felt").style, "--you-h", yours && NARROW.matches ? `${yoursHeight}px` : "0px");
  tableView.squeeze(yours ? yoursHeight : 0);
  tableView.placeBets();
}
function setStyle(style, name, value) {
  if (style.getPropertyValue(name) !== value) style.setProperty(name, value);
}
new ResizeObserver(fit).observe($("action-area"));
new ResizeObserver(fit).observe(document.body);
NARROW.addEventListener("change", () => {
  if (state.view) draw(state.view);
});

function draw(view) {
  state.view = view;
  if (sitOnArrival && bar.account) sitDown(view);
  const felt = $("felt");
  felt.dataset.number = String(view.number);
  felt.dataset.hand = String(view.view.hand_number ?? "");
  felt.dataset.street = String(view.view.hand ? view.view.hand.street : "");
  felt.dataset.lastHand = String(view.last_hand ? view.last_hand.hand : "");
  const game = gameName(view.game, view.game_name);
  $("table-title").textContent = t("table.title", { table: tableId, game, stakes: stakesName(view.stakes) });
  document.title = baseTitle = t("table.page_title", { table: tableId, game });
  const rules = $("rules-link");
  if (rules) rules.href = `/rules/${encodeURIComponent(view.game)}`;
  const turn = bar.draw(view, { spectator });
  tableView.draw(view, { spectator });
  social.draw(view, bar.account);
  fit();
  if (turn && !state.turn) alertTurn(view);
  state.turn = turn;
  if (!turn) document.title = baseTitle;
  const last = view.last_hand ? view.last_hand.hand : null;
  // Signed out, there are no hands of yours to ask for (the server would answer 401).
  if (!spectator && bar.account && last !== state.historyFor) {
    state.historyFor = last;
    // Fetched when first needed (signed in, a hand finished): not a file the first view waits for.
    import("/web/table_history.js").then(({ refreshHistory }) => refreshHistory($("history"), tableId));
  }
}

let audio = null;
// Browsers start sound only after a gesture on the page: the first click or key readies it.
function readyAudio() {
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
  } catch {
    audio = null;
  }
}
document.addEventListener("pointerdown", readyAudio, { once: true });
document.addEventListener("keydown", readyAudio, { once: true });
/** A short beep and a title alert on your turn, unless the sound setting is off. */
function alertTurn(view) {
  if (!settings.get("sound")) return;
  document.title = t("table.your_turn_title", { actions: (view.actions || []).map((a) => a.label).join(", ") });
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch {
    // No sound where the browser allows none yet (no click on the page): the title says it.
  }
}

async function start() {
  translatePage();
  applySettings();
  $("settings-slot").replaceWith(settingsControls());
  const known = Number.isInteger(tableId) && tableId > 0;
  // The socket opens at once, side by side with asking who is logged in: the first view is
  // drawn one round trip sooner (the session cookie goes with the socket either way).
  if (known) connect();
  let account = null;
  try {
    account = await me();
  } catch {
    account = null;
  }
  bar.account = account;
  $("header-slot").replaceWith(siteHeader(account));
  later();
  fit();
  if (!known) {
    status.textContent = t("table.no_such_table");
    showError(t("table.no_table_here"));
    return;
  }
  if (!account && !spectator) log.note(t("table.sign_in_to_sit"));
  if (state.view) draw(state.view); // a view that came first: drawn again knowing the account
}

start();
