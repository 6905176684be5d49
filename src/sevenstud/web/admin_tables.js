// The console's "House tables" part (/admin#tables): the house's standing tables, listed with
// who sits at each and the hands dealt there, made, edited and closed; and the room's setting
// whether players open tables of their own. The server decides everything (/api/admin/tables,
// /api/admin/settings: docs/operators.md, "The house's tables"); this only asks and shows.
import { api, el, fillGameSelect, stakesName } from "/web/common.js";
import { gameName, t } from "/web/i18n.js";

/** The bot kinds an operator may seat (as the lobby's form offers them). */
const BOT_KINDS = ["rule", "random", "station", "tight", "equity", "learned"];
const REFRESH_MS = 3000;

function field(id, label, input, hint) {
  return el("div", { class: "field" },
    el("label", { for: id, text: label }), input, hint ? el("small", { class: "hint", text: hint }) : null);
}

function numberInput(id, attrs = {}) {
  return el("input", { id, type: "number", inputmode: "numeric", "data-testid": id, ...attrs });
}

function select(id, options) {
  return el("select", { id, "data-testid": id },
    ...options.map(([value, label]) => el("option", { value, text: label })));
}

export async function mount(panel, { adminApi }) {
  let editing = null; // the definition being edited (null: the form makes a new one)

  // ---------------------------------------------------------------- the room's setting
  const openBox = el("input", { type: "checkbox", id: "house-players-open", "data-testid": "players-open" });
  const settingSaid = el("p", { class: "hint", role: "status", "data-testid": "setting-said" });
  const settingBox = el("fieldset", { class: "house-setting", "data-testid": "house-setting" },
    el("legend", { text: t("admin.tables.setting_legend") }),
    el("label", { for: "house-players-open" }, openBox, " ", t("admin.tables.players_open")),
    el("p", { class: "hint", text: t("admin.tables.players_open_hint") }), settingSaid);
  openBox.addEventListener("change", async () => {
    settingSaid.textContent = "";
    try {
      const now = await adminApi("/api/admin/settings", { method: "POST", body: { players_open_tables: openBox.checked } });
      openBox.checked = now.players_open_tables;
      settingSaid.textContent = t("admin.tables.saved");
    } catch (error) {
      settingSaid.textContent = error.message;
    }
  });

  // ---------------------------------------------------------------- the form
  const gameSelect = el("select", { id: "house-game", "data-testid": "house-game" });
  const inputs = {
    name: el("input", { id: "house-name", maxlength: "80", required: true, "data-testid": "house-name" }),
    game: gameSelect,
    stakes: el("input", { id: "house-stakes", value: "1/2/5/10", pattern: "\\d+/\\d+/\\d+/\\d+", required: true, "data-testid": "house-stakes" }),
    seats: select("house-seats", [2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), String(n)])),
    bots: numberInput("house-bots", { min: "0", max: "7", value: "0" }),
    bot: select("house-bot", BOT_KINDS.map((kind) => [kind, t(`bot.${kind}`)])),
    min_buy_in: numberInput("house-min", { min: "1" }),
    max_buy_in: numberInput("house-max", { min: "1" }),
    rake_percent: numberInput("house-rake", { min: "0", max: "99.99", step: "0.01", value: "0", inputmode: "decimal" }),
    rake_cap: numberInput("house-cap", { min: "0", value: "0" }),
  };
  inputs.seats.value = "6";
  const title = el("h3", { "data-testid": "house-form-title", text: t("admin.tables.new_title") });
  const note = el("p", { class: "hint", hidden: true, text: t("admin.tables.edit_note") });
  const submit = el("button", { type: "submit", class: "primary", "data-testid": "house-submit", text: t("admin.tables.create") });
  const cancel = el("button", { type: "button", hidden: true, "data-testid": "house-cancel", text: t("admin.tables.cancel") });
  const problem = el("p", { class: "error", role: "alert", "data-testid": "house-error" });
  const form = el("form", { class: "house-form", "data-testid": "house-form" },
    field("house-name", t("lobby.name"), inputs.name),
    field("house-game", t("lobby.game"), inputs.game),
    field("house-stakes", t("lobby.stakes"), inputs.stakes, t("lobby.stakes_hint")),
    field("house-seats", t("lobby.seats"), inputs.seats),
    field("house-bots", t("lobby.bots"), inputs.bots),
    field("house-bot", t("lobby.which_bots"), inputs.bot),
    field("house-min", t("admin.tables.min_buy_in"), inputs.min_buy_in, t("admin.tables.buy_in_hint")),
    field("house-max", t("admin.tables.max_buy_in"), inputs.max_buy_in),
    field("house-rake", t("admin.tables.rake"), inputs.rake_percent),
    field("house-cap", t("admin.tables.rake_cap"), inputs.rake_cap, t("admin.tables.rake_cap_hint")),
    el("div", { class: "buttons" }, submit, cancel));

  function body() {
    const given = {
      name: inputs.name.value.trim(),
      game: inputs.game.value,
      stakes: inputs.stakes.value.split("/").map(Number),
      seats: Number(inputs.seats.value),
      bots: Number(inputs.bots.value || 0),
      bot: inputs.bot.value,
      rake_percent: Number(inputs.rake_percent.value || 0),
      rake_cap: Number(inputs.rake_cap.value || 0),
    };
    // Empty buy-in limits: the server's defaults for the stakes.
    if (inputs.min_buy_in.value !== "") given.min_buy_in = Number(inputs.min_buy_in.value);
    if (inputs.max_buy_in.value !== "") given.max_buy_in = Number(inputs.max_buy_in.value);
    return given;
  }

  function startEditing(house) {
    editing = house;
    inputs.name.value = house.name;
    inputs.game.value = house.game;
    inputs.stakes.value = stakesName(house.stakes);
    inputs.seats.value = String(house.seats);
    inputs.bots.value = String(house.bots);
    inputs.bot.value = house.bot;
    inputs.min_buy_in.value = String(house.min_buy_in);
    inputs.max_buy_in.value = String(house.max_buy_in);
    inputs.rake_percent.value = String(house.rake_percent);
    inputs.rake_cap.value = String(house.rake_cap);
    title.textContent = t("admin.tables.edit_title", { name: house.name });
    submit.textContent = t("admin.tables.save");
    note.hidden = false;
    cancel.hidden = false;
    problem.textContent = "";
    form.scrollIntoView({ block: "nearest" });
    inputs.name.focus();
  }

  function stopEditing() {
    editing = null;
    form.reset();
    inputs.seats.value = "6";
    title.textContent = t("admin.tables.new_title");
    submit.textContent = t("admin.tables.create");
    note.hidden = true;
    cancel.hidden = true;
  }
  cancel.addEventListener("click", stopEditing);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    submit.disabled = true;
    try {
      if (editing) {
        // Only what changed is sent: the buy-in limits follow new stakes unless given anew.
        const given = body();
        const changed = {};
        for (const [key, value] of Object.entries(given)) {
          const before = key === "stakes" ? stakesName(editing.stakes) : editing[key];
          const now = key === "stakes" ? stakesName(value) : value;
          if (before !== now) changed[key] = value;
        }
        const newStakes = changed.stakes || changed.game;
        if (newStakes && !("min_buy_in" in changed)) delete changed.min_buy_in;
        if (newStakes && !("max_buy_in" in changed)) delete changed.max_buy_in;
        await adminApi(`/api/admin/tables/${editing.id}`, { method: "POST", body: changed });
      } else {
        await adminApi("/api/admin/tables", { method: "POST", body: body() });
      }
      stopEditing();
      await refresh();
    } catch (error) {
      problem.textContent = error.message;
    } finally {
      submit.disabled = false;
    }
  });

  // ---------------------------------------------------------------- the list
  const status = el("p", { class: "hint", role: "status", "data-testid": "house-status" });
  const list = el("ul", { class: "house-list", "data-testid": "house-list" });

  function fact(label, value, testid) {
    return el("div", { class: "fact" }, el("dt", { text: label }), el("dd", { "data-testid": testid, text: value }));
  }

  function closeControls(house) {
    const reasonId = `close-reason-${house.id}`;
    const reason = el("input", { id: reasonId, maxlength: "500", "data-testid": "close-reason" });
    const confirm = el("button", { type: "submit", class: "danger", "data-testid": "close-confirm", text: t("admin.tables.close_confirm") });
    const said = el("p", { class: "error", role: "alert" });
    const box = el("form", { class: "close-form", hidden: true, "data-testid": "close-form" },
      el("label", { for: reasonId, text: t("admin.tables.close_reason") }), reason, confirm, said);
    box.addEventListener("submit", async (event) => {
      event.preventDefault();
      confirm.disabled = true;
      try {
        await adminApi(`/api/admin/tables/${house.id}/close`, { method: "POST", body: { reason: reason.value.trim() } });
        await refresh();
      } catch (error) {
        said.textContent = error.message;
        confirm.disabled = false;
      }
    });
    return box;
  }

  function card(house) {
    const seated = house.players.map((p) => (p.bot ? `${p.name} (${t("admin.tables.bot")})` : p.name));
    const rake = house.rake_percent
      ? t(house.rake_cap ? "admin.tables.rake_capped" : "admin.tables.rake_uncapped", { percent: house.rake_percent, cap: house.rake_cap })
      : t("admin.tables.rake_none");
    const open = house.state === "open";
    const close = open ? closeControls(house) : null;
    const actions = open ? el("div", { class: "buttons" },
      el("button", { type: "button", "data-testid": "house-edit", text: t("admin.tables.edit"), onclick: () => startEditing(house) }),
      el("button", { type: "button", "data-testid": "house-close", text: t("admin.tables.close"),
        onclick: () => { close.hidden = !close.hidden; if (!close.hidden) close.querySelector("input").focus(); } })) : null;
    return el("li", { class: `house-card ${house.state}`, "data-testid": "house-card", "data-house": house.id, "data-state": house.state },
      el("h4", {},
        house.table && open ? el("a", { href: `/table/${house.table}`, "data-testid": "house-title", text: house.name }) : el("span", { text: house.name }),
        " ", el("span", { class: "state", "data-testid": "house-state", text: t(`admin.tables.state_${house.state}`) })),
      el("dl", {},
        fact(t("lobby.game"), gameName(house.game), "house-game-name"),
        fact(t("lobby.stakes"), stakesName(house.stakes), "house-stakes-shown"),
        fact(t("lobby.seats"), String(house.seats), "house-seats-shown"),
        fact(t("admin.tables.buy_in"), `${house.min_buy_in}–${house.max_buy_in}`, "house-buy-in"),
        fact(t("lobby.bots"), `${house.bots} · ${t(`bot.${house.bot}`)}`, "house-bots-shown"),
        fact(t("admin.tables.rake"), rake, "house-rake-shown"),
        fact(t("admin.tables.hands"), String(house.hands), "house-hands"),
        fact(t("admin.tables.seated"), seated.length ? seated.join(", ") : t("admin.tables.nobody"), "house-players")),
      house.edit_waits ? el("p", { class: "hint", "data-testid": "edit-waits", text: t("admin.tables.edit_waits") }) : null,
      actions, close);
  }

  let shownText = "";
  // `ask`: adminApi after an operator's action (a stale sign-in asks for the password); the
  // timer's refresh uses plain api, so that a console left open never prompts by itself.
  async function refresh(ask = adminApi) {
    const [houses, room] = await Promise.all([ask("/api/admin/tables"), ask("/api/admin/settings")]);
    openBox.checked = room.players_open_tables;
    const text = JSON.stringify(houses);
    // Unchanged, or a close form open (its reason half typed): the list stays as it is.
    if (text === shownText || (ask === api && list.querySelector("form.close-form:not([hidden])"))) return;
    shownText = text;
    list.replaceChildren(...houses.map(card));
    status.textContent = houses.length ? "" : t("admin.tables.none");
  }

  panel.append(settingBox, el("h3", { text: t("admin.tables.list_title") }), status, list, title, note, form, problem);
  await fillGameSelect(gameSelect);
  await refresh();
  const timer = setInterval(() => {
    if (panel.hidden || document.hidden) return;
    refresh(api).catch((error) => { status.textContent = error.message; });
  }, REFRESH_MS);
  window.addEventListener("pagehide", () => clearInterval(timer));
}
