// One tournament's page (/tournament/{id}): its clock and level, your place and stack, the
// prize pool and payouts, its tables with their counts, the entrants, the structure; register
// and unregister while it registers, a link to your table while you play. All of it is what
// GET /api/tournaments/{id} says, read again every two seconds, in the page's language.
import { api, chips, el, me, siteHeader } from "/web/common.js";
import { gameName, number, said, t, translatePage } from "/web/i18n.js";
import { renderAsks, renderDeal } from "/web/tournament_asks.js";
import { redrawKeepingFocus } from "/web/tournament_focus.js";
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
  if (tour.state === "finished" || tour.state === "cancelled") {
    // Over: who won and of how many, not "0 players left, average stack 0".
    if (tour.winner) line.push(t("tournament.won_by", { count: tour.entries, name: tour.winner, entries: number(tour.entries) }));
    return line.join(" ");
  }
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
  setText($("t-title"), t("tournament.title", { name: tour.name, game: gameName(tour.game, tour.game_name || tour.game) }));
  setText($("t-clock"), clockLine(tour));
  // Said by a screen reader when the level or the state changes, not at each tick of the clock.
  setText($("t-level-said"), t("tournament.clock_level", {
    state: said(`tournaments.state_${tour.state}`, tour.state), level: number(tour.level.index + 1), words: levelWords(tour.level),
  }));
  const you = tour.you;
  const actions = [];
  let youWords = "";
  if (you && you.place) {
    youWords = you.prize
      ? t("tournament.you_finished_prize", { place: number(you.place), prize: chips(you.prize) })
      : t("tournament.you_finished", { place: number(you.place) });
  } else if (you) {
    youWords = t("tournament.you", { chips: chips(you.chips), rank: number(you.rank), left: number(tour.players_left) });
    const mine = tour.tables.find((x) => x.number === you.table);
    if (mine && mine.table_id) actions.push(["go-to-table", mine.table_id]);
  }
  setText($("t-you"), youWords);
  // Register while it registers (or, once started, while late registration is open) when you
  // are not in it; unregister only before the start, and only when you are in it.
  const late = tour.late_registration && tour.late_registration.open;
  if (!you && (tour.state === "registering" || late)) actions.push(["register", tour.buy_in + tour.fee]);
  if (you && tour.state === "registering") actions.push(["unregister"]);
  const box = $("t-actions");
  redrawKeepingFocus(box, JSON.stringify(actions), () => box.replaceChildren(...actions.map(([id, value]) => {
    if (id === "go-to-table") {
      return el("a", { href: `/table/${value}`, class: "button primary", "data-testid": id, text: t("tournament.go_to_table") });
    }
    const label = id === "register" ? t("tournament.register_cost", { cost: chips(value) }) : t("tournaments.unregister");
    return el("button", { type: "button", "data-testid": id, "data-focus-as": "entry", onclick: () => post(`/api/tournaments/${tid}/${id}`), text: label });
  })));
  renderAsks($("t-asks"), tour, load);
  renderDeal($("t-deal-panel"), $("t-deal"), tour);
  // The tables are drawn again only when they change: a screen reader reading one keeps its place.
  const facts = [
    t("tournament.pool", {
      count: tour.entries, pool: chips(tour.prize_pool), buy_in: number(tour.buy_in), fee: number(tour.fee), entries: number(tour.entries),
    }),
    tour.payouts.map((p, i) => [number(i + 1), chips(p)]),
  ];
  redrawKeepingFocus($("t-facts"), JSON.stringify(facts), () => $("t-facts").replaceChildren(
    el("p", { text: facts[0] }),
    table([t("tournament.col_place"), t("tournament.col_prize")], facts[1], t("tournament.payouts"))));
  // An empty list says why it is empty rather than showing a table of headings alone.
  const tables = tour.tables.map((x) => [number(x.number), number(x.players), number(x.chips)]);
  const noTables = t(tour.state === "registering" ? "tournament.tables_none_yet" : "tournament.tables_none");
  redrawKeepingFocus($("t-tables"), JSON.stringify([tables, noTables]), () => $("t-tables").replaceChildren(tables.length
    ? table([t("tournament.col_table"), t("tournament.col_players"), t("tournament.col_chips")], tables, t("tournament.tables_heading"))
    : el("p", { class: "empty-note", "data-testid": "t-tables-none", text: noTables })));
  const entrants = tour.entrants.map((e) => [e.name, number(e.chips), e.table ?? "", e.place ?? "", e.prize ? number(e.prize) : ""]);
  redrawKeepingFocus($("t-entrants"), JSON.stringify(entrants), () => $("t-entrants").replaceChildren(entrants.length
    ? table([t("tournament.col_player"), t("tournament.col_chips"), t("tournament.col_table"), t("tournament.col_place"), t("tournament.col_prize")],
      entrants, t("tournament.entrants_heading"))
    : el("p", { class: "empty-note", "data-testid": "t-entrants-none", text: t("tournament.entrants_none") })));
  const levels = tour.structure.levels.map((l, i) => [number(i + 1), number(l.ante), number(l.bring_in), `${number(l.small_bet)}/${number(l.big_bet)}`,
    l.minutes !== null ? t("tournament.lasts_minutes", { count: l.minutes }) : t("tournament.lasts_hands", { count: l.hands })]);
  redrawKeepingFocus($("t-structure"), JSON.stringify(levels), () => $("t-structure").replaceChildren(table(
    [t("tournament.col_level"), t("tournament.col_ante"), t("tournament.col_bring_in"), t("tournament.col_limits"), t("tournament.col_lasts")],
    levels, t("tournament.structure_heading"))));
}

/** Text set only when it changed (a live region is not told the same words again). */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

translatePage();
me().then((account) => $("site-header").replaceWith(siteHeader(account)));
// A private sit-and-go's host: the invite link and who asks (table_host.js; nobody else sees it).
import("/web/table_host.js").then(({ mountTournamentHost }) => mountTournamentHost($("t-host-slot"), tid));
load();
setInterval(load, 2000);
