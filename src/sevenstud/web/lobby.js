// The lobby (`/`): the account (guest in one click, sign up, log in, log out, refill), the
// player's recent hands with their downloads, the tables (refreshed every few seconds, with
// filters) and a form to open a table. It shows what the server answers and decides nothing:
// every refusal is the server's own sentence, shown beside the form that asked.

import {
  api, applySettings, chips, el, fillGameSelect, games, me, settingsControls, siteHeader, stakesName,
} from "/web/common.js";
import { gameName as translatedGameName, lang, number, t, translatePage } from "/web/i18n.js";
import { playHouseSitAndGo } from "/web/sit_and_go.js";

const TABLES_EVERY_MS = 3000;
const ACCOUNT_EVERY_MS = 15000;
const HANDS_SHOWN = 15;

const $ = (id) => document.getElementById(id);

let account = null;
const rows = new Map(); // table id -> its <tr>, kept so that a refresh never moves the focus
let lastLines = [];
let tablesAnswered = false; // (before the lobby's first answer the list says nothing)
/** GET /api/room: what the room lets its players do. */
let roomFacts = { players_open_tables: true };

// ------------------------------------------------------------------ the account

function showHeader() {
  $("site-header").replaceWith(Object.assign(siteHeader(account), { id: "site-header" }));
}

/** Whether the page offers its form to open a table: signed in, and the room lets players
 *  open tables (or this is an operator). */
function mayOpenTables() {
  return account !== null && (account.operator || roomFacts.players_open_tables);
}

function showAccount() {
  const signedIn = account !== null;
  $("signed-out").hidden = signedIn;
  $("signed-in").hidden = !signedIn;
  // Players open tables of their own unless the room's operators have said not (an
  // operator still may): the form is then replaced by where to play.
  const mayOpen = mayOpenTables();
  $("create-form").hidden = !mayOpen;
  $("create-signed-out").hidden = signedIn;
  $("create-house-only").hidden = !signedIn || mayOpen;
  if (tablesAnswered) showTables(lastLines); // (an empty list's sentence says where to open one, or not)
  if (!signedIn) {
    $("account-name").textContent = ""; // nothing of the last account stays in the page
    $("account-balance").textContent = "";
    $("hands").replaceChildren();
    return;
  }
  $("account-name").textContent = `${account.name}${account.guest ? t("header.guest") : ""}`;
  $("account-balance").textContent = chips(account.balance);
  // The refill's terms are the server's (and it decides whether one is due, saying why not).
  $("refill").hidden = account.balance >= account.refill_below;
  $("refill").textContent = t("lobby.refill_to", { amount: account.refill_to });
}

/** A new answer from /api/me (or null): the header's balance is updated in place when only
 *  the balance moved, so that a keyboard user's focus in the header stays where it is. */
function setAccount(next) {
  const same = account && next && account.id === next.id;
  account = next;
  if (same) {
    const balance = document.querySelector("#site-header [data-testid=balance]");
    if (balance) balance.textContent = chips(account.balance);
  } else {
    showHeader();
  }
  showAccount();
}

function clearErrors() {
  for (const id of ["guest-error", "signup-error", "login-error", "refill-error", "create-error", "play-now-error"]) {
    $(id).textContent = "";
  }
}

async function signedInAs(request, errorId) {
  clearErrors();
  try {
    setAccount(await request());
    await refreshHands();
    $("account-title").focus?.();
  } catch (error) {
    $(errorId).textContent = error.message;
  }
}

function credentials(form) {
  return { name: form.elements.name.value.trim(), password: form.elements.password.value };
}

function wireAccount() {
  $("guest").addEventListener("click", () =>
    signedInAs(() => api("/api/guest", { method: "POST" }), "guest-error"));
  $("signup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const body = credentials(event.target);
    signedInAs(() => api("/api/signup", { method: "POST", body }), "signup-error");
  });
  $("login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const body = credentials(event.target);
    signedInAs(() => api("/api/login", { method: "POST", body }), "login-error");
  });
  $("logout").addEventListener("click", async () => {
    clearErrors();
    try {
      await api("/api/logout", { method: "POST" });
    } catch (error) {
      $("refill-error").textContent = error.message;
      return;
    }
    for (const form of [$("signup-form"), $("login-form")]) form.reset();
    setAccount(null);
    $("guest").focus();
  });
  $("refill").addEventListener("click", async () => {
    clearErrors();
    try {
      setAccount(await api("/api/refill", { method: "POST" }));
    } catch (error) {
      $("refill-error").textContent = error.message;
    }
  });
}

// ------------------------------------------------------------------ recent hands

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

async function refreshHands() {
  if (!account) return;
  let hands;
  try {
    hands = await api("/api/hands");
  } catch {
    return; // a failed refresh keeps the list it had; the next one tries again
  }
  const list = $("hands");
  // Newest first (the API lists them oldest first): the hand just played is on top.
  const newest = [...hands].sort((a, b) => b.at - a.at || b.id - a.id).slice(0, HANDS_SHOWN);
  list.replaceChildren(...newest.map((hand) => {
    const title = t("lobby.hand_title", { table: hand.table, number: hand.number });
    return el("li", { "data-testid": "hand", "data-hand": hand.id },
      el("a", { href: `/hands/${hand.id}`, "aria-label": t("lobby.replay", { title }) }, title),
      el("time", { datetime: new Date(hand.at * 1000).toISOString(), text: when(hand.at) }),
      el("span", { class: "links" },
        el("a", { href: `/api/hands/${hand.id}?format=pokerstars`, download: true,
                  "aria-label": t("lobby.download_pokerstars", { title }), text: "PokerStars" }),
        el("a", { href: `/api/hands/${hand.id}?format=phh`, download: true,
                  "aria-label": t("lobby.download_phh", { title }), text: "PHH" })));
  }));
  $("hands-empty").hidden = hands.length > 0;
  $("download-all").hidden = hands.length === 0;
}

// ------------------------------------------------------------------ the tables

const stakesText = stakesName;
// A game's name in the page's language (the catalog's `game.<code>`), else the server's own.
const gameName = (line) => translatedGameName(line.game, line.game_name);

function addOption(select, value, label) {
  if ([...select.options].some((o) => o.value === value)) return;
  select.append(el("option", { value, text: label }));
}

/** The filters' choices: the three games and the preset stakes, plus any stakes a table has. */
function fillFilters(lines) {
  for (const option of $("create-stakes").options) addOption($("filter-stakes"), option.value, option.value);
  for (const line of lines) {
    if (line.game) addOption($("filter-game"), line.game, gameName(line));
    if (line.stakes) addOption($("filter-stakes"), stakesText(line.stakes), stakesText(line.stakes));
  }
}

function shown(line) {
  const game = $("filter-game").value;
  const stakes = $("filter-stakes").value;
  if (game && line.game !== game) return false;
  if (stakes && stakesText(line.stakes) !== stakes) return false;
  if ($("filter-free").checked && !(line.taken < line.seats)) return false;
  return true;
}

function cell(label, testid) {
  return el("td", { "data-label": label, "data-testid": testid });
}

function newRow(line) {
  const tr = el("tr", { "data-testid": "table-row", "data-table": line.id });
  tr.append(
    cell(t("lobby.col_table"), "name"), cell(t("lobby.game"), "game"), cell(t("lobby.stakes"), "stakes"),
    cell(t("lobby.col_taken"), "seats"), cell(t("lobby.col_waiting"), "waiting"), cell(t("lobby.col_pot"), "average-pot"),
    cell(t("lobby.col_hands"), "hands-per-hour"), cell(t("lobby.col_players"), "players"),
    el("td", { class: "go" },
      el("a", { class: "button primary", href: `/table/${line.id}`, "data-testid": "join", text: t("lobby.join") }),
      el("a", { class: "button", href: `/table/${line.id}?watch=1`, "data-testid": "watch", text: t("lobby.watch") })),
  );
  return tr;
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text; // unchanged text is left alone
}

function fillRow(tr, line) {
  const name = line.name || t("lobby.table_n", { id: line.id });
  const get = (id) => tr.querySelector(`[data-testid=${id}]`);
  // One of the house's standing tables is marked so (docs/operators.md, "The house's tables").
  const nameCell = get("name");
  const marked = `${name}|${line.house ? "house" : ""}`;
  if (nameCell.dataset.shown !== marked) {
    nameCell.dataset.shown = marked;
    const mark = line.house ? el("span", { class: "house-mark", "data-testid": "house-mark", text: t("lobby.house_mark") }) : null;
    nameCell.replaceChildren(name, ...(mark ? [" ", mark] : []));
  }
  setText(get("game"), gameName(line));
  setText(get("stakes"), stakesText(line.stakes));
  setText(get("seats"), line.seats ? t("lobby.taken_of", { taken: line.taken ?? 0, seats: line.seats }) : "");
  // Figures as the page's language writes them ("51,5" in Estonian, "1 250" in Russian).
  setText(get("waiting"), number(line.waiting ?? 0));
  setText(get("average-pot"), line.average_pot !== undefined ? number(line.average_pot) : "");
  setText(get("hands-per-hour"), line.hands_per_hour !== undefined ? number(line.hands_per_hour) : "");
  const players = Array.isArray(line.players) ? line.players.join(", ") : "";
  const bots = line.bots ? ` (${t("lobby.bots_n", { count: line.bots })})` : "";
  const cellText = players ? players + bots : bots.trim() || t("lobby.none");
  const who = get("players");
  if (who.textContent !== cellText) {
    // Each name whole on its line (a guest's "guest-9e4fca5" never broken at its hyphen): the
    // lines break between names only.
    const names = Array.isArray(line.players) ? line.players : [];
    const parts = names.flatMap((n, i) => [i ? ", " : null, el("span", { class: "player", text: n })]).filter(Boolean);
    who.replaceChildren(...(names.length ? [...parts, bots] : [cellText]));
  }
  const join = tr.querySelector("[data-testid=join]");
  const watch = tr.querySelector("[data-testid=watch]");
  join.setAttribute("aria-label", t("lobby.join_named", { name }));
  watch.setAttribute("aria-label", t("lobby.watch_named", { name }));
}

function showTables(lines) {
  lastLines = lines;
  tablesAnswered = true;
  fillFilters(lines);
  const body = $("table-rows");
  const seen = new Set();
  let visible = 0;
  for (const line of lines) {
    seen.add(line.id);
    let tr = rows.get(line.id);
    if (!tr) {
      tr = newRow(line);
      rows.set(line.id, tr);
    }
    fillRow(tr, line);
    tr.hidden = !shown(line);
    if (!tr.hidden) visible += 1;
    if (tr.parentNode !== body) body.append(tr);
  }
  for (const [id, tr] of rows) {
    if (!seen.has(id)) {
      tr.remove();
      rows.delete(id);
    }
  }
  // In the server's order (by table id) without moving rows that are already in place.
  lines.forEach((line, i) => {
    const tr = rows.get(line.id);
    if (body.children[i] !== tr) body.insertBefore(tr, body.children[i] || null);
  });
  const total = lines.length;
  setText($("tables-status"), total === 0
    ? t(account !== null && !mayOpenTables() ? "lobby.no_tables_house" : "lobby.no_tables")
    : visible === total
      ? t("lobby.tables_n", { count: total })
      : t("lobby.showing", { visible, count: total }));
  $("tables").hidden = total === 0;
}

async function refreshTables() {
  try {
    const lines = await api("/api/lobby");
    setText($("tables-error"), "");
    showTables(Array.isArray(lines) ? lines : []);
    // A count the tests wait on (a refresh done), rather than on time.
    document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
  } catch (error) {
    setText($("tables-error"), t("lobby.tables_error", { why: error.message }));
  }
}

function wireFilters() {
  for (const id of ["filter-game", "filter-stakes", "filter-free"]) {
    $(id).addEventListener("change", () => showTables(lastLines));
  }
  $("filters").addEventListener("submit", (event) => event.preventDefault());
}

// ------------------------------------------------------------------ opening a table

function fillBots() {
  // How many bots may come: up to one fewer than the seats, so that there is room to sit.
  const select = $("create-bots");
  const seats = Number($("create-seats").value);
  const before = Number(select.value || 0);
  select.replaceChildren(...Array.from({ length: seats }, (_, n) => el("option", { value: n, text: String(n) })));
  select.value = String(Math.min(before, seats - 1));
}

function wireCreate() {
  fillBots();
  $("create-seats").addEventListener("change", fillBots);
  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    const form = event.target;
    const button = form.querySelector("button[type=submit]");
    const body = {
      name: $("create-name").value.trim(),
      game: $("create-game").value,
      stakes: $("create-stakes").value.split("/").map(Number),
      seats: Number($("create-seats").value),
      bots: Number($("create-bots").value),
      bot: $("create-bot").value,
      private: $("create-private").checked,
      ask_to_join: $("create-private").checked && $("create-ask").checked,
    };
    button.disabled = true;
    try {
      const made = await api("/api/tables", { method: "POST", body });
      if (made.invite) (await import("/web/table_host.js")).rememberInvite(made.id, made.invite);
      // Another process of the card room may serve the new table: its address comes back.
      const base = made.server && made.server !== window.location.origin ? made.server : "";
      window.location.assign(`${base}/table/${made.id}`);
    } catch (error) {
      $("create-error").textContent = error.message;
      button.disabled = false;
    }
  });
}

// ------------------------------------------------------------------ play now

/** One click to a seat: a guest account when signed out; a table of the main game with a
 *  free seat, nobody waiting and this server dealing it (the fullest first: people play
 *  sooner there), sat at by the table page (?sit=1); else one of the house's tables of any
 *  game with a free seat; else a new Stud Hi/Lo table with four bots that seats the player in
 *  the request that opens it, so the first hand is theirs. */
function wirePlayNow() {
  $("play-now").addEventListener("click", async () => {
    clearErrors();
    const button = $("play-now");
    button.disabled = true;
    try {
      if (!account) setAccount(await api("/api/guest", { method: "POST" }));
      const here = window.location.origin;
      const main = (await games())[0]; // the room's main game (Stud Hi/Lo), as the server says
      const open = lastLines
        .filter((line) => line.taken < line.seats && !line.waiting
          && (line.players || []).indexOf(account.name) < 0 && (!line.server || line.server === here))
        .sort((a, b) => (b.taken - b.bots) - (a.taken - a.bots) || b.taken - a.taken);
      const free = open.find((line) => line.game === main.code) || open.find((line) => line.house);
      if (free) {
        window.location.assign(`/table/${free.id}?sit=1`);
        return;
      }
      const made = await api("/api/tables", {
        method: "POST",
        // No name: the pages call it "Table 12" in each reader's language (a name written here
        // was one language's, "guest-cb05's table", for every reader).
        body: { game: main.code, stakes: [1, 2, 5, 10], seats: 6, bots: 4, bot: "rule", sit: true },
      });
      window.location.assign(made.seat ? `/table/${made.id}` : `/table/${made.id}?sit=1`);
    } catch (error) {
      $("play-now-error").textContent = error.message;
      button.disabled = false;
    }
  });
}

/** One click to the house's sit-and-go always registering (sit_and_go.js). */
function wirePlaySitAndGo() {
  $("play-sng").addEventListener("click", async () => {
    clearErrors();
    const button = $("play-sng");
    button.disabled = true;
    try {
      await playHouseSitAndGo();
    } catch (error) {
      $("play-now-error").textContent = error.message;
      button.disabled = false;
    }
  });
}

// ------------------------------------------------------------------ start

async function start() {
  translatePage();
  applySettings();
  $("settings").append(settingsControls());
  $("account-title").setAttribute("tabindex", "-1"); // focus lands here after signing in
  wireAccount();
  wireFilters();
  wireCreate();
  wirePlayNow();
  wirePlaySitAndGo();
  await Promise.all([fillGameSelect($("filter-game")), fillGameSelect($("create-game"))]);
  try {
    roomFacts = await api("/api/room");
  } catch {
    // (unanswered: the form stays, and the server refuses a table it does not allow, saying why)
  }
  try {
    setAccount(await me());
  } catch (error) {
    setAccount(null);
    $("guest-error").textContent = t("lobby.no_answer", { why: error.message });
  }
  await Promise.all([refreshTables(), refreshHands()]);
  setInterval(refreshTables, TABLES_EVERY_MS);
  setInterval(async () => {
    if (!account) return;
    try {
      const now = await me();
      if (now === null || now.id !== account.id || now.balance !== account.balance) setAccount(now);
    } catch {
      return; // the next round tries again
    }
    await refreshHands();
  }, ACCOUNT_EVERY_MS);
  document.body.dataset.ready = "1"; // the tests wait for this
}

start();
