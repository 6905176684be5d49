// The console's event log (docs/operators.md, "The event log"): every operator action (who,
// what, to whom, when, why), newest first, a page at a time, filtered by action, operator and
// the account acted on. The log is only ever added to: this part only reads it.
import { el } from "/web/common.js";
import { dateTime, t } from "/web/i18n.js";

/** Lines a page. */
export const PAGE = 50;

/** An action's detail ({amount: 250, balance: 1250}) as one short line. */
function detailLine(detail) {
  return Object.entries(detail || {})
    .map(([key, value]) => `${key}: ${typeof value === "object" && value !== null ? JSON.stringify(value) : value}`)
    .join(", ");
}

export async function mount(panel, { adminApi }) {
  const problem = el("p", { class: "error", role: "alert", "data-testid": "events-problem" });
  const inputs = {};
  const filter = el("form", { "data-testid": "events-filter" });
  for (const name of ["action", "operator", "target"]) {
    inputs[name] = el("input", { type: "text", maxlength: "60", "data-testid": `events-${name}`, autocomplete: "off" });
    filter.append(el("label", {}, el("span", { text: t(`admin.events.${name}`) }), inputs[name]));
  }
  filter.append(el("button", { type: "submit", text: t("admin.events.show"), "data-testid": "events-show" }));
  const body = el("tbody", { "data-testid": "events-lines" });
  const columns = ["when", "operator", "action", "target", "reason", "detail"];
  const older = el("button", { type: "button", text: t("admin.events.older"), "data-testid": "events-older", hidden: true });
  const newest = el("button", { type: "button", text: t("admin.events.newest"), "data-testid": "events-newest", hidden: true });
  const empty = el("p", { text: t("admin.events.none"), hidden: true, "data-testid": "events-none" });
  let before = null; // the oldest line shown: the next page is older than it

  async function load(fromNewest) {
    problem.textContent = "";
    const query = new URLSearchParams({ limit: String(PAGE) });
    for (const [name, input] of Object.entries(inputs)) {
      if (input.value.trim()) query.set(name, input.value.trim());
    }
    if (!fromNewest && before !== null) query.set("before", String(before));
    let lines;
    try {
      lines = await adminApi(`/api/admin/events?${query}`);
    } catch (error) {
      problem.textContent = error.message;
      return;
    }
    if (fromNewest) body.replaceChildren();
    for (const line of lines) {
      body.append(el("tr", { "data-testid": "event-line", "data-action": line.action },
        el("td", { text: dateTime(line.at) }), el("td", { text: line.operator }), el("td", { text: line.action }),
        el("td", { text: line.target ?? "" }), el("td", { class: "long", text: line.reason }), el("td", { class: "long", text: detailLine(line.detail) })));
    }
    if (lines.length) before = lines[lines.length - 1].id;
    older.hidden = lines.length < PAGE;
    newest.hidden = fromNewest;
    empty.hidden = body.childElementCount > 0;
  }

  filter.addEventListener("submit", (event) => { event.preventDefault(); before = null; load(true); });
  older.addEventListener("click", () => load(false));
  newest.addEventListener("click", () => { before = null; load(true); });
  panel.append(filter, problem,
    el("div", { class: "scroll", tabindex: "0" }, el("table", { "data-testid": "events-table" },
      el("thead", {}, el("tr", {}, ...columns.map((c) => el("th", { scope: "col", text: t(`admin.events.col_${c}`) })))),
      body)),
    empty, el("div", { class: "row" }, newest, older));
  await load(true);
}
