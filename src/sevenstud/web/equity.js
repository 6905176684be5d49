// The equity page: each player's cards and the dead cards, typed or picked on a 52-card grid,
// sent to the server's equity engine (POST /api/equity), then the job polled until it is done.
// The server parses the cards and says what is wrong with them; the page only keeps track of
// which cards are on the grid so that a card is picked once at most.
import { api, applySettings, cardElement, cardName, el, fillGameSelect, games, me, siteHeader } from "/web/common.js";
import { number, said, t, translatePage } from "/web/i18n.js";

const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
const SUITS = ["s", "h", "d", "c"];
const MIN_PLAYERS = 2;
const MAX_PLAYERS = 8;
// Seven cards is a whole stud hand: more cannot be given for one player.
const MAX_CARDS = 7;
const POLL_MS = 200;
const FIGURES = [
  ["equity", "equity.f_equity"],
  ["scoop", "equity.f_scoop"],
  ["high", "equity.f_high"],
  ["low", "equity.f_low"],
];
// Why the server refused a job (the answer's "reason", docs/protocol.md "Equity jobs"), or why
// it cut one short (the job's "stopped"); the server's own message follows, saying which limit
// or which card: api() asks in the page's language, so the server says it in that language.
const REFUSED = {
  "too-large": "equity.r_too_large",
  "client-busy": "equity.r_client_busy",
  "server-busy": "equity.r_server_busy",
  rate: "equity.r_rate",
  "bad-position": "equity.r_bad_position",
};
const STOPPED = {
  deadline: "equity.s_deadline",
  shutdown: "equity.s_shutdown",
};

// The halves a game has (stud has no low half, razz only the low), as the server says.
async function halvesOf(code) {
  const game = (await games()).find((g) => g.code === code);
  if (!game) return ["high", "low"];
  return [...(game.has_high ? ["high"] : []), ...(game.has_low ? ["low"] : [])];
}

// A card as typed ("as", "10h", "Kd") in the grid's spelling ("As", "Th", "Kd"); "??" stays.
const TOKEN = /\?\?|10[cdhs]|[2-9tjqka][cdhs]/gi;

function tokens(text) {
  return (text.match(TOKEN) || []).map((t) => {
    if (t === "??") return t;
    const rank = t.length === 3 ? "T" : t[0].toUpperCase();
    return rank + t[t.length - 1].toLowerCase();
  });
}

const slots = [];
let target = "p0";
let running = false;

function slotLabel(id) {
  return id === "dead" ? t("equity.dead") : t("equity.player", { number: Number(id.slice(1)) + 1 });
}

function makeSlot(id) {
  const label = slotLabel(id);
  const input = el("input", {
    type: "text", id: `cards-${id}`, autocomplete: "off", spellcheck: "false",
    placeholder: t("equity.example", { cards: id === "dead" ? "7h 7c" : "As 2s 3s" }), "data-testid": `cards-${id}`,
  });
  const choose = el("input", {
    type: "radio", name: "target", value: id, id: `target-${id}`, "data-testid": `target-${id}`,
  });
  const shown = el("div", { class: "slot-cards", "data-testid": `shown-${id}`, "aria-hidden": "true" });
  const clear = el("button", {
    type: "button", "data-testid": `clear-${id}`, "aria-label": t("equity.clear_named", { label }), text: t("equity.clear"),
  });
  const box = el("div", { class: "slot", "data-testid": `slot-${id}` },
    el("div", { class: "slot-head" },
      choose, el("label", { for: `target-${id}`, text: ` ${t("equity.next_pick", { label })}` })),
    el("label", { for: `cards-${id}`, class: "slot-name", text: label }),
    el("div", { class: "slot-entry" }, input, clear),
    shown);
  choose.addEventListener("change", () => setTarget(id));
  input.addEventListener("input", refresh);
  input.addEventListener("focus", () => setTarget(id));
  clear.addEventListener("click", () => { input.value = ""; refresh(); });
  return { id, input, choose, shown, box };
}

function players() {
  return slots.filter((s) => s.id !== "dead");
}

function setTarget(id) {
  target = id;
  for (const slot of slots) {
    slot.choose.checked = slot.id === id;
    slot.box.classList.toggle("target", slot.id === id);
  }
}

function layoutSlots() {
  const box = document.getElementById("slots");
  box.replaceChildren(...slots.map((s) => s.box));
  document.getElementById("add-player").disabled = players().length >= MAX_PLAYERS;
  document.getElementById("remove-player").disabled = players().length <= MIN_PLAYERS;
  if (!slots.some((s) => s.id === target)) setTarget("p0");
  else setTarget(target);
}

function addPlayer() {
  const count = players().length;
  if (count >= MAX_PLAYERS) return;
  slots.splice(count, 0, makeSlot(`p${count}`));
  layoutSlots();
}

function removePlayer() {
  const count = players().length;
  if (count <= MIN_PLAYERS) return;
  slots.splice(count - 1, 1);
  layoutSlots();
  refresh();
}

// Where each card is now: the grid marks it, and a second pick takes it back.
function used() {
  const where = new Map();
  for (const slot of slots) {
    for (const t of tokens(slot.input.value)) if (t !== "??") where.set(t, slot);
  }
  return where;
}

// Whether the error on show is the server's refusal of the cards as they were.
let cardsRefused = false;

function refresh() {
  if (cardsRefused) {
    cardsRefused = false;
    showError("");
    setProgress(0, "");
  }
  const where = used();
  for (const button of document.querySelectorAll("#grid button")) {
    const owner = where.get(button.dataset.card);
    button.setAttribute("aria-pressed", owner ? "true" : "false");
    button.title = owner ? t("equity.in_slot", { label: slotLabel(owner.id) }) : "";
  }
  for (const slot of slots) {
    slot.shown.replaceChildren(...tokens(slot.input.value).map((t) => cardElement(t === "??" ? null : t)));
  }
}

function note(text) {
  document.getElementById("pick-note").textContent = text;
}

function addCard(card) {
  const slot = slots.find((s) => s.id === target);
  if (!slot) return;
  if (slot.id !== "dead" && tokens(slot.input.value).length >= MAX_CARDS) {
    note(t("equity.full", { label: slotLabel(slot.id), count: MAX_CARDS }));
    return;
  }
  slot.input.value = `${slot.input.value.trim()} ${card}`.trim();
  note(t("equity.picked", { card: card === "??" ? t("equity.unknown_card") : cardName(card), label: slotLabel(slot.id) }));
  refresh();
}

function pick(card) {
  const owner = used().get(card);
  if (owner) {
    // Take it back from where it is, keeping the other cards' order.
    const kept = tokens(owner.input.value);
    kept.splice(kept.indexOf(card), 1);
    owner.input.value = kept.join(" ");
    note(t("equity.taken_back", { card: cardName(card), label: slotLabel(owner.id) }));
    refresh();
    return;
  }
  addCard(card);
}

function buildGrid() {
  const grid = document.getElementById("grid");
  for (const suit of SUITS) {
    const row = el("div", { class: "grid-row", role: "group", "aria-label": t(`equity.suit_${suit}`) });
    for (const rank of RANKS) {
      const card = rank + suit;
      const button = el("button", {
        type: "button", class: `pick suit-${suit}`, "data-card": card, "aria-label": cardName(card),
        "aria-pressed": "false", "data-testid": `pick-${card}`,
      });
      button.append(cardElement(card));
      button.firstChild.setAttribute("aria-hidden", "true");
      button.tabIndex = card === "As" ? 0 : -1;
      button.addEventListener("click", () => pick(card));
      row.append(button);
    }
    grid.append(row);
  }
  grid.addEventListener("keydown", moveInGrid);
}

// One tab stop for the whole grid (52 would be a long walk): the arrow keys move between the
// cards, Home and End to a suit's ends, Enter or Space picks.
function moveInGrid(event) {
  const button = event.target.closest("button.pick");
  if (!button) return;
  const card = button.dataset.card;
  let rank = RANKS.indexOf(card[0]);
  let suit = SUITS.indexOf(card[1]);
  const moves = {
    ArrowLeft: () => { rank = (rank + RANKS.length - 1) % RANKS.length; },
    ArrowRight: () => { rank = (rank + 1) % RANKS.length; },
    ArrowUp: () => { suit = (suit + SUITS.length - 1) % SUITS.length; },
    ArrowDown: () => { suit = (suit + 1) % SUITS.length; },
    Home: () => { rank = 0; },
    End: () => { rank = RANKS.length - 1; },
  };
  const move = moves[event.key];
  if (!move) return;
  event.preventDefault();
  move();
  const next = document.querySelector(`#grid button[data-card="${RANKS[rank]}${SUITS[suit]}"]`);
  button.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

/** A share as the page's language writes a percent ("51.5%", "51,5%", "51,5 %"). */
function percent(x) {
  return number(x, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** How the figures were counted, in the page's language (the server names its method in code:
 *  "monte-carlo", "inclusion-exclusion over the last player"). */
const METHOD_KEYS = {
  enumeration: "equity.how_enumeration",
  "inclusion-exclusion": "equity.how_inclusion_exclusion",
  "inclusion-exclusion over the last player": "equity.how_last_player",
  "monte-carlo": "equity.method_monte_carlo",
};

// A result; "cut": a Monte Carlo job cut short, whose figures are those of the trials it drew.
async function showResult(result, game, hands, cut = false) {
  const halves = await halvesOf(game);
  const count = result.exact
    ? t("equity.exact_over", { count: number(result.outcomes ?? 0) })
    : t("equity.monte_carlo", { count: number(result.trials ?? result.outcomes ?? 0) });
  const seconds = typeof result.seconds === "number"
    ? t("equity.in_seconds", { seconds: number(result.seconds, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) }) : "";
  const head = cut ? t("equity.cut_short") : t("equity.done");
  document.getElementById("summary").textContent = `${head}: ${count}${seconds} (${METHOD_KEYS[result.method] ? t(METHOD_KEYS[result.method]) : said(`equity.how_${result.method}`, t("equity.how_other"))}).`;
  const box = document.getElementById("results");
  box.replaceChildren(...result.players.map((p, i) => {
    const rows = FIGURES.filter(([key]) => {
      if (key === "high" || key === "low") return halves.includes(key) && p[key] !== null && p[key] !== undefined;
      return p[key] !== null && p[key] !== undefined;
    }).map(([key, name]) => el("div", { class: `figure ${key}` },
      el("span", { class: "figure-name", text: t(name) }),
      el("span", { class: "bar", "aria-hidden": "true" },
        el("span", { class: "fill", style: `width: ${Math.max(0, Math.min(1, p[key])) * 100}%` })),
      el("span", {
        class: "figure-value", "data-testid": `result-${i}-${key}`, "data-value": String(p[key]),
        text: percent(p[key]),
      })));
    return el("section", { class: "player-result", "data-testid": `result-${i}`, "aria-label": t("equity.player", { number: i + 1 }) },
      el("h3", { text: `${t("equity.player", { number: i + 1 })}: ${hands[i] || t("equity.no_cards")}` }), ...rows);
  }));
}

function setProgress(value, text) {
  const status = document.getElementById("status");
  status.hidden = false;
  const bar = document.getElementById("progress");
  bar.value = value;
  document.getElementById("progress-text").textContent = text;
}

function showError(message, why = "") {
  document.getElementById("why").textContent = why;
  document.getElementById("error").textContent = message;
}

// A refusal's reason in words, and when to try again where the server said.
function refusal(error) {
  const body = error.body || {};
  const why = REFUSED[body.reason] ? t(REFUSED[body.reason]) : "";
  if (!why) return "";
  const wait = Number(body.retry_after);
  return wait > 0 ? `${why} ${t("equity.try_again", { seconds: wait })}` : why;
}

// One look at the job; past the server's rate of polls (429), wait as it says and look again.
async function follow(job) {
  for (;;) {
    try {
      return await api(`/api/equity/${encodeURIComponent(job)}`);
    } catch (error) {
      if (error.status !== 429) throw error;
      const wait = Number((error.body || {}).retry_after) || 1;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }
}

async function run(event) {
  event.preventDefault();
  if (running) return;
  const game = document.getElementById("game").value;
  const method = document.querySelector('input[name="method"]:checked').value;
  const hands = players().map((s) => s.input.value.trim());
  const dead = slots.find((s) => s.id === "dead").input.value.trim();
  const body = { game, hands, dead, method };
  const trials = Number(document.getElementById("trials").value);
  if (method !== "exact" && Number.isFinite(trials) && trials > 0) body.trials = Math.round(trials);
  showError("");
  document.getElementById("summary").textContent = "";
  document.getElementById("results").replaceChildren();
  const button = document.getElementById("run");
  running = true;
  button.disabled = true;
  try {
    setProgress(0, t("equity.starting"));
    const { job, deadline } = await api("/api/equity", { method: "POST", body });
    const limit = typeof deadline === "number" ? t("equity.limit", { seconds: deadline }) : "";
    for (;;) {
      const state = await follow(job);
      const progress = typeof state.progress === "number" ? state.progress : 0;
      if (state.done) {
        if (state.stopped) {
          setProgress(progress, t("equity.cut_short"));
          showError(state.error || "", STOPPED[state.stopped] ? t(STOPPED[state.stopped]) : `${t("equity.cut_short")}.`);
          if (state.result) await showResult(state.result, game, hands, true);
        } else if (state.error) {
          setProgress(progress, t("equity.stopped"));
          showError(state.error);
        } else {
          setProgress(1, t("equity.done"));
          await showResult(state.result, game, hands);
        }
        break;
      }
      setProgress(progress, `${Math.round(progress * 100)}%${limit}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } catch (error) {
    setProgress(0, error.body && error.body.reason ? t("equity.refused") : t("equity.stopped"));
    showError(error.message, refusal(error));
    // The server's word on these cards (a duplicate, a bad card): it goes once they change.
    cardsRefused = Boolean(error.body && error.body.reason === "bad-position");
  } finally {
    running = false;
    button.disabled = false;
  }
}

async function start() {
  translatePage();
  applySettings();
  document.body.prepend(siteHeader(await me()));
  await fillGameSelect(document.getElementById("game"));
  for (let i = 0; i < MIN_PLAYERS; i += 1) slots.push(makeSlot(`p${i}`));
  slots.push(makeSlot("dead"));
  layoutSlots();
  buildGrid();
  refresh();
  document.getElementById("add-player").addEventListener("click", addPlayer);
  document.getElementById("remove-player").addEventListener("click", removePlayer);
  document.getElementById("unknown-card").addEventListener("click", () => addCard("??"));
  document.getElementById("equity-form").addEventListener("submit", run);
}

start();
