// The tournament bar of a tournament table (/table/{id}): the level and the next, the clock to
// the next level, your rank and stack, read from the tournament's page every second; when the
// tournament moves you to another table the page follows you there, and when you are out it
// says your place and prize. Once you are out, or the tournament is over, the end is said under
// the bar: your place and prize, its results and where to go next (a busted player's table may
// play on). A cash table has no tournament: the bar stays away.
import { api, chips, el } from "/web/common.js";
import { number, t } from "/web/i18n.js";
import { renderAsks } from "/web/tournament_asks.js";
import { clockWords, levelWords } from "/web/tournament_words.js";

const tableId = Number(window.location.pathname.split("/").pop());

async function start() {
  let of;
  try {
    of = await api(`/api/tournaments/table/${tableId}`);
  } catch {
    return; // no answer: the table page goes on without the bar
  }
  if (!of || of.tournament === null) return; // a cash table
  // The bar's own sheet: the table's page loads none of the tournament pages' styles.
  document.head.append(el("link", { rel: "stylesheet", href: "/web/tournament_bar.css" }));
  const bar = el("section", { class: "tournament-bar", "aria-label": t("tournament.bar_label"), "data-testid": "tournament-bar" });
  const level = el("span", { "data-testid": "t-level" });
  const next = el("span", { "data-testid": "t-next" });
  const you = el("span", { "data-testid": "t-rank", "aria-live": "polite" });
  const link = el("a", { href: `/tournament/${of.tournament}`, text: t("tournament.bar_link") });
  const asks = el("span", { class: "tournament-asks", "data-testid": "t-asks" });
  bar.append(level, next, you, asks, link);
  const main = document.getElementById("table-main");
  main.insertBefore(bar, main.firstChild.nextSibling);
  let timer = null;
  async function update() {
    let tour;
    try {
      tour = await api(`/api/tournaments/${of.tournament}`);
    } catch {
      return;
    }
    const over = tour.state === "finished" || tour.state === "cancelled";
    if ((tour.you && tour.you.place) || over) showEnd(bar, tour, of.tournament);
    if (over) clearInterval(timer); // nothing changes any more
    renderAsks(asks, tour, update);
    setText(level, t("tournament.bar_level", { level: number(tour.level.index + 1), words: levelWords(tour.level) }));
    setText(next, tour.state === "break" && tour.break_ends_in !== null
      ? t("tournament.bar_break", { time: clockWords(tour.break_ends_in) })
      : tour.time_to_next_level !== null
        ? t("tournament.bar_next", { words: levelWords(tour.next_level), time: clockWords(tour.time_to_next_level) })
        : "");
    const me = tour.you;
    if (me && me.place) {
      you.className = "finished";
      you.setAttribute("data-testid", "t-finished");
      setText(you, me.prize
        ? t("tournament.bar_finished_prize", { place: number(me.place), prize: chips(me.prize) })
        : t("tournament.you_finished", { place: number(me.place) }));
      return;
    }
    if (me) {
      setText(you, t("tournament.bar_rank", { rank: number(me.rank), left: number(tour.players_left), chips: chips(me.chips) }));
      const mine = tour.tables.find((x) => x.number === me.table);
      if (mine && mine.table_id && mine.table_id !== tableId) {
        setText(you, t("tournament.bar_moved", { table: number(mine.number) }));
        window.location.assign(`/table/${mine.table_id}`); // follow the move
      }
    } else if (tour.state === "finished") {
      setText(you, t("tournament.bar_over"));
    }
  }
  update();
  timer = setInterval(update, 1000);
}

/** The end of the tournament for you (busted or won) or for everybody (over), under the bar:
 *  your place of the entries and your prize, the results so far (place, player, prize) and
 *  where to go next. Drawn again only when the results change. */
function showEnd(bar, tour, tid) {
  const me = tour.you;
  const placed = tour.entrants.filter((e) => e.place).sort((a, b) => a.place - b.place);
  const key = JSON.stringify([me && me.place, placed.map((e) => [e.name, e.place, e.prize]), tour.state]);
  let box = document.querySelector("[data-testid=tournament-end]");
  if (box && box.dataset.key === key) return;
  const headline = me && me.place === 1 ? t("tournament.end_won")
    : me && me.place ? t("tournament.end_place", { place: number(me.place), entries: number(tour.entries) })
      : t("tournament.bar_over");
  const prize = me && me.place ? (me.prize ? t("tournament.end_prize", { prize: chips(me.prize) }) : t("tournament.end_no_prize")) : "";
  const results = el("ol", { class: "end-results", "aria-label": t("tournament.end_results"), "data-testid": "t-results" },
    ...placed.slice(0, 10).map((e) => el("li", { value: e.place, class: me && e.name === me.name ? "you" : "" },
      e.prize ? t("tournament.end_result_prize", { name: e.name, prize: chips(e.prize) }) : e.name)));
  const made = el("section", { class: "tournament-end", "data-testid": "tournament-end", "data-key": key, "aria-live": "polite" },
    el("h2", { text: headline, "data-testid": "t-end-headline" }),
    prize ? el("p", { class: "end-prize", "data-testid": "t-end-prize", text: prize }) : null,
    el("h3", { text: t("tournament.end_results") }), results,
    el("p", { class: "end-links" },
      el("a", { href: "/", class: "button primary", "data-testid": "t-end-lobby", text: t("table.to_lobby") }),
      el("a", { href: `/tournament/${tid}`, class: "button", text: t("tournament.bar_link") }),
      el("a", { href: "/tournaments", class: "button", text: t("tournament.end_another") })));
  if (box) box.replaceWith(made);
  else bar.after(made);
  if (!box) made.scrollIntoView({ block: "nearest" });
}

/** Text set only when it changed (the live rank is not told the same words again). */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

start();
