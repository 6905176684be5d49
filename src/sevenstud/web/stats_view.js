// A player's stud statistics as a small table (docs/stats.md defines each): the server counts
// them (GET /api/stats, /api/stats/players); this only says them, in the page's language.
import { el } from "/web/common.js";
import { number, t } from "/web/i18n.js";

const STREETS = [3, 4, 5, 6, 7];

function ratio(r) {
  if (!r || !r.of) return "-";
  const rate = number(r.rate, { style: "percent", maximumFractionDigits: 0 });
  return t("stats.ratio", { rate, count: number(r.count), of: number(r.of) });
}

function aggression(a) {
  return STREETS
    .map((street) => {
      const s = a[street];
      const factor = s.factor === null ? (s.bets ? t("stats.all_bets") : "-")
        : number(s.factor, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      return t("stats.street_factor", { street: t(`street.s${street}`), factor });
    })
    .join(", ");
}

/** The statistics (the API's object) as a table with a caption. */
export function statsTable(stats, caption) {
  const rows = [
    [t("stats.hands"), number(stats.hands)],
    [t("stats.vpip"), ratio(stats.vpip)],
    [t("stats.complete"), ratio(stats.complete)],
    [t("stats.steal"), ratio(stats.steal)],
    [t("stats.defend"), ratio(stats.defend)],
    [t("stats.aggression"), aggression(stats.aggression)],
    [t("stats.went_to_showdown"), ratio(stats.went_to_showdown)],
    [t("stats.won_at_showdown"), ratio(stats.won_at_showdown)],
    [t("stats.scoop"), ratio(stats.scoop)],
  ];
  return el("table", { class: "stats", "data-testid": "stats" },
    el("caption", { text: caption }),
    el("tbody", {}, ...rows.map(([label, value]) =>
      el("tr", {}, el("th", { scope: "row", text: label }), el("td", { text: value })))));
}
