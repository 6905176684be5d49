// One click to a sit-and-go: the lobby's "Play a sit-and-go" enters the house's sit-and-go
// always registering (POST /api/tournaments/quick; docs/operators.md, "Tournaments"); the
// tournament lobby's "Start it" makes the player's own, a private one (public tournaments are
// the house's: a public one is refused, saying so). A guest account when signed out, the player
// entered, then its table, once the tournament has seated them (else its page, which links the
// table as soon as there is one).
import { api, me } from "/web/common.js";

const SEATS = { "sng-heads-up": 2, "sng-6": 6, "sng-8": 8 };
const WAIT_FOR_TABLE_MS = 8000;

/** How many bots fill a template's sit-and-go, leaving one seat: the one who starts it. */
export function botsFor(template) {
  return (SEATS[template] || 2) - 1;
}

/** Enters the house's sit-and-go and goes to its table; an error's message is the server's. */
export async function playHouseSitAndGo() {
  if (!(await me())) await api("/api/guest", { method: "POST" });
  const entered = await api("/api/tournaments/quick", { method: "POST" });
  await goToTable(entered.id);
}

/** Makes, enters and goes to a sit-and-go; an error's message is the server's reason. */
export async function startSitAndGo({ template, game, bots, private: invited = false }) {
  if (!(await me())) await api("/api/guest", { method: "POST" });
  const body = invited ? { template, game, bots, private: true } : { template, game, bots };
  const made = await api("/api/tournaments", { method: "POST", body });
  await api(`/api/tournaments/${made.id}/register`, { method: "POST" });
  if (made.invite) {
    // A home game's sit-and-go: its page, where the host finds the link to send (table_host.js).
    (await import("/web/table_host.js")).rememberInvite(`t${made.id}`, made.invite);
    window.location.assign(`/tournament/${made.id}`);
    return;
  }
  await goToTable(made.id);
}

/** The table the tournament seats the player at, once it has; else its page. */
async function goToTable(id) {
  const until = Date.now() + WAIT_FOR_TABLE_MS;
  while (Date.now() < until) {
    const tour = await api(`/api/tournaments/${id}`);
    const mine = tour.you && tour.tables.find((x) => x.number === tour.you.table);
    if (mine && mine.table_id) {
      window.location.assign(`/table/${mine.table_id}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  window.location.assign(`/tournament/${id}`);
}
