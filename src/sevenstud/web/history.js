// Your hands (/history): GET /api/history with the filters in the form, a page at a time,
// newest first; GET /api/stats with the same filters for your statistics over those hands.
// The server searches and counts; the page only asks and shows, in the page's language.
import { api, applySettings, cardElement, el, me, siteHeader } from "/web/common.js";
import { dateTime, gameName, number, said, t, translatePage } from "/web/i18n.js";
import { drawChips } from "/web/history_chips.js";
import { statsTable } from "/web/stats_view.js";

const PER_PAGE = 20;
const $ = (id) => document.getElementById(id);
let page = 1;
let total = 0;

function query(extra = {}) {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData($("filters")).entries()) {
    if (String(value).trim()) params.set(key, String(value).trim());
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, String(value));
  return params.toString();
}

/** A street's short name ("3rd"), by the street's number. */
export function streetWord(street) {
  return said(`street.s${street}`, String(street));
}

function row(hand) {
  const cards = el("span", { class: "cards", role: "group", "aria-label": t("history.your_cards") }, ...hand.cards.map((c) => cardElement(c)));
  const result = hand.net > 0 ? t("history.result_won", { amount: number(hand.net) })
    : hand.net < 0 ? t("history.result_lost", { amount: number(-hand.net) }) : t("history.result_even");
  const street = hand.showdown ? t("history.street_showdown", { street: streetWord(hand.street) }) : streetWord(hand.street);
  // An unnamed table (the lobby's "Play now") by its number, in the page's language.
  const table = hand.table_name || t("lobby.table_n", { id: hand.table });
  const title = t("history.table_hand", { table, number: hand.number });
  return el("tr", { "data-testid": "hand-row", "data-hand": String(hand.id) },
    el("td", { text: dateTime(hand.at) }),
    el("td", { text: title }),
    el("td", { text: `${gameName(hand.game, hand.game_name)} ${hand.stakes[2]}/${hand.stakes[3]}` }),
    el("td", {}, cards),
    el("td", { text: street }),
    el("td", { class: hand.result, text: result }),
    el("td", {}, el("a", { href: `/hands/${hand.id}`, text: t("history.replay"),
      "aria-label": t("history.replay_label", { number: hand.number, table }) })));
}

async function load() {
  $("problem").textContent = "";
  try {
    const found = await api(`/api/history?${query({ page, per_page: PER_PAGE })}`);
    total = found.total;
    $("rows").replaceChildren(...found.hands.map(row));
    const pages = Math.max(1, Math.ceil(total / PER_PAGE));
    $("count").textContent = total
      ? t("history.count", { count: total, total: number(total), page: number(page), pages: number(pages) })
      : t("history.no_match");
    $("prev").disabled = page <= 1;
    $("next").disabled = page >= pages;
    const stats = await api(`/api/stats?${query()}`);
    $("stats").replaceChildren(statsTable(stats, t("history.over_found")));
  } catch (error) {
    $("rows").replaceChildren();
    $("count").textContent = "";
    $("problem").textContent = error.status === 401 ? t("history.sign_in") : error.message;
  }
}

async function start() {
  translatePage();
  applySettings();
  let account = null;
  try {
    account = await me();
  } catch {
    account = null;
  }
  $("header-slot").replaceWith(siteHeader(account));
  $("filters").addEventListener("submit", (event) => {
    event.preventDefault();
    page = 1;
    load();
  });
  $("prev").addEventListener("click", () => { page -= 1; load(); });
  $("next").addEventListener("click", () => { page += 1; load(); });
  if (!account) {
    $("problem").textContent = t("history.sign_in");
    return;
  }
  load();
  drawChips($("chips"));
}

start();
