// The pages' languages: English, Ukrainian, Russian and Estonian. Every word a page shows
// comes from one catalog a language (/web/i18n/<lang>.json, served by the server), through
// t(key, params); a count's words through Intl.PluralRules (CLDR's rules: "1 фішка",
// "2 фішки", "5 фішок"). The language is the address's ?lang= (for that view), else the one
// the player chose (kept in localStorage), else the first of the browser's languages
// (navigator.languages) that the card room speaks, else English; it is set as <html lang>,
// and the server is told it in hello (its sentences follow it). This module loads the catalog before any page module runs (top-level await).

export const LANGUAGES = ["en", "uk", "ru", "et"];
export const LANGUAGE_NAMES = { en: "English", uk: "Українська", ru: "Русский", et: "Eesti" };
const STORE = "sevenstud.lang";

/** The language code of a tag ("uk-UA" -> "uk"), or null when it is none of ours. */
export function languageOf(tag) {
  if (!tag) return null;
  const base = String(tag).toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.includes(base) ? base : null;
}

/** The language to speak: the page address's ?lang= (a link to a page in a language; not
 *  remembered), else the one chosen here before, else the browser's first of ours. */
export function chooseLanguage(stored = safeStored(), preferred = navigator.languages || [navigator.language],
  asked = new URLSearchParams(location.search).get("lang")) {
  const chosen = languageOf(asked) || languageOf(stored);
  if (chosen) return chosen;
  for (const tag of preferred) {
    const found = languageOf(tag);
    if (found) return found;
  }
  return "en";
}

function safeStored() {
  try {
    return localStorage.getItem(STORE);
  } catch {
    return null; // storage refused (a private window's settings): the browser's languages decide
  }
}

async function fetchCatalog(code) {
  const response = await fetch(`/web/i18n/${code}.json`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`no catalog for ${code}: ${response.status}`);
  return response.json();
}

export let lang = chooseLanguage();
let english = {};
let catalog = {};
try {
  // Both at once: the page's own language and the English every missing word falls back to.
  [english, catalog] = await Promise.all([fetchCatalog("en"), lang === "en" ? null : fetchCatalog(lang)]);
  catalog ??= english;
} catch {
  lang = "en"; // a missing catalog: the page still works, in the English it was written in
  catalog = english;
}
document.documentElement.lang = lang;
const plurals = new Intl.PluralRules(lang);

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The words of `key` in the page's language, `{name}` filled from `params`; a plural entry
 *  ({one, few, many, other}) picks its form for `params.count` by the language's rules. */
export function t(key, params = {}) {
  let entry = catalog[key] ?? english[key];
  if (entry === undefined) return key;
  if (typeof entry === "object") {
    const form = plurals.select(Number(params.count ?? 0));
    entry = entry[form] ?? entry.other;
  }
  return fill(entry, params);
}

/** Translate the static parts of a page: data-i18n="key" sets the text, data-i18n-html="key"
 *  the markup (a catalog's own text, shipped with the page, e.g. a <kbd>), data-i18n-attr=
 *  "aria-label:key;title:key2" sets attributes. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-html]")) node.innerHTML = t(node.dataset.i18nHtml);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) node.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

/** Remember `code` as this browser's language and show the page in it. */
export function setLanguage(code) {
  const chosen = languageOf(code) || "en";
  try {
    localStorage.setItem(STORE, chosen);
  } catch {
    // not kept: the reload below still shows it only if the browser's languages agree
  }
  const url = new URL(location.href);
  if (!url.searchParams.has("lang")) {
    location.reload();
    return;
  }
  url.searchParams.delete("lang"); // the address's language would override the one chosen now
  location.assign(url.toString());
}

/** The language menu every page shows (a labelled select; choosing reloads the page). */
export function languagePicker() {
  const label = document.createElement("label");
  label.className = "language";
  label.htmlFor = "language-select";
  label.textContent = `${t("header.language")} `;
  const select = document.createElement("select");
  select.id = "language-select";
  select.dataset.testid = "language";
  for (const code of LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = LANGUAGE_NAMES[code];
    option.selected = code === lang;
    select.append(option);
  }
  select.addEventListener("change", () => setLanguage(select.value));
  label.append(select);
  return label;
}

// Hand names: the engine writes them in English into its events ("a full house, Kings full of
// Threes"); the log says them again in the page's language from that grammar (the server's
// own sentences are translated on the server).
const RANKS = ["Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"];
const PLURALS = RANKS.map((r) => (r === "Six" ? "Sixes" : `${r}s`));
const R = `(${RANKS.join("|")})`;
const RS = `(${PLURALS.join("|")})`;
const HAND_NAMES = [
  [/^a Royal Flush$/, "hand.royal_flush"],
  [new RegExp(`^a straight flush, ${R} to ${R}$`), "hand.straight_flush"],
  [new RegExp(`^four of a kind, ${RS}$`), "hand.four_of_a_kind"],
  [new RegExp(`^a full house, ${RS} full of ${RS}$`), "hand.full_house"],
  [new RegExp(`^a flush, ${R} high$`), "hand.flush"],
  [new RegExp(`^a straight, ${R} to ${R}$`), "hand.straight"],
  [new RegExp(`^three of a kind, ${RS}$`), "hand.three_of_a_kind"],
  [new RegExp(`^two pair, ${RS} and ${RS}$`), "hand.two_pair"],
  [new RegExp(`^a pair of ${RS}$`), "hand.pair"],
  [new RegExp(`^high card ${R}$`), "hand.high_card"],
  [new RegExp(`^${R} high$`), "hand.high_card"],
];

function rankWord(word) {
  const plural = PLURALS.indexOf(word);
  return plural >= 0 ? t(`ranks.${RANKS[plural].toLowerCase()}`) : t(`rank.${word.toLowerCase()}`);
}

/** A hand's name (the engine's English) in the page's language; a low ("8,6,4,3,2") and a
 *  name this grammar does not know come back as they are. */
export function handName(name) {
  if (!name || lang === "en") return name;
  for (const [pattern, key] of HAND_NAMES) {
    const match = pattern.exec(name);
    if (match) return t(key, { a: match[1] && rankWord(match[1]), b: match[2] && rankWord(match[2]) });
  }
  return name;
}

/** The words of `key`, or `fallback` (e.g. the server's own word) when no catalog has it: for
 *  keys made from a value the server sends (a tournament's state), which may be new. */
export function said(key, fallback) {
  const words = t(key);
  return words === key ? fallback : words;
}

/** A game's name in the page's language, by the code the server gives (`game.<code>` in the
 *  catalog); the server's own (English) name for a game the catalog does not know. */
export function gameName(code, serverName) {
  const key = `game.${code}`;
  const said = t(key);
  return said === key ? serverName || code : said;
}

/** A number as the page's language writes it (Intl.NumberFormat: "1,250" in English,
 *  "1 250" in Ukrainian, Russian and Estonian); `options` as Intl's (e.g. a percent). */
export function number(n, options = {}) {
  return new Intl.NumberFormat(lang, options).format(n);
}

/** A moment (seconds since 1970) as the page's language writes a date and a time, in UTC
 *  (the server counts days in UTC: the history's dates are UTC days). */
export function dateTime(seconds) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "short", timeStyle: "short", timeZone: "UTC" }).format(new Date(seconds * 1000));
}
