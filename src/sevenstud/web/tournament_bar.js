// The tournament bar of a tournament table (/table/{id}): the level and the next, the clock to
// the next level, your rank and stack, read from the tournament's page every second; when the
// tournament moves you to another table the page follows you there, and when you are out it
// says your place and prize. A cash table has no tournament: the bar stays away.
import { api, chips, el } from "/web/common.js";
import { renderAsks } from "/web/tournament_asks.js";

const tableId = Number(window.location.pathname.split("/").pop());

function clockWords(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function levelWords(level) {
  return `ante ${level.ante}, bring-in ${level.bring_in}, ${level.small_bet}/${level.big_bet}`;
}

async function start() {
  let of;
  try {
    of = await api(`/api/tournaments/table/${tableId}`);
  } catch {
    return; // no answer: the table page goes on without the bar
  }
  if (!of || of.tournament === null) return; // a cash table
  const bar = el("section", { class: "tournament-bar", "aria-label": "Tournament", "data-testid": "tournament-bar" });
  const level = el("span", { "data-testid": "t-level" });
  const next = el("span", { "data-testid": "t-next" });
  const you = el("span", { "data-testid": "t-rank", "aria-live": "polite" });
  const link = el("a", { href: `/tournament/${of.tournament}`, text: "Tournament page" });
  const asks = el("span", { class: "tournament-asks", "data-testid": "t-asks" });
  bar.append(level, next, you, asks, link);
  const main = document.getElementById("table-main");
  main.insertBefore(bar, main.firstChild.nextSibling);
  async function update() {
    let t;
    try {
      t = await api(`/api/tournaments/${of.tournament}`);
    } catch {
      return;
    }
    renderAsks(asks, t, update);
    level.textContent = `Level ${t.level.index + 1}: ${levelWords(t.level)}`;
    next.textContent = t.state === "break" && t.break_ends_in !== null
      ? `Break: play resumes in ${clockWords(t.break_ends_in)}`
      : t.time_to_next_level !== null ? `Next: ${levelWords(t.next_level)} in ${clockWords(t.time_to_next_level)}` : "";
    const me = t.you;
    if (me && me.place) {
      you.className = "finished";
      you.setAttribute("data-testid", "t-finished");
      you.textContent = `You finished in place ${me.place}${me.prize ? ` and won ${chips(me.prize)}` : ""}.`;
      return;
    }
    if (me) {
      you.textContent = `Your rank: ${me.rank} of ${t.players_left}, ${chips(me.chips)}`;
      const mine = t.tables.find((x) => x.number === me.table);
      if (mine && mine.table_id && mine.table_id !== tableId) {
        you.textContent = `You are moved to table ${mine.number}...`;
        window.location.assign(`/table/${mine.table_id}`); // follow the move
      }
    } else if (t.state === "finished") {
      you.textContent = "The tournament is over.";
    }
  }
  update();
  setInterval(update, 1000);
}

start();
