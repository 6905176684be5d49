// The console's tournaments (docs/operators.md, "Tournaments"): the tournaments with pause,
// resume, cancel and an announcement to their tables; the templates the house makes them of;
// and the schedule (daily at a time in a time zone, every N hours, a sit-and-go always
// registering). Every change goes through /api/admin/ and into the event log; the server
// checks everything and its refusal is shown as it says it.
import { el } from "/web/common.js";
import { t } from "/web/i18n.js";

const BASES = ["sng-heads-up", "sng-6", "sng-8", "mtt-standard", "mtt-turbo"];
const GAMES = ["stud8", "stud", "razz"];
const BOTS = ["rule", "tight", "station", "random", "equity"];
const KINDS = ["daily", "every", "always"];
const LIVE = "registering,running,break";

/** A labelled field of a form. */
function field(label, input) {
  return el("label", { class: "field" }, el("span", { text: label }), input);
}

function select(name, values, said, chosen) {
  return el("select", { name, "data-testid": `tt-${name}` },
    ...values.map((v) => el("option", { value: v, text: said(v), selected: v === chosen })));
}

function number(name, value, attrs = {}) {
  return el("input", { type: "number", name, value: String(value), "data-testid": `tt-${name}`, ...attrs });
}

/** When a schedule makes its tournaments, in words. */
function when(schedule) {
  if (schedule.kind === "daily") return t("admin.tournaments.daily_at", { time: schedule.at_time, zone: schedule.zone });
  if (schedule.kind === "every") return t("admin.tournaments.every_hours", { hours: schedule.every_hours });
  return t("admin.tournaments.always");
}

function moment(at) {
  return at ? new Date(at * 1000).toLocaleString() : "";
}

export async function mount(panel, { adminApi }) {
  const problem = el("p", { class: "error", role: "alert", "data-testid": "tt-problem" });
  const running = el("tbody");
  const templates = el("tbody");
  const schedules = el("tbody");
  let known = [];
  let editing = null; // the template being edited (its id), or null: a new one

  /** Runs an action; its refusal is shown, and everything drawn again after it. */
  async function act(call) {
    problem.textContent = "";
    try {
      await call();
    } catch (error) {
      problem.textContent = error.message;
    }
    await load();
  }

  // -- the tournaments

  function tournamentRow(tour) {
    const state = tour.paused ? t("admin.tournaments.paused") : t(`tournaments.state_${tour.state}`);
    const why = el("input", { type: "text", maxlength: "300", "aria-label": t("admin.tournaments.announcement"),
      "data-testid": "tt-announce-text", placeholder: t("admin.tournaments.announcement") });
    const post = (what, body = {}) => act(() => adminApi(`/api/admin/tournaments/${tour.id}/${what}`, { method: "POST", body }));
    const live = tour.state === "running" || tour.state === "break";
    return el("tr", { "data-testid": "tt-tournament", "data-tournament": String(tour.id), "data-state": tour.paused ? "paused" : tour.state },
      el("td", {}, el("a", { href: `/tournament/${tour.id}`, text: `${tour.id}. ${tour.name}` })),
      el("td", { text: state, "data-testid": "tt-state" }),
      el("td", { text: String(tour.registered) }),
      el("td", { text: tour.schedule ? t("admin.tournaments.by_schedule", { schedule: tour.schedule }) : "" }),
      el("td", {},
        live && !tour.paused ? el("button", { type: "button", "data-testid": "tt-pause", text: t("admin.tournaments.pause"), onclick: () => post("pause") }) : null,
        live && tour.paused ? el("button", { type: "button", "data-testid": "tt-resume", text: t("admin.tournaments.resume"), onclick: () => post("resume") }) : null,
        el("button", { type: "button", "data-testid": "tt-cancel", text: t("admin.tournaments.cancel"), onclick: () => {
          if (window.confirm(t("admin.tournaments.cancel_sure", { name: tour.name }))) post("cancel");
        } })),
      el("td", {}, live ? el("span", { class: "announce" }, why,
        el("button", { type: "button", "data-testid": "tt-announce", text: t("admin.tournaments.announce"),
          onclick: () => why.value.trim() && post("announce", { text: why.value.trim() }) })) : null));
  }

  // -- the templates

  const form = el("form", { "data-testid": "tt-template-form" });
  function drawForm(template) {
    const s = template ? template.settings : { template: "sng-6", game: "stud8", buy_in: 100, fee: 10, starting_chips: 1500, bots: 5, bot: "rule", speed: 1, start_in: 600 };
    editing = template ? template.id : null;
    form.replaceChildren(
      field(t("admin.tournaments.name"), el("input", { type: "text", name: "name", required: true, maxlength: "60", value: template ? template.name : "", "data-testid": "tt-name" })),
      field(t("admin.tournaments.base"), select("template", BASES, (b) => t(`admin.tournaments.base_${b.replaceAll("-", "_")}`), s.template)),
      field(t("admin.tournaments.game"), select("game", GAMES, (g) => t(`game.${g}`), s.game)),
      field(t("admin.tournaments.buy_in"), number("buy_in", s.buy_in, { min: "0" })),
      field(t("admin.tournaments.fee"), number("fee", s.fee, { min: "0" })),
      field(t("admin.tournaments.chips"), number("starting_chips", s.starting_chips, { min: "100" })),
      field(t("admin.tournaments.bots"), number("bots", s.bots, { min: "0" })),
      field(t("admin.tournaments.bot"), select("bot", BOTS, (b) => b, s.bot)),
      field(t("admin.tournaments.speed"), number("speed", s.speed, { min: "0.01", step: "any" })),
      field(t("admin.tournaments.start_in"), number("start_in", Math.round(s.start_in / 60), { min: "1" })),
      el("button", { type: "submit", "data-testid": "tt-save-template", text: editing ? t("admin.tournaments.save") : t("admin.tournaments.add_template") }),
      editing ? el("button", { type: "button", text: t("admin.tournaments.new_template"), onclick: () => drawForm(null) }) : null);
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const settings = {
      template: data.get("template"), game: data.get("game"), bot: data.get("bot"),
      buy_in: Number(data.get("buy_in")), fee: Number(data.get("fee")), starting_chips: Number(data.get("starting_chips")),
      bots: Number(data.get("bots")), speed: Number(data.get("speed")), start_in: Number(data.get("start_in")) * 60,
    };
    const body = { name: String(data.get("name")).trim(), settings };
    const id = editing;
    act(async () => {
      await adminApi(id ? `/api/admin/templates/${id}` : "/api/admin/templates", { method: id ? "PUT" : "POST", body });
      drawForm(null);
    });
  });

  function templateRow(template) {
    const s = template.settings;
    return el("tr", { "data-testid": "tt-template-row", "data-template": String(template.id) },
      el("td", { text: template.name }),
      el("td", { text: `${t(`game.${s.game}`)}, ${t(`admin.tournaments.base_${s.template.replaceAll("-", "_")}`)}` }),
      el("td", { text: `${s.buy_in}+${s.fee}` }),
      el("td", { text: String(s.bots) }),
      el("td", {},
        el("button", { type: "button", text: t("admin.tournaments.edit"), onclick: () => drawForm(template) }),
        el("button", { type: "button", "data-testid": "tt-run-now", text: t("admin.tournaments.run_now"),
          onclick: () => act(() => adminApi("/api/admin/tournaments", { method: "POST", body: s })) }),
        el("button", { type: "button", text: t("admin.tournaments.remove"),
          onclick: () => act(() => adminApi(`/api/admin/templates/${template.id}`, { method: "DELETE" })) })));
  }

  // -- the schedule

  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const scheduleForm = el("form", { "data-testid": "tt-schedule-form" });
  function drawScheduleForm() {
    scheduleForm.replaceChildren(
      field(t("admin.tournaments.template"), select("schedule_template", known.map((x) => String(x.id)), (id) => known.find((x) => String(x.id) === id).name)),
      field(t("admin.tournaments.kind"), select("kind", KINDS, (k) => t(`admin.tournaments.kind_${k}`), "daily")),
      field(t("admin.tournaments.at_time"), el("input", { type: "time", name: "at_time", value: "20:00", "data-testid": "tt-at_time" })),
      field(t("admin.tournaments.zone"), el("input", { type: "text", name: "zone", value: zone, maxlength: "60", "data-testid": "tt-zone" })),
      field(t("admin.tournaments.hours"), number("every_hours", 24, { min: "0.25", step: "any" })),
      el("button", { type: "submit", "data-testid": "tt-add-schedule", text: t("admin.tournaments.add_schedule") }));
  }
  scheduleForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(scheduleForm);
    const kind = data.get("kind");
    const body = { template: Number(data.get("schedule_template")), kind };
    if (kind === "daily") Object.assign(body, { at_time: data.get("at_time"), zone: String(data.get("zone")).trim() });
    if (kind === "every") body.every_hours = Number(data.get("every_hours"));
    act(() => adminApi("/api/admin/schedules", { method: "POST", body }));
  });

  function scheduleRow(schedule) {
    const flip = { template: schedule.template, kind: schedule.kind, at_time: schedule.at_time, zone: schedule.zone,
      every_hours: schedule.every_hours, enabled: !schedule.enabled };
    return el("tr", { "data-testid": "tt-schedule", "data-schedule": String(schedule.id) },
      el("td", { text: schedule.template_name }),
      el("td", { text: when(schedule) }),
      el("td", { text: schedule.kind === "always" ? "" : moment(schedule.next_at) }),
      el("td", {}, schedule.tournament ? el("a", { href: `/tournament/${schedule.tournament}`, text: String(schedule.tournament) }) : null),
      el("td", { text: schedule.enabled ? t("admin.tournaments.on") : t("admin.tournaments.off") }),
      el("td", {},
        el("button", { type: "button", text: schedule.enabled ? t("admin.tournaments.turn_off") : t("admin.tournaments.turn_on"),
          onclick: () => act(() => adminApi(`/api/admin/schedules/${schedule.id}`, { method: "PUT", body: flip })) }),
        el("button", { type: "button", text: t("admin.tournaments.remove"),
          onclick: () => act(() => adminApi(`/api/admin/schedules/${schedule.id}`, { method: "DELETE" })) })));
  }

  function head(...keys) {
    return el("thead", {}, el("tr", {}, ...keys.map((k) => el("th", { scope: "col", text: k ? t(k) : "" }))));
  }

  async function load() {
    try {
      const [tours, temps, scheds] = await Promise.all([
        adminApi(`/api/admin/tournaments?state=${LIVE}`),
        adminApi("/api/admin/templates"),
        adminApi("/api/admin/schedules"),
      ]);
      const fresh = JSON.stringify(temps.map((x) => [x.id, x.name])) !== JSON.stringify(known.map((x) => [x.id, x.name]));
      known = temps;
      running.replaceChildren(...tours.map(tournamentRow));
      templates.replaceChildren(...temps.map(templateRow));
      schedules.replaceChildren(...scheds.map(scheduleRow));
      if (fresh) drawScheduleForm();
    } catch (error) {
      problem.textContent = error.message;
    }
  }

  drawForm(null);
  panel.append(
    problem,
    el("h2", { text: t("admin.tournaments.live") }),
    el("button", { type: "button", "data-testid": "tt-refresh", text: t("admin.tournaments.refresh"), onclick: load }),
    el("table", { "data-testid": "tt-tournaments" },
      head("admin.tournaments.tournament", "admin.tournaments.state", "admin.tournaments.entrants", "admin.tournaments.made_by", "", ""),
      running),
    el("h2", { text: t("admin.tournaments.templates") }),
    el("table", {}, head("admin.tournaments.name", "admin.tournaments.game", "admin.tournaments.buy_in", "admin.tournaments.bots", ""), templates),
    form,
    el("h2", { text: t("admin.tournaments.schedules") }),
    el("table", {}, head("admin.tournaments.template", "admin.tournaments.when", "admin.tournaments.next", "admin.tournaments.last", "admin.tournaments.state", ""), schedules),
    scheduleForm);
  // Drawn again after each action and by the refresh button (not on a timer: a timer would
  // wipe an announcement being typed).
  await load();
}
