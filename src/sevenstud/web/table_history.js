// The hand-history panel: the player's last hands at this table (GET /api/hands, which only
// ever lists the player's own finished hands), each with the replayer and the downloads.
import { api, el } from "/web/common.js";
import { t } from "/web/i18n.js";

const SHOWN = 10;

/** Fills `list` with the last hands at table `tableId`, newest first; says why when it can't. */
export async function refreshHistory(list, tableId) {
  let hands;
  try {
    hands = await api("/api/hands");
  } catch (error) {
    list.replaceChildren(el("li", { class: "note", text: error.status === 401 ? t("history.sit_down") : t("history.none", { why: error.message }) }));
    return;
  }
  const here = hands.filter((h) => h.table === tableId).slice(-SHOWN).reverse();
  if (!here.length) {
    list.replaceChildren(el("li", { class: "note", text: t("history.empty") }));
    return;
  }
  list.replaceChildren(...here.map((h) => el("li", { "data-testid": `history-${h.id}` },
    el("a", { href: `/hands/${h.id}`, text: t("table.hand", { number: h.number }) }),
    " ",
    el("a", { href: `/api/hands/${h.id}?format=pokerstars`, download: `sevenstud-hand-${h.id}.txt`, "aria-label": t("history.as_pokerstars", { number: h.number }), text: t("history.pokerstars") }),
    " ",
    el("a", { href: `/api/hands/${h.id}?format=phh`, download: `sevenstud-hand-${h.id}.phh`, "aria-label": t("history.as_phh", { number: h.number }), text: "PHH" }))));
}
