// A player's stud statistics as a small table (docs/stats.md defines each): the server counts
// them (GET /api/stats, /api/stats/players); this only says them.
import { el } from "/web/common.js";

const STREET_LABELS = { 3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th" };

function ratio(r) {
  if (!r || !r.of) return "-";
  return `${Math.round(r.rate * 100)}% (${r.count} of ${r.of})`;
}

function aggression(a) {
  return Object.keys(STREET_LABELS)
    .map((street) => {
      const s = a[street];
      const factor = s.factor === null ? (s.bets ? "all bets" : "-") : s.factor.toFixed(1);
      return `${STREET_LABELS[street]} ${factor}`;
    })
    .join(", ");
}

/** The statistics (the API's object) as a table with a caption. */
export function statsTable(stats, caption) {
  const rows = [
    ["Hands", String(stats.hands)],
    ["3rd-street VPIP", ratio(stats.vpip)],
    ["Completes the bring-in", ratio(stats.complete)],
    ["Bring-in steal", ratio(stats.steal)],
    ["Bring-in defence", ratio(stats.defend)],
    ["Aggression (bets and raises per call)", aggression(stats.aggression)],
    ["Went to showdown (of 4th streets seen)", ratio(stats.went_to_showdown)],
    ["Won at showdown", ratio(stats.won_at_showdown)],
    ["Scoops (hi/lo showdowns won)", ratio(stats.scoop)],
  ];
  return el("table", { class: "stats", "data-testid": "stats" },
    el("caption", { text: caption }),
    el("tbody", {}, ...rows.map(([label, value]) =>
      el("tr", {}, el("th", { scope: "row", text: label }), el("td", { text: value })))));
}
