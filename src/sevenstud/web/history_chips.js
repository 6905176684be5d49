// The history page's chip moves: the account's own last moves of chips in and out of its
// balance (sign-up, refills, buy-ins and cash-outs, tournaments, an operator's move with the
// reason the operator wrote), newest first, from GET /api/chips.
import { api, chips, el } from "/web/common.js";
import { dateTime, t } from "/web/i18n.js";

/** The ledger's reasons the page has words for (any other is shown as the ledger says it). */
const WHAT = {
  "sign-up": "history.chips_sign_up", refill: "history.chips_refill", "buy-in": "history.chips_buy_in",
  "top-up": "history.chips_top_up", leaving: "history.chips_leaving", operator: "history.chips_operator",
  prize: "history.chips_prize", fee: "history.chips_fee", refund: "history.chips_refund",
  "refund fee": "history.chips_refund", prune: "history.chips_prune",
};

/** Draw the account's chip moves into `box` (it is signed in). */
export async function drawChips(box) {
  let moves;
  try {
    moves = await api("/api/chips");
  } catch (error) {
    box.replaceChildren(el("p", { class: "error", role: "alert", text: error.message }));
    return;
  }
  if (!moves.length) {
    box.replaceChildren(el("p", { text: t("history.chips_none") }));
    return;
  }
  const heads = ["history.chips_when", "history.chips_what", "history.chips_amount"];
  box.replaceChildren(el("div", { class: "chip-moves", tabindex: "0" }, el("table", { "data-testid": "chip-moves" },
    el("thead", {}, el("tr", {}, ...heads.map((key) => el("th", { scope: "col", text: t(key) })))),
    el("tbody", {}, ...moves.map((move) => el("tr", { "data-testid": "chip-move" },
      el("td", { text: dateTime(move.at) }),
      el("td", {}, WHAT[move.what] ? t(WHAT[move.what]) : move.what,
        move.note ? el("span", { class: "note", text: ` (${move.note})` }) : null),
      el("td", { class: "amount", text: `${move.amount > 0 ? "+" : ""}${chips(move.amount)}` })))))));
}
