// Your hands (/history): GET /api/history with the filters in the form, a page at a time,
// newest first; GET /api/stats with the same filters for your statistics over those hands.
// The server searches and counts; the page only asks and shows.
import { api, applySettings, cardElement, el, me, siteHeader } from "/web/common.js";
import { statsTable } from "/web/stats_view.js";

const PER_PAGE = 20;
const ORDINALS = { 3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th" };
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

function when(at) {
  return new Date(at * 1000).toISOString().slice(0, 16).replace("T", " ");
}

function row(hand) {
  const cards = el("span", { class: "cards", role: "group", "aria-label": "your cards" }, ...hand.cards.map((c) => cardElement(c)));
  const result = hand.net > 0 ? `won ${hand.net}` : hand.net < 0 ? `lost ${-hand.net}` : "even";
  const street = `${ORDINALS[hand.street] || hand.street}${hand.showdown ? ", showdown" : ""}`;
  return el("tr", { "data-testid": "hand-row", "data-hand": String(hand.id) },
    el("td", { text: when(hand.at) }),
    el("td", { text: `${hand.table_name} (hand ${hand.number})` }),
    el("td", { text: `${hand.game_name} ${hand.stakes[2]}/${hand.stakes[3]}` }),
    el("td", {}, cards),
    el("td", { text: street }),
    el("td", { class: hand.result, text: result }),
    el("td", {}, el("a", { href: `/hands/${hand.id}`, text: "Replay", "aria-label": `Replay hand ${hand.number} of ${hand.table_name}` })));
}

async function load() {
  $("problem").textContent = "";
  try {
    const found = await api(`/api/history?${query({ page, per_page: PER_PAGE })}`);
    total = found.total;
    $("rows").replaceChildren(...found.hands.map(row));
    const pages = Math.max(1, Math.ceil(total / PER_PAGE));
    $("count").textContent = total ? `${total} hand${total === 1 ? "" : "s"}: page ${page} of ${pages}` : "No hands match.";
    $("prev").disabled = page <= 1;
    $("next").disabled = page >= pages;
    const stats = await api(`/api/stats?${query()}`);
    $("stats").replaceChildren(statsTable(stats, "Over the hands found"));
  } catch (error) {
    $("rows").replaceChildren();
    $("count").textContent = "";
    $("problem").textContent = error.status === 401 ? "Sign in (or play as a guest) in the lobby to see your hands." : error.message;
  }
}

async function start() {
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
    $("problem").textContent = "Sign in (or play as a guest) in the lobby to see your hands.";
    return;
  }
  load();
}

start();
