// The console's accounts (docs/operators.md, "Accounts"): find an account by name, see what the
// room knows of it (balance, sessions, seats, chip moves, finished hands, tournaments: never a
// card of a hand in progress), and act on it: move chips, suspend, ban, lift, grant or revoke
// the role, rename, make a one-time password-reset link; and prune the guests nobody uses.
// Every action goes to /api/admin/ with a written reason, which the event log keeps.
import { chips, el } from "/web/common.js";
import { dateTime, t } from "/web/i18n.js";

const enc = encodeURIComponent;

/** A table of `rows` under the column headings of `keys` (`cells(row)` gives each row's). */
function listing(testid, keys, rows, cells) {
  if (!rows.length) return el("p", { "data-testid": testid, text: t("admin.accounts.none") });
  return el("div", { class: "scroll", tabindex: "0" },
    el("table", { "data-testid": testid },
      el("thead", {}, el("tr", {}, ...keys.map((key) => el("th", { scope: "col", text: t(key) })))),
      el("tbody", {}, ...rows.map((row) => el("tr", {}, ...cells(row).map((cell) => el("td", {}, cell)))))));
}

/** What the account's state is, in words: a guest, an operator, suspended until when, banned. */
function state(account) {
  const words = [];
  if (account.guest) words.push(t("admin.accounts.guest"));
  if (account.role === "operator") words.push(t("admin.accounts.operator"));
  const held = account.suspended;
  if (held) {
    words.push(held.until === null ? t("admin.accounts.banned")
      : t("admin.accounts.suspended_until", { date: dateTime(held.until) }));
  }
  return words.join(", ") || t("admin.accounts.player");
}

/** A labelled input (its label above it, as every console form has them). */
function field(key, attrs) {
  const input = el("input", attrs);
  return [el("label", {}, el("span", { text: t(key) }), input), input];
}

export async function mount(panel, { adminApi }) {
  const problem = el("p", { class: "error", role: "alert", "data-testid": "accounts-problem" });
  const said = el("p", { role: "status", "data-testid": "accounts-said" });
  const [queryLabel, query] = field("admin.accounts.search_label", {
    type: "search", maxlength: "40", "data-testid": "accounts-query", autocomplete: "off",
  });
  const found = el("div", { "data-testid": "accounts-found" });
  const detail = el("div", { "data-testid": "account-detail" });

  /** Run one call, saying its problem (the server's own sentence) or `done`'s words. */
  async function act(call, done) {
    problem.textContent = "";
    said.textContent = "";
    try {
      const answer = await call();
      said.textContent = done(answer);
      return answer;
    } catch (error) {
      problem.textContent = error.message;
      return null;
    }
  }

  async function search(event) {
    event?.preventDefault();
    const rows = await act(() => adminApi(`/api/admin/accounts?q=${enc(query.value)}`), () => "");
    if (rows === null) return;
    found.replaceChildren(rows.length ? listing("accounts-list",
      ["admin.accounts.col_name", "admin.accounts.col_balance", "admin.accounts.col_state"], rows,
      (row) => [
        el("button", { type: "button", class: "link", text: row.name, "data-testid": "account-open",
          onclick: () => open(row.name) }),
        chips(row.balance), state(row),
      ]) : el("p", { text: t("admin.accounts.none_found") }));
  }

  /** Show account `name`; `after` an action, what the action said stays said. */
  async function open(name, after = false) {
    const look = () => adminApi(`/api/admin/accounts/${enc(name)}`);
    let account = null;
    if (after) {
      try {
        account = await look();
      } catch (error) {
        problem.textContent = error.message;
      }
    } else {
      account = await act(look, () => "");
    }
    if (account !== null) draw(account);
  }

  function draw(account) {
    const name = account.name;
    const path = `/api/admin/accounts/${enc(name)}`;
    const [reasonLabel, reason] = field("admin.accounts.reason", {
      type: "text", maxlength: "500", "data-testid": "account-reason", size: "30",
    });
    const why = () => reason.value;
    const post = (suffix, body, words) => act(() => adminApi(`${path}/${suffix}`, { method: "POST", body }), words)
      .then(async (answer) => { if (answer !== null) await open(answer.name ?? name, true); return answer; });

    const [amountLabel, amount] = field("admin.accounts.amount", { type: "number", step: "1", "data-testid": "chips-amount" });
    const [daysLabel, days] = field("admin.accounts.days", {
      type: "number", min: "0.01", max: "3650", step: "any", value: "7", "data-testid": "suspend-days",
    });
    const [newNameLabel, newName] = field("admin.accounts.new_name", { type: "text", maxlength: "40", "data-testid": "rename-to" });
    const link = el("input", { type: "text", readonly: true, hidden: true, "data-testid": "reset-link", size: "40",
      "aria-label": t("admin.accounts.reset") });
    const button = (key, testid, onclick) => el("button", { type: "button", text: t(key), "data-testid": testid, onclick });

    const actions = el("div", { class: "account-actions" },
      el("div", { class: "row" }, reasonLabel),
      el("div", { class: "row" }, amountLabel,
        button("admin.accounts.move_chips", "chips-move", () => post("chips", { amount: Number(amount.value), reason: why() },
          (a) => t("admin.accounts.balance_now", { name, balance: chips(a.balance) })))),
      el("div", { class: "row" }, daysLabel,
        button("admin.accounts.suspend", "account-suspend", () => post("suspend", { days: Number(days.value), reason: why() },
          (a) => t("admin.accounts.suspended_done", { name, date: dateTime(a.until) }))),
        button("admin.accounts.ban", "account-ban", () => post("suspend", { reason: why() },
          () => t("admin.accounts.banned_done", { name }))),
        button("admin.accounts.lift", "account-lift", () => post("lift", { reason: why() },
          () => t("admin.accounts.lifted", { name })))),
      el("div", { class: "row" }, newNameLabel,
        button("admin.accounts.rename", "account-rename", () => post("rename", { new_name: newName.value, reason: why() },
          (a) => t("admin.accounts.renamed", { old: name, name: a.name })))),
      el("div", { class: "row" },
        account.guest ? null : button("admin.accounts.reset", "account-reset", async () => {
          const made = await act(() => adminApi(`${path}/reset-link`, { method: "POST", body: { reason: why() } }),
            (a) => t("admin.accounts.reset_made", { date: dateTime(a.expires_at) }));
          if (made === null) return;
          link.value = new URL(made.link, location.origin).href;
          link.hidden = false;
          link.select();
        }),
        account.guest ? null : button(account.role === "operator" ? "admin.accounts.make_player" : "admin.accounts.make_operator",
          "account-role", () => post("role", { role: account.role === "operator" ? "player" : "operator" },
            (a) => t(a.role === "operator" ? "admin.accounts.is_operator" : "admin.accounts.is_player", { name })))),
      link);

    const when = (seconds) => (seconds ? dateTime(seconds) : "");
    detail.replaceChildren(
      el("h3", { "data-testid": "account-name", text: name }),
      el("dl", { class: "facts" },
        el("dt", { text: t("admin.accounts.col_balance") }), el("dd", { "data-testid": "account-balance", text: chips(account.balance) }),
        el("dt", { text: t("admin.accounts.col_state") }), el("dd", { "data-testid": "account-state", text: state(account) }),
        account.suspended ? el("dt", { text: t("admin.accounts.why") }) : null,
        account.suspended ? el("dd", { "data-testid": "account-why", text: account.suspended.reason }) : null,
        el("dt", { text: t("admin.accounts.made") }), el("dd", { text: when(account.created_at) })),
      actions,
      el("h4", { text: t("admin.accounts.seats") }),
      listing("account-seats", ["admin.accounts.table", "admin.accounts.seat", "admin.accounts.stack"], account.seats,
        (s) => [el("a", { href: `/table/${s.table}`, text: String(s.table) }), String(s.seat), chips(s.stack)]),
      el("h4", { text: t("admin.accounts.sessions") }),
      listing("account-sessions", ["admin.accounts.signed_in", "admin.accounts.last_used", "admin.accounts.ends"], account.logins,
        (s) => [when(s.created_at), when(s.last_seen_at), when(s.expires_at)]),
      el("h4", { text: t("admin.accounts.moves") }),
      listing("account-moves", ["admin.accounts.when", "admin.accounts.what", "admin.accounts.chips"], account.chip_moves,
        (m) => [when(m.at), m.reason, chips(m.amount)]),
      el("h4", { text: t("admin.accounts.hands") }),
      listing("account-hands", ["admin.accounts.when", "admin.accounts.table", "admin.accounts.hand"], account.hands,
        (h) => [when(h.started_at), String(h.table), String(h.number)]),
      el("h4", { text: t("admin.accounts.tournaments") }),
      listing("account-tournaments",
        ["admin.accounts.tournament", "admin.accounts.col_state", "admin.accounts.paid", "admin.accounts.place", "admin.accounts.prize"],
        account.tournaments,
        (e) => [el("a", { href: `/tournament/${e.id}`, text: e.name }), e.state, chips(e.paid), e.place ?? "", chips(e.prize)]));
  }

  const [pruneLabel, pruneDays] = field("admin.accounts.prune_days", {
    type: "number", min: "1", max: "3650", step: "1", value: "30", "data-testid": "prune-days",
  });
  const prune = el("form", { class: "prune", "data-testid": "prune-form", onsubmit: (event) => {
    event.preventDefault();
    act(() => adminApi("/api/admin/guests/prune", { method: "POST", body: { unused_days: Number(pruneDays.value) } }),
      (a) => t("admin.accounts.pruned", { count: a.guests, chips: chips(a.chips) }));
  } }, pruneLabel, el("button", { type: "submit", text: t("admin.accounts.prune"), "data-testid": "prune-guests" }));

  panel.append(
    el("form", { role: "search", "data-testid": "accounts-search", onsubmit: search }, queryLabel,
      el("button", { type: "submit", text: t("admin.accounts.search"), "data-testid": "accounts-find" })),
    problem, said, found, detail,
    el("h3", { text: t("admin.accounts.prune_heading") }),
    el("p", { class: "hint", text: t("admin.accounts.prune_hint") }), prune);
}
