// The console's API tokens (docs/operators.md, "API tokens"): make a token for a website or a
// script (a label, the scopes it may use), shown once, when it is made (the server keeps only
// its hash); list them, live and revoked; revoke one. Only an operator's own session does this.
import { el } from "/web/common.js";
import { dateTime, t } from "/web/i18n.js";

export async function mount(panel, { adminApi }) {
  const problem = el("p", { class: "error", role: "alert", "data-testid": "tokens-problem" });
  const said = el("p", { role: "status", "data-testid": "tokens-said" });
  const shown = el("input", { type: "text", readonly: true, hidden: true, size: "48", "data-testid": "token-shown",
    "aria-label": t("admin.tokens.shown_once") });
  const label = el("input", { type: "text", maxlength: "60", required: true, "data-testid": "token-label" });
  const boxes = el("fieldset", { class: "scopes", "data-testid": "token-scopes" },
    el("legend", { text: t("admin.tokens.scopes") }));
  const scopes = await adminApi("/api/admin/scopes");
  for (const scope of Object.keys(scopes)) {
    const key = `admin.tokens.scope_${scope.replace(":", "_")}`;
    boxes.append(el("label", { class: "scope" },
      el("input", { type: "checkbox", value: scope, "data-testid": `scope-${scope}` }),
      el("code", { text: scope }), " ", el("span", { text: t(key) })));
  }
  const body = el("tbody", { "data-testid": "tokens-lines" });

  async function list() {
    const rows = await adminApi("/api/admin/tokens");
    const when = (seconds) => (seconds ? dateTime(seconds) : "");
    body.replaceChildren(...rows.map((row) => el("tr", { "data-testid": "token-line" },
      el("td", { text: String(row.id) }), el("td", { text: row.label }), el("td", { class: "long", text: row.scopes.join(", ") }),
      el("td", { text: row.made_by }), el("td", { text: when(row.created_at) }), el("td", { text: when(row.last_used_at) }),
      el("td", {}, row.revoked_at
        ? t("admin.tokens.revoked_at", { date: dateTime(row.revoked_at) })
        : el("button", { type: "button", text: t("admin.tokens.revoke"), "data-testid": "token-revoke",
          onclick: () => revoke(row) })))));
  }

  async function revoke(row) {
    problem.textContent = "";
    try {
      await adminApi(`/api/admin/tokens/${row.id}/revoke`, { method: "POST" });
      said.textContent = t("admin.tokens.revoked", { label: row.label });
      await list();
    } catch (error) {
      problem.textContent = error.message;
    }
  }

  const form = el("form", { class: "stacked", "data-testid": "token-form", onsubmit: async (event) => {
    event.preventDefault();
    problem.textContent = "";
    said.textContent = "";
    const chosen = [...boxes.querySelectorAll("input:checked")].map((box) => box.value);
    try {
      const made = await adminApi("/api/admin/tokens", { method: "POST", body: { label: label.value, scopes: chosen } });
      said.textContent = t("admin.tokens.shown_once");
      shown.value = made.token;
      shown.hidden = false;
      shown.select();
      await list();
    } catch (error) {
      problem.textContent = error.message;
    }
  } },
  el("label", {}, el("span", { text: t("admin.tokens.label") }), label), boxes,
  el("button", { type: "submit", text: t("admin.tokens.make"), "data-testid": "token-make" }));

  const columns = ["id", "label", "scopes", "made_by", "made", "last_used", "state"];
  panel.append(form, problem, said, shown,
    el("div", { class: "scroll", tabindex: "0" }, el("table", { "data-testid": "tokens-table" },
      el("thead", {}, el("tr", {}, ...columns.map((c) => el("th", { scope: "col", text: t(`admin.tokens.col_${c}`) })))),
      body)));
  await list();
}
