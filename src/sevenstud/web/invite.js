// The invite page, /invite/TOKEN: a signed-in visitor's pass is asked for at once; a signed-out
// one joins as a guest first (or signs in at the lobby and opens the link again). Then the page
// says what the server answered: in (on to the table, or a sit-and-go's page), asking (it asks again every few seconds
// until the host decides) or denied; a link that is no table's says just that.
import { api, el, me, siteHeader } from "/web/common.js";
import { t, translatePage } from "/web/i18n.js";

const POLL_MS = 2000;
const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

function say(key, params) {
  $("invite-status").textContent = t(key, params);
}

// A private table's page, or a private sit-and-go's (where one registers).
function arrive(standing) {
  say("private.going_in");
  location.assign(standing.tournament ? `/tournament/${standing.tournament}` : `/table/${standing.table}`);
}

function passOf(standing) {
  return standing.tournament ? `/api/private/tournaments/${standing.tournament}/pass` : `/api/private/tables/${standing.table}/pass`;
}

function follow(standing) {
  $("invite-actions").replaceChildren();
  if (standing.state === "in") {
    arrive(standing);
  } else if (standing.state === "asking") {
    say("private.waiting_for_host");
    setTimeout(() => poll(passOf(standing)), POLL_MS);
  } else {
    say("private.denied");
  }
}

async function poll(path) {
  try {
    follow(await api(path));
  } catch (error) {
    if (error.status === 404) say("private.no_invitation");
    else setTimeout(() => poll(path), POLL_MS); // a network blip: asked again
  }
}

async function useLink() {
  try {
    follow(await api("/api/invite", { method: "POST", body: { token } }));
  } catch (error) {
    if (error.status === 404) say("private.no_invitation");
    else $("invite-error").textContent = error.message;
  }
}

async function start() {
  translatePage();
  let account = null;
  try {
    account = await me();
  } catch {
    account = null;
  }
  $("header-slot").replaceWith(siteHeader(account));
  if (account) {
    useLink();
    return;
  }
  say("private.signed_out");
  const guest = el("button", { type: "button", class: "primary", "data-testid": "join-as-guest", text: t("private.join_as_guest") });
  guest.addEventListener("click", async () => {
    guest.disabled = true;
    try {
      await api("/api/guest", { method: "POST" });
      location.reload(); // the header shows the new account; the link is used then
    } catch (error) {
      $("invite-error").textContent = error.message;
      guest.disabled = false;
    }
  });
  $("invite-actions").replaceChildren(guest, " ", el("a", { href: "/", class: "button", text: t("private.sign_in_first") }));
}

start();
