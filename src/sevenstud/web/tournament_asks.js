// What a player may ask of a tournament beside playing their hands (docs/protocol.md,
// "Tournaments"): a re-entry, a rebuy, the add-on, the ICM deal. The buttons on the
// tournament's page and in its tables' bar, each shown only when the tournament's page says
// you may (you.may_*: the server decides, never the page), and the ICM shares at the final
// table with the deal being talked over. Every string is a catalog's (tournament.*).
import { api, chips, el } from "/web/common.js";
import { t } from "/web/i18n.js";

/** The requests open to you now: [test id, label, path under /api/tournaments/{id}/]. */
export function asksOf(tour) {
  const you = tour.you;
  if (!you) return [];
  const asks = [];
  if (you.may_reenter) {
    asks.push(["reenter", t("tournament.buy_reenter", { price: chips(tour.buy_in + tour.fee) }), "reenter"]);
  }
  if (you.may_rebuy && tour.rebuys) {
    const words = { chips: chips(tour.rebuys.chips), price: chips(tour.rebuys.price) };
    asks.push(["rebuy", t("tournament.buy_rebuy", words), "rebuy"]);
  }
  if (you.may_add_on && tour.add_on) {
    const words = { chips: chips(tour.add_on.chips), price: chips(tour.add_on.price) };
    asks.push(["addon", t("tournament.buy_add_on", words), "addon"]);
  }
  if (you.may_propose_deal) asks.push(["deal-propose", t("tournament.deal_propose"), "deal/propose"]);
  if (you.may_accept_deal) asks.push(["deal-accept", t("tournament.deal_accept"), "deal/accept"]);
  if (you.may_decline_deal) asks.push(["deal-decline", t("tournament.deal_decline"), "deal/decline"]);
  return asks;
}

/** Show the buttons of :func:`asksOf` in `box` (only when they change, so that keyboard focus
 *  stays where it was between reads); `done` is called after each answer. A refusal is shown
 *  in the box, as the server worded it. */
export function renderAsks(box, tour, done) {
  const asks = asksOf(tour);
  const signature = asks.map(([id, label]) => `${id}:${label}`).join("|");
  if (box.dataset.asks === signature) return;
  box.dataset.asks = signature;
  const refusal = el("span", { class: "error", role: "alert", "data-testid": "ask-error" });
  async function ask(path) {
    refusal.textContent = "";
    try {
      await api(`/api/tournaments/${tour.id}/${path}`, { method: "POST" });
    } catch (error) {
      refusal.textContent = error.message;
    }
    done();
  }
  const buttons = asks.flatMap(([id, label, path]) => [
    el("button", { type: "button", "data-testid": id, onclick: () => ask(path), text: label }), " "]);
  box.replaceChildren(...buttons, refusal);
}

/** The ICM shares at the final table (`panel` hidden before), and the deal being talked over. */
export function renderDeal(panel, box, tour) {
  if (!tour.icm) {
    panel.hidden = true;
    box.replaceChildren();
    return;
  }
  panel.hidden = false;
  const heading = panel.querySelector("h2");
  if (heading) heading.textContent = t("tournament.icm_title");
  const stacks = Object.fromEntries(tour.entrants.map((e) => [e.name, e.chips]));
  const shares = Object.entries(tour.icm).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const lines = [];
  const deal = tour.deal;
  if (deal) {
    lines.push(el("p", { role: "status", "data-testid": "deal-status",
      text: t("tournament.deal_waiting", { name: deal.proposed_by, names: deal.waiting_for.join(", ") }) }));
    if (deal.hand_in_progress) lines.push(el("p", { text: t("tournament.deal_after_hand") }));
  } else {
    lines.push(el("p", { text: t("tournament.icm_explained") }));
  }
  const heads = [t("tournament.icm_player"), t("tournament.icm_chips"), t("tournament.icm_share")];
  const table = el("table", { class: "facts", "data-testid": "icm-shares" },
    el("caption", { class: "visually-hidden", text: t("tournament.icm_title") }),
    el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...shares.map(([name, share]) => el("tr", {},
      el("td", { text: name }), el("td", { text: chips(stacks[name] ?? 0) }), el("td", { text: chips(share) })))));
  box.replaceChildren(...lines, table);
}
