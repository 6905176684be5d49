// The tournament lobby (/tournaments): every tournament with a state filter, register and
// unregister (the server checks the balance and says why it refuses), and a sit-and-go made
// from a template. It shows what GET /api/tournaments says; nothing here decides a rule.
import { api, chips, el, me, siteHeader } from "/web/common.js";
import { gameName } from "/web/i18n.js";

const $ = (id) => document.getElementById(id);
const STATE_WORDS = {
  registering: "Registering", running: "Running", break: "On a break",
  finished: "Finished", cancelled: "Cancelled",
};

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
  body.replaceChildren(...rows.map((t) => {
    const open = t.state === "registering";
    const buttons = el("td", {},
      el("a", { href: `/tournament/${t.id}`, "data-testid": "open-tournament", text: "Open" }));
    if (open) {
      buttons.append(" ",
        el("button", { type: "button", "data-testid": "register", "aria-label": `Register for ${t.name}`,
          onclick: () => act(`/api/tournaments/${t.id}/register`, $("lobby-error")), text: "Register" }),
        " ",
        el("button", { type: "button", "data-testid": "unregister", "aria-label": `Unregister from ${t.name}`,
          onclick: () => act(`/api/tournaments/${t.id}/unregister`, $("lobby-error")), text: "Unregister" }));
    }
    return el("tr", { "data-testid": "tournament-row", "data-tournament": String(t.id) },
      el("th", { scope: "row" }, el("a", { href: `/tournament/${t.id}`, text: t.name })),
      el("td", { text: gameName(t.game, t.game_name || t.game) }),
      el("td", { text: t.kind === "sit_and_go" ? `Sit-and-go, ${t.seats} seats` : "Scheduled" }),
      el("td", { text: `${chips(t.buy_in)} + ${t.fee}` }),
      el("td", { text: `${t.registered} of ${t.max_entries}` }),
      el("td", { text: STATE_WORDS[t.state] || t.state }),
      buttons);
  }));
}

$("state-filter").addEventListener("change", load);
$("make-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("make-error").textContent = "";
  const form = new FormData(event.target);
  try {
    const made = await api("/api/tournaments", {
      method: "POST",
      body: { template: form.get("template"), game: form.get("game"), bots: Number(form.get("bots") || 0) },
    });
    window.location.assign(`/tournament/${made.id}`);
  } catch (error) {
    $("make-error").textContent = error.message;
  }
});
header();
load();
setInterval(load, 3000);
