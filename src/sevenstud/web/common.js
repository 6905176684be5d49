// What every page of the card room shares: talking to the server, naming and drawing cards,
// and the player's display settings. The pages render what the server says; nothing here
// decides a rule.
import { gameName, lang, languagePicker, t } from "/web/i18n.js";

/** A JSON request to the server; throws an Error carrying the server's own reason. */
export async function api(path, { method = "GET", body } = {}) {
  // The server says its refusals in the page's language (Accept-Language; docs/protocol.md).
  const init = { method, credentials: "same-origin", headers: { "Accept-Language": lang } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    const detail = data && typeof data === "object" ? data.detail : data;
    const error = new Error(describeDetail(detail) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.body = data && typeof data === "object" ? data : null; // e.g. an equity refusal's reason
    throw error;
  }
  return data;
}

// FastAPI's 422 answers carry a list of {loc, msg}; say them as one line.
function describeDetail(detail) {
  if (Array.isArray(detail)) {
    return detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
  }
  return detail ? String(detail) : "";
}

/** The account logged in, or null (GET /api/session: signed out is no error to log). */
export async function me() {
  const answer = await api("/api/session");
  return answer.account;
}

export const RANK_NAMES = {
  A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight",
  7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two",
};
export const SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const RANK_KEYS = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "deuce" };
export const SUIT_SYMBOLS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

/** "Ace of spades"; with faceDown, "Ace of spades, face down"; a card not seen (null),
 *  "a face-down card". */
export function cardName(card, faceDown = false) {
  if (!card) return t("card.face_down_card");
  const name = t(`card.of_${card[1]}`, { rank: t(`card.${RANK_KEYS[card[0]]}`) });
  return faceDown ? t("card.face_down", { name }) : name;
}

/** One card as an element: a card seen (e.g. "Kd") shows rank and suit; null is a card back.
 *  `down`: a down card (its owner sees it face up, marked as down); `highlight`: one of the
 *  five cards of a named hand. Screen readers get the card's name. */
export function cardElement(card, { down = false, highlight = false } = {}) {
  const el = document.createElement("span");
  el.setAttribute("role", "img");
  el.className = "card";
  if (!card) {
    el.classList.add("back");
    el.setAttribute("aria-label", cardName(null));
    return el;
  }
  el.classList.add(`suit-${card[1]}`);
  if (down) el.classList.add("down");
  if (highlight) el.classList.add("highlight");
  el.dataset.card = card;
  el.setAttribute("aria-label", cardName(card, down));
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = card[0] === "T" ? "10" : card[0];
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = SUIT_SYMBOLS[card[1]];
  rank.setAttribute("aria-hidden", "true");
  suit.setAttribute("aria-hidden", "true");
  el.append(rank, suit);
  if (down) {
    // The word under the card, an element of its own (not a ::after) so that it can be kept
    // within the card's width and a test can measure it: words ran together under two down
    // cards ("закрытаязакрытая").
    el.append(Object.assign(document.createElement("span"), { className: "down-word", textContent: t("card.down_mark") }));
    el.lastChild.setAttribute("aria-hidden", "true");
  }
  return el;
}

/** A small element helper: el("p", {class: "x", text: "hi"}, child, ...). */
/** A cash table's stakes as every page names them: ante/bring-in/small bet/big bet
 *  ("1/2/5/10"), as the rules page explains them and the lobby lists them. */
export function stakesName(stakes) {
  return (stakes || []).join("/");
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// The player's settings, kept in this browser only (localStorage): they never reach the server.
const DEFAULTS = { fourColour: false, animations: true, sound: true };

export const settings = {
  get(name) {
    const stored = localStorage.getItem(`sevenstud.${name}`);
    return stored === null ? DEFAULTS[name] : stored === "true";
  },
  set(name, value) {
    localStorage.setItem(`sevenstud.${name}`, String(Boolean(value)));
    applySettings();
  },
};

/** Puts the settings on <body> as classes the style sheet reads (four-colour deck, no
 *  animations); the system's reduced-motion preference also turns animations off. */
export function applySettings() {
  const body = document.body;
  body.classList.toggle("four-colour", settings.get("fourColour"));
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  body.classList.toggle("no-animations", !settings.get("animations") || reduced);
}

/** The settings as labelled checkboxes, for a page's header or menu. */
export function settingsControls() {
  const box = el("fieldset", { class: "settings" }, el("legend", { text: t("settings.legend") }));
  for (const [name, label] of [
    ["fourColour", t("settings.four_colour")],
    ["animations", t("settings.animations")],
    ["sound", t("settings.sound")],
  ]) {
    const id = `setting-${name}`;
    const input = el("input", { type: "checkbox", id });
    input.checked = settings.get(name);
    input.addEventListener("change", () => settings.set(name, input.checked));
    box.append(el("label", { for: id }, input, ` ${label}`));
  }
  return box;
}

/** Chips as a player says them: "1 chip", "12 chips" (in the page's language, by its plural
 *  rules: "1 фішка", "2 фішки", "5 фішок"). */
export function chips(n) {
  return t("common.chips", { count: n });
}

let gamesAsked = null;

/** The games the room deals, the main game first, and what each has (GET /api/games: code,
 * name, has_high, has_low, split ...): asked once a page, so that no page decides a game's
 * rules or its name from its code. */
export function games() {
  gamesAsked ??= api("/api/games").then((answer) => answer.games);
  return gamesAsked;
}

/** A select's options, one per game (its code the value, its name the label), the current
 * choice kept; `first` options (an "Any game") stay before them. */
export async function fillGameSelect(select) {
  const chosen = select.value;
  const keep = [...select.options].filter((o) => o.value === "");
  const options = (await games()).map((g) => el("option", { value: g.code, text: gameName(g.code, g.name) }));
  select.replaceChildren(...keep, ...options);
  if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
}

/** The header every page shows: the card room's name, the pages, the account and its
 *  balance (or a link to the lobby to sign in). `account` is /api/session's account (null: signed out). */
export function siteHeader(account) {
  const who = account
    ? el("span", { class: "account", "data-testid": "account" },
        `${account.name}${account.guest ? t("header.guest") : ""}: `,
        el("span", { class: "balance", "data-testid": "balance", text: chips(account.balance) }))
    : el("a", { href: "/", text: t("header.sign_in") });
  const nav = el("nav", { id: "site-pages", "aria-label": t("header.pages"), "data-testid": "site-pages" },
    el("a", { href: "/", text: t("header.lobby") }),
    el("a", { href: "/tournaments", text: t("header.tournaments") }),
    el("a", { href: "/equity", text: t("header.equity") }),
    el("a", { href: "/history", text: t("header.history") }),
    el("a", { href: "/rules", text: t("header.rules") }),
    account && account.operator ? el("a", { href: "/admin", text: t("header.console"), "data-testid": "console-link" }) : null);
  // On a phone the five pages are behind one button (common.css): a line of them scrolling
  // sideways hid three off-screen with nothing to say they were there.
  const toggle = el("button", {
    type: "button", class: "nav-toggle", "aria-controls": "site-pages", "aria-expanded": "false", "data-testid": "nav-toggle",
  }, el("span", { class: "nav-icon", "aria-hidden": "true", text: "\u2630" }), ` ${t("header.pages")}`);
  const header = el("header", { class: "site" },
    el("h1", {}, el("a", { href: "/", text: t("header.site") })), toggle, nav, who, languagePicker());
  const open = (on) => {
    header.classList.toggle("nav-open", on);
    toggle.setAttribute("aria-expanded", String(on));
  };
  toggle.addEventListener("click", () => open(!header.classList.contains("nav-open")));
  header.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.classList.contains("nav-open")) {
      open(false);
      toggle.focus();
    }
  });
  return header;
}
