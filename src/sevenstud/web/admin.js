// The operator's console (/admin): one tab for each part of running the room (the accounts, the
// house's tables, tournaments, chat, the event log, the API's tokens). Each part is its own
// module, web/admin_<part>.js, exporting `mount(panel, console)`; the shell only draws the tabs,
// mounts a part the first time it is opened, and keeps the operator's sign-in fresh. The server
// decides everything: every call goes to /api/admin/, which answers operators only.
import { api, applySettings, el, me, siteHeader } from "/web/common.js";
import { t, translatePage } from "/web/i18n.js";

/** The console's parts, in the order of their tabs. */
export const PARTS = ["accounts", "tables", "tournaments", "chat", "events", "tokens"];

const $ = (id) => document.getElementById(id);
let account = null;
let again = null; // the password prompt in progress, shared by every call that met a stale sign-in

/** Ask for the operator's password again (the dialog) and sign in anew with it. */
function signInAgain() {
  again ??= new Promise((resolve, reject) => {
    const dialog = $("again");
    const form = $("again-form");
    const input = $("again-password");
    input.value = "";
    $("again-problem").textContent = "";
    const submit = async (event) => {
      event.preventDefault();
      try {
        await api("/api/login", { method: "POST", body: { name: account.name, password: input.value } });
      } catch (error) {
        $("again-problem").textContent = error.message;
        return;
      }
      form.removeEventListener("submit", submit);
      dialog.removeEventListener("cancel", cancelled);
      dialog.close();
      resolve();
    };
    const cancelled = () => {
      form.removeEventListener("submit", submit);
      dialog.removeEventListener("cancel", cancelled);
      reject(new Error(t("admin.sign_in_again")));
    };
    form.addEventListener("submit", submit);
    dialog.addEventListener("cancel", cancelled);
    dialog.showModal();
    input.focus();
  }).finally(() => { again = null; });
  return again;
}

/** A call of the operator API (as common.js's `api`): when the operator's sign-in has gone
 *  stale (401), the password is asked for again and the call made once more. */
export async function adminApi(path, options = {}) {
  try {
    return await api(path, options);
  } catch (error) {
    if (error.status !== 401 || !account) throw error;
    await signInAgain();
    return api(path, options);
  }
}

const mounted = new Set();

async function open(part) {
  for (const name of PARTS) {
    const chosen = name === part;
    $(`tab-${name}`).setAttribute("aria-selected", String(chosen));
    $(`tab-${name}`).tabIndex = chosen ? 0 : -1;
    $(`panel-${name}`).hidden = !chosen;
  }
  if (location.hash !== `#${part}`) history.replaceState(null, "", `#${part}`);
  if (mounted.has(part)) return;
  mounted.add(part);
  const panel = $(`panel-${part}`);
  try {
    const module = await import(`/web/admin_${part}.js`);
    await module.mount(panel, { adminApi, account });
  } catch (error) {
    mounted.delete(part);
    panel.append(el("p", { class: "error", role: "alert", text: error.message }));
  }
}

function drawParts() {
  const tabs = $("parts");
  for (const part of PARTS) {
    tabs.append(el("button", {
      type: "button", role: "tab", id: `tab-${part}`, "aria-controls": `panel-${part}`,
      "data-testid": `tab-${part}`, text: t(`admin.part_${part}`), onclick: () => open(part),
    }));
    $("panels").append(el("section", {
      id: `panel-${part}`, role: "tabpanel", "aria-labelledby": `tab-${part}`, hidden: true,
      "data-testid": `panel-${part}`, class: "panel",
    }));
  }
  // Arrow keys move between tabs, as in every tab list.
  tabs.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    const at = PARTS.indexOf(document.activeElement.id.replace("tab-", ""));
    const next = PARTS[(at + step + PARTS.length) % PARTS.length];
    $(`tab-${next}`).focus();
    open(next);
  });
}

async function start() {
  translatePage();
  applySettings();
  try {
    account = await me();
  } catch {
    account = null;
  }
  $("header-slot").replaceWith(siteHeader(account));
  if (!account || !account.operator) {
    $("problem").textContent = t("admin.operators_only");
    $("parts").hidden = true;
    return;
  }
  drawParts();
  const wanted = location.hash.slice(1);
  open(PARTS.includes(wanted) ? wanted : PARTS[0]);
}

start();
