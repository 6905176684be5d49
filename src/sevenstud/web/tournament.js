// One tournament's page (/tournament/{id}): its clock and level, your place and stack, the
// prize pool and payouts, its tables with their counts, the entrants, the structure; register
// and unregister while it registers, a link to your table while you play. All of it is what
// GET /api/tournaments/{id} says, read again every two seconds, in the page's language.
import { api, chips, el, me, siteHeader } from "/web/common.js";
import { gameName, number, said, t, translatePage } from "/web/i18n.js";
import { renderAsks, renderDeal } from "/web/tournament_asks.js";
import { clockWords, levelWords } from "/web/tournament_words.js";

const $ = (id) => document.getElementById(id);
const tid = Number(window.location.pathname.split("/").pop());

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

function clockLine(tour) {
  const line = [t("tournament.clock_level", { state: said(`tournaments.state_${tour.state}`, tour.state), level: number(tour.level.index + 1), words: levelWords(tour.level) })];
  if (tour.state === "running" && tour.time_to_next_level !== null) {
    line.push(t("tournament.clock_next", { words: levelWords(tour.next_level), time: clockWords(tour.time_to_next_level) }));
  }
  if (tour.time_to_break !== null && tour.state === "running") line.push(t("tournament.clock_break", { time: clockWords(tour.time_to_break) }));
  if (tour.break_ends_in !== null) line.push(t("tournament.clock_resumes", { time: clockWords(tour.break_ends_in) }));
  line.push(t("tournament.clock_left", {
    count: tour.entries, left: number(tour.players_left), entries: number(tour.entries), stack: chips(tour.average_stack),
  }));
  return line.join(" ");
}

async function load() {
  let tour;
  try {
    tour = await api(`/api/tournaments/${tid}`);
  } catch (error) {
    $("t-error").textContent = error.message;
    return;
  }
  document.title = t("tournament.doc_named", { name: tour.name });
  $("t-title").textContent = t("tournament.title", { name: tour.name, game: gameName(tour.game, tour.game_name || tour.game) });
  $("t-clock").textContent = clockLine(tour);
  const you = tour.you;
  const actions = $("t-actions");
  actions.replaceChildren();
  if (you && you.place) {
    $("t-you").textContent = you.prize
      ? t("tournament.you_finished_prize", { place: number(you.place), prize: chips(you.prize) })
      : t("tournament.you_finished", { place: number(you.place) });
  } else if (you) {
    $("t-you").textContent = t("tournament.you", { chips: chips(you.chips), rank: number(you.rank), left: number(tour.players_left) });
    const mine = tour.tables.find((x) => x.number === you.table);
    if (mine && mine.table_id) actions.append(el("a", { href: `/table/${mine.table_id}`, class: "button primary",
      "data-testid": "go-to-table", text: t("tournament.go_to_table") }));
  } else {
    $("t-you").textContent = "";
  }
  if (tour.state === "registering") {
    actions.append(
      el("button", { type: "button", "data-testid": "register", onclick: () => post(`/api/tournaments/${tid}/register`),
        text: t("tournament.register_cost", { cost: chips(tour.buy_in + tour.fee) }) }), " ",
      el("button", { type: "button", "data-testid": "unregister", onclick: () => post(`/api/tournaments/${tid}/unregister`),
        text: t("tournaments.unregister") }));
  }
  renderAsks($("t-asks"), tour, load);
  renderDeal($("t-deal-panel"), $("t-deal"), tour);
  $("t-facts").replaceChildren(
    el("p", { text: t("tournament.pool", {
      count: tour.entries, pool: chips(tour.prize_pool), buy_in: number(tour.buy_in), fee: number(tour.fee), entries: number(tour.entries),
    }) }),
    table([t("tournament.col_place"), t("tournament.col_prize")], tour.payouts.map((p, i) => [number(i + 1), chips(p)]), t("tournament.payouts")));
  $("t-tables").replaceChildren(table([t("tournament.col_table"), t("tournament.col_players"), t("tournament.col_chips")],
    tour.tables.map((x) => [number(x.number), number(x.players), number(x.chips)]), t("tournament.tables_heading")));
  $("t-entrants").replaceChildren(table(
    [t("tournament.col_player"), t("tournament.col_chips"), t("tournament.col_table"), t("tournament.col_place"), t("tournament.col_prize")],
    tour.entrants.map((e) => [e.name, number(e.chips), e.table ?? "", e.place ?? "", e.prize ? number(e.prize) : ""]),
    t("tournament.entrants_heading")));
  $("t-structure").replaceChildren(table(
    [t("tournament.col_level"), t("tournament.col_ante"), t("tournament.col_bring_in"), t("tournament.col_limits"), t("tournament.col_lasts")],
    tour.structure.levels.map((l, i) => [number(i + 1), number(l.ante), number(l.bring_in), `${number(l.small_bet)}/${number(l.big_bet)}`,
      l.minutes !== null ? t("tournament.lasts_minutes", { count: l.minutes }) : t("tournament.lasts_hands", { count: l.hands })]),
    t("tournament.structure_heading")));
}

translatePage();
me().then((account) => $("site-header").replaceWith(siteHeader(account)));
load();
setInterval(load, 2000);
