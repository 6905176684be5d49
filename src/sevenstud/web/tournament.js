// One tournament's page (/tournament/{id}): its clock and level, your place and stack, the
// prize pool and payouts, its tables with their counts, the entrants, the structure; register
// and unregister while it registers, a link to your table while you play. All of it is what
// GET /api/tournaments/{id} says, read again every two seconds.
import { api, chips, el, me, siteHeader } from "/web/common.js";
import { gameName } from "/web/i18n.js";
import { renderAsks, renderDeal } from "/web/tournament_asks.js";

const $ = (id) => document.getElementById(id);
const tid = Number(window.location.pathname.split("/").pop());

export function clockWords(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function levelWords(level) {
  return `ante ${level.ante}, bring-in ${level.bring_in}, ${level.small_bet}/${level.big_bet}`;
}

function table(headings, rows, label) {
  return el("table", { class: "facts" },
    el("caption", { class: "visually-hidden", text: label }),
    el("thead", {}, el("tr", {}, ...headings.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows.map((cells) => el("tr", {}, ...cells.map((c) => el("td", { text: String(c) }))))));
}

async function post(path) {
  $("t-error").textContent = "";
  try {
    await api(path, { method: "POST" });
  } catch (error) {
    $("t-error").textContent = error.message;
  }
  await load();
}

async function load() {
  let t;
  try {
    t = await api(`/api/tournaments/${tid}`);
  } catch (error) {
    $("t-error").textContent = error.message;
    return;
  }
  document.title = `${t.name}: sevenstud card room`;
  $("t-title").textContent = `${t.name}: ${gameName(t.game, t.game_name || t.game)}`;
  const state = { registering: "Registering", running: "Running", break: "On a break",
    finished: "Finished", cancelled: "Cancelled" }[t.state] || t.state;
  let clock = `${state}. Level ${t.level.index + 1}: ${levelWords(t.level)}.`;
  if (t.state === "running" && t.time_to_next_level !== null) {
    clock += ` Next level (${levelWords(t.next_level)}) in ${clockWords(t.time_to_next_level)}.`;
  }
  if (t.time_to_break !== null && t.state === "running") clock += ` Break in ${clockWords(t.time_to_break)}.`;
  if (t.break_ends_in !== null) clock += ` Play resumes in ${clockWords(t.break_ends_in)}.`;
  clock += ` ${t.players_left} of ${t.entries} players left, average stack ${chips(t.average_stack)}.`;
  $("t-clock").textContent = clock;
  const you = t.you;
  const actions = $("t-actions");
  actions.replaceChildren();
  if (you && you.place) {
    $("t-you").textContent = `You finished in place ${you.place}${you.prize ? `, winning ${chips(you.prize)}` : ""}.`;
  } else if (you) {
    $("t-you").textContent = `You: ${chips(you.chips)}, rank ${you.rank} of ${t.players_left}.`;
    const mine = t.tables.find((x) => x.number === you.table);
    if (mine && mine.table_id) actions.append(el("a", { href: `/table/${mine.table_id}`, class: "button primary",
      "data-testid": "go-to-table", text: "Go to your table" }));
  } else {
    $("t-you").textContent = "";
  }
  if (t.state === "registering") {
    actions.append(
      el("button", { type: "button", "data-testid": "register", onclick: () => post(`/api/tournaments/${tid}/register`),
        text: `Register (${chips(t.buy_in + t.fee)})` }), " ",
      el("button", { type: "button", "data-testid": "unregister", onclick: () => post(`/api/tournaments/${tid}/unregister`),
        text: "Unregister" }));
  }
  renderAsks($("t-asks"), t, load);
  renderDeal($("t-deal-panel"), $("t-deal"), t);
  $("t-facts").replaceChildren(
    el("p", { text: `Prize pool ${chips(t.prize_pool)} (buy-in ${t.buy_in} + fee ${t.fee}), ${t.entries} entries.` }),
    table(["Place", "Prize"], t.payouts.map((p, i) => [i + 1, chips(p)]), "Payouts"));
  $("t-tables").replaceChildren(table(["Table", "Players", "Chips"],
    t.tables.map((x) => [x.number, x.players, x.chips]), "Tables"));
  $("t-entrants").replaceChildren(table(["Player", "Chips", "Table", "Place", "Prize"],
    t.entrants.map((e) => [e.name, e.chips, e.table ?? "", e.place ?? "", e.prize || ""]), "Entrants"));
  $("t-structure").replaceChildren(table(["Level", "Ante", "Bring-in", "Limits", "Lasts"],
    t.structure.levels.map((l, i) => [i + 1, l.ante, l.bring_in, `${l.small_bet}/${l.big_bet}`,
      l.minutes !== null ? `${l.minutes} min` : `${l.hands} hands`]), "Structure"));
}

me().then((account) => $("site-header").replaceWith(siteHeader(account)));
load();
setInterval(load, 2000);
