// The tournament lobby (/tournaments): every tournament with a state filter, register and
// unregister (the server checks the balance and says why it refuses), and a sit-and-go made
// from a template with its bots, the starter entered in it (sit_and_go.js). It shows what
// GET /api/tournaments says; nothing here decides a rule.
import { api, chips, el, me, siteHeader } from "/web/common.js";
import { gameName, number, said, t, translatePage } from "/web/i18n.js";
import { botsFor, startSitAndGo } from "/web/sit_and_go.js";
import { redrawKeepingFocus } from "/web/tournament_focus.js";

const $ = (id) => document.getElementById(id);

async function header() {
  const account = await me();
  $("site-header").replaceWith(Object.assign(siteHeader(account), { id: "site-header" }));
  return account;
}

async function act(path, errorBox) {
  errorBox.textContent = "";
  try {
    await api(path, { method: "POST" });
  } catch (error) {
    errorBox.textContent = error.message;
  }
  await Promise.all([header(), load()]);
}

async function load() {
  const state = $("state-filter").value;
  let rows;
  try {
    rows = await api(`/api/tournaments${state ? `?state=${encodeURIComponent(state)}` : ""}`);
  } catch (error) {
    $("lobby-error").textContent = error.message;
    return;
  }
  const body = $("tournament-rows");
  // Drawn again only when a tournament changed: a keyboard user's focus stays on its button.
  redrawKeepingFocus(body, JSON.stringify(rows), () => body.replaceChildren(...rows.map(rowOf)));
}

/** One tournament's row; each cell says what it is (data-label: a phone shows it as a card). */
function rowOf(row) {
  const open = row.state === "registering";
  const cell = (label, text) => el("td", { "data-label": t(label), text });
  const buttons = el("td", { class: "t-go" },
    el("a", { href: `/tournament/${row.id}`, "data-testid": "open-tournament", "aria-label": t("tournaments.open_named", { name: row.name }),
      text: t("tournaments.open") }));
  // Register, or Unregister for a tournament you are in: one button, the focus kept across.
  if (open && !row.you_registered) {
    buttons.append(" ",
      el("button", { type: "button", "data-testid": "register", "data-focus-as": "entry", "aria-label": t("tournaments.register_for", { name: row.name }),
        onclick: () => act(`/api/tournaments/${row.id}/register`, $("lobby-error")), text: t("tournaments.register") }));
  } else if (open) {
    buttons.append(" ",
      el("button", { type: "button", "data-testid": "unregister", "data-focus-as": "entry", "aria-label": t("tournaments.unregister_from", { name: row.name }),
        onclick: () => act(`/api/tournaments/${row.id}/unregister`, $("lobby-error")), text: t("tournaments.unregister") }));
  }
  return el("tr", { "data-testid": "tournament-row", "data-tournament": String(row.id) },
    el("th", { scope: "row" }, el("a", { href: `/tournament/${row.id}`, text: row.name })),
    cell("tournaments.col_game", gameName(row.game, row.game_name || row.game)),
    cell("tournaments.col_kind", row.kind === "sit_and_go"
      ? t("tournaments.kind_sit_and_go", { count: row.seats, seats: number(row.seats) }) : t("tournaments.kind_scheduled")),
    cell("tournaments.col_buy_in", t("tournaments.buy_in_and_fee", { buy_in: chips(row.buy_in), fee: number(row.fee) })),
    cell("tournaments.col_entrants", t("tournaments.entrants", { registered: number(row.registered), most: number(row.max_entries) })),
    cell("tournaments.col_state", said(`tournaments.state_${row.state}`, row.state)),
    buttons);
}

translatePage();
$("state-filter").addEventListener("change", load);
// The bots fill every seat but the starter's by default (none: a sit-and-go waited for ever).
function fillBots() {
  const most = botsFor($("make-template").value);
  $("make-bots").max = String(most);
  $("make-bots").value = String(most);
}
$("make-template").addEventListener("change", fillBots);
fillBots();
$("make-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("make-error").textContent = "";
  const form = new FormData(event.target);
  const button = $("make-form").querySelector("button[type=submit]");
  button.disabled = true;
  try {
    // Signed out, a guest account first (this page has no guest button); the starter plays.
    // A player's own sit-and-go is private: public tournaments are the house's (issue 33).
    await startSitAndGo({ template: form.get("template"), game: form.get("game"), bots: Number(form.get("bots") || 0), private: true });
  } catch (error) {
    $("make-error").textContent = error.message;
    button.disabled = false;
  }
});
header();
load();
setInterval(load, 3000);
