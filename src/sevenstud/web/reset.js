// The page of a one-time password-reset link (/reset/<secret>, made by an operator in the
// console): it says whose account the link resets and sets a new password with it. The server
// checks everything: the link works once, for a day; every session of the account ends.
import { api, applySettings, el } from "/web/common.js";
import { t, translatePage } from "/web/i18n.js";

const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.pathname.split("/").pop() || "");

async function start() {
  translatePage();
  applySettings();
  try {
    const { name } = await api(`/api/reset/${encodeURIComponent(token)}`);
    $("whose").textContent = t("reset.whose", { name });
    $("reset-form").hidden = false;
  } catch (error) {
    $("reset-problem").textContent = error.message;
    return;
  }
  $("reset-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("reset-problem").textContent = "";
    if ($("reset-password").value !== $("reset-again").value) {
      $("reset-problem").textContent = t("reset.differ");
      return;
    }
    try {
      const { name } = await api("/api/reset", { method: "POST", body: { token, password: $("reset-password").value } });
      $("reset-form").hidden = true;
      $("reset-done").replaceChildren(t("reset.done", { name }), " ",
        el("a", { href: "/", text: t("header.lobby"), "data-testid": "reset-lobby" }));
    } catch (error) {
      $("reset-problem").textContent = error.message;
    }
  });
}

start();
