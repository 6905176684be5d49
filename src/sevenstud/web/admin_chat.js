// The console's chat part (docs/operators.md, "Chat"): the players' open reports (dismiss one,
// or mute the player who said the line), a player's chat muted for a time and lifted, each
// table's chat log, and the words the room refuses. The server decides and logs everything:
// this only draws its answers and sends the operator's choices.
import { el } from "/web/common.js";
import { dateTime, t } from "/web/i18n.js";

/** The mutes' lengths the console offers, in hours. */
const MUTE_HOURS = [1, 24, 168, 720];

/** A table of `rows` under `heading`s, or `empty` said when there is none. Each cell carries
 *  its column's heading: on a narrow screen each row is drawn as a card (admin_chat.css). */
function listing(testid, headings, rows, empty) {
  if (!rows.length) return el("p", { "data-testid": testid, text: empty });
  for (const row of rows) {
    [...row.children].forEach((cell, i) => cell.setAttribute("data-label", headings[i]));
  }
  return el("table", { "data-testid": testid, class: "cards" },
    el("thead", {}, el("tr", {}, ...headings.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows));
}

/** A status line: what the last action did, or why it was refused. */
function statusLine(testid) {
  return el("p", { role: "status", class: "status", "data-testid": testid });
}

function cells(...values) {
  return values.map((v) => (v instanceof Node ? el("td", {}, v) : el("td", { text: String(v ?? "") })));
}

export async function mount(panel, { adminApi }) {
  document.head.append(el("link", { rel: "stylesheet", href: "/web/admin_chat.css" }));
  panel.classList.add("admin-chat");
  const reportsBox = el("div");
  const reportsStatus = statusLine("admin-chat-reports-status");
  const mutesBox = el("div");
  const muteStatus = statusLine("admin-chat-mute-status");
  const logBox = el("div");
  const logStatus = statusLine("admin-chat-log-status");
  const wordsBox = el("div");
  const wordsStatus = statusLine("admin-chat-words-status");

  // The mute form: filled from a report's "Mute", or by hand.
  const player = el("input", { id: "chat-mute-player", type: "text", required: true, maxlength: "40", autocomplete: "off", "data-testid": "admin-chat-mute-player" });
  const hours = el("select", { id: "chat-mute-hours", "data-testid": "admin-chat-mute-hours" },
    ...MUTE_HOURS.map((h) => el("option", { value: String(h), text: t(`admin.chat.hours_${h}`) })));
  const reason = el("input", { id: "chat-mute-reason", type: "text", required: true, maxlength: "500", autocomplete: "off", "data-testid": "admin-chat-mute-reason" });
  const muteForm = el("form", { "data-testid": "admin-chat-mute-form" },
    el("label", { for: "chat-mute-player", text: t("admin.chat.mute_player") }), player,
    el("label", { for: "chat-mute-hours", text: t("admin.chat.mute_for") }), hours,
    el("label", { for: "chat-mute-reason", text: t("admin.chat.reason") }), reason,
    el("button", { type: "submit", "data-testid": "admin-chat-mute", text: t("admin.chat.mute") }));
  muteForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = player.value.trim();
    try {
      const done = await adminApi(`/api/admin/chat/mutes/${encodeURIComponent(name)}`, { method: "POST", body: { hours: Number(hours.value), reason: reason.value } });
      muteStatus.textContent = t("admin.chat.muted", { name, until: dateTime(done.until) });
      player.value = "";
      reason.value = "";
    } catch (error) {
      muteStatus.textContent = error.message;
    }
    await Promise.all([drawReports(), drawMutes()]);
  });

  async function drawReports() {
    let reports;
    try {
      reports = await adminApi("/api/admin/chat/reports");
    } catch (error) {
      reportsStatus.textContent = error.message;
      return;
    }
    const rows = reports.map((r) => {
      const dismiss = el("button", { type: "button", "data-testid": `admin-chat-dismiss-${r.id}`, text: t("admin.chat.dismiss") });
      dismiss.addEventListener("click", async () => {
        try {
          await adminApi(`/api/admin/chat/reports/${r.id}/dismiss`, { method: "POST", body: { reason: "" } });
          reportsStatus.textContent = t("admin.chat.dismissed");
        } catch (error) {
          reportsStatus.textContent = error.message;
        }
        await drawReports();
      });
      const mute = el("button", { type: "button", "data-testid": `admin-chat-mute-${r.id}`,
        "aria-label": t("admin.chat.mute_named", { name: r.player }), text: t("admin.chat.mute") });
      mute.addEventListener("click", () => {
        player.value = r.player;
        if (!reason.value) reason.value = r.reason || r.text;
        reason.focus();
      });
      return el("tr", { "data-testid": "admin-chat-report" },
        ...cells(dateTime(r.at), r.table, r.player, el("q", { text: r.text }), r.reporter, r.reason,
          el("span", { class: "actions" }, mute, " ", dismiss)));
    });
    reportsBox.replaceChildren(listing("admin-chat-reports",
      [t("admin.chat.col_reported"), t("admin.chat.col_table"), t("admin.chat.col_player"), t("admin.chat.col_line"),
        t("admin.chat.col_reporter"), t("admin.chat.col_reason"), t("admin.chat.col_actions")],
      rows, t("admin.chat.no_reports")));
  }

  async function drawMutes() {
    let mutes;
    try {
      mutes = await adminApi("/api/admin/chat/mutes");
    } catch (error) {
      muteStatus.textContent = error.message;
      return;
    }
    const rows = mutes.map((m) => {
      const cell = el("span", { class: "actions" });
      const lift = el("button", { type: "button", "data-testid": `admin-chat-lift-${m.player}`,
        "aria-label": t("admin.chat.lift_named", { name: m.player }), text: t("admin.chat.lift") });
      lift.addEventListener("click", () => {
        const why = el("input", { type: "text", required: true, maxlength: "500", "aria-label": t("admin.chat.lift_reason"),
          placeholder: t("admin.chat.lift_reason"), "data-testid": "admin-chat-lift-reason" });
        const sure = el("button", { type: "submit", "data-testid": "admin-chat-lift-confirm", text: t("admin.chat.lift_confirm") });
        const form = el("form", {}, why, sure);
        form.addEventListener("submit", async (e) => {
          e.preventDefault();
          try {
            await adminApi(`/api/admin/chat/mutes/${encodeURIComponent(m.player)}/lift`, { method: "POST", body: { reason: why.value } });
            muteStatus.textContent = t("admin.chat.lifted", { name: m.player });
          } catch (error) {
            muteStatus.textContent = error.message;
          }
          await drawMutes();
        });
        cell.replaceChildren(form);
        why.focus();
      });
      cell.append(lift);
      return el("tr", { "data-testid": "admin-chat-muted" }, ...cells(m.player, dateTime(m.until), m.reason, m.muted_by, cell));
    });
    mutesBox.replaceChildren(listing("admin-chat-mutes",
      [t("admin.chat.mute_player"), t("admin.chat.col_until"), t("admin.chat.col_reason"), t("admin.chat.col_by"), t("admin.chat.col_actions")],
      rows, t("admin.chat.no_mutes")));
  }

  // The chat log: a table's recent lines (by its id), a player's, or the room's.
  const logTable = el("input", { id: "chat-log-table", type: "number", min: "1", inputmode: "numeric", "data-testid": "admin-chat-log-table" });
  const logPlayer = el("input", { id: "chat-log-player", type: "text", maxlength: "40", autocomplete: "off", "data-testid": "admin-chat-log-player" });
  const logForm = el("form", { "data-testid": "admin-chat-log-form" },
    el("label", { for: "chat-log-table", text: t("admin.chat.log_table") }), logTable,
    el("label", { for: "chat-log-player", text: t("admin.chat.log_player") }), logPlayer,
    el("button", { type: "submit", "data-testid": "admin-chat-log-show", text: t("admin.chat.log_show") }));
  async function drawLog() {
    const query = new URLSearchParams();
    if (logTable.value) query.set("table", logTable.value);
    if (logPlayer.value.trim()) query.set("player", logPlayer.value.trim());
    let lines;
    try {
      lines = await adminApi(`/api/admin/chat/lines?${query}`);
      logStatus.textContent = "";
    } catch (error) {
      logStatus.textContent = error.message;
      return;
    }
    logBox.replaceChildren(listing("admin-chat-log",
      [t("admin.chat.col_at"), t("admin.chat.col_table"), t("admin.chat.col_seat"), t("admin.chat.col_player"), t("admin.chat.col_line")],
      lines.map((l) => el("tr", { "data-testid": "admin-chat-log-line" }, ...cells(dateTime(l.at), l.table, l.seat, l.player, l.text))),
      t("admin.chat.no_lines")));
  }
  logForm.addEventListener("submit", (e) => { e.preventDefault(); drawLog(); });

  // The refused words.
  const word = el("input", { id: "chat-word", type: "text", required: true, maxlength: "40", autocomplete: "off", "data-testid": "admin-chat-word" });
  const wordForm = el("form", { "data-testid": "admin-chat-word-form" },
    el("label", { for: "chat-word", text: t("admin.chat.word") }), word,
    el("button", { type: "submit", "data-testid": "admin-chat-word-add", text: t("admin.chat.word_add") }));
  async function drawWords() {
    let words;
    try {
      words = await adminApi("/api/admin/chat/words");
    } catch (error) {
      wordsStatus.textContent = error.message;
      return;
    }
    wordsBox.replaceChildren(words.length
      ? el("ul", { class: "words", "data-testid": "admin-chat-words" }, ...words.map((w) => {
        const remove = el("button", { type: "button", "aria-label": t("admin.chat.word_remove_named", { word: w.word }),
          "data-testid": `admin-chat-word-remove-${w.word}`, text: t("admin.chat.word_remove") });
        remove.addEventListener("click", async () => {
          try {
            await adminApi("/api/admin/chat/words/remove", { method: "POST", body: { word: w.word } });
            wordsStatus.textContent = t("admin.chat.word_removed", { word: w.word });
          } catch (error) {
            wordsStatus.textContent = error.message;
          }
          await drawWords();
        });
        return el("li", {}, el("span", { text: w.word }), " ", remove);
      }))
      : el("p", { "data-testid": "admin-chat-words", text: t("admin.chat.no_words") }));
  }
  wordForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const added = await adminApi("/api/admin/chat/words", { method: "POST", body: { word: word.value } });
      wordsStatus.textContent = t("admin.chat.word_added", { word: added.word });
      word.value = "";
    } catch (error) {
      wordsStatus.textContent = error.message;
    }
    await drawWords();
  });

  const refresh = el("button", { type: "button", "data-testid": "admin-chat-refresh", text: t("admin.chat.refresh") });
  refresh.addEventListener("click", () => Promise.all([drawReports(), drawMutes(), drawWords()]));
  panel.append(
    el("section", { class: "chat-reports", "aria-labelledby": "chat-reports-heading" },
      el("h3", { id: "chat-reports-heading", text: t("admin.chat.reports_heading") }), refresh, reportsStatus, reportsBox),
    el("section", { "aria-labelledby": "chat-mute-heading" },
      el("h3", { id: "chat-mute-heading", text: t("admin.chat.mute_heading") }), muteForm, muteStatus, mutesBox),
    el("section", { "aria-labelledby": "chat-log-heading" },
      el("h3", { id: "chat-log-heading", text: t("admin.chat.log_heading") }), logForm, logStatus, logBox),
    el("section", { "aria-labelledby": "chat-words-heading" },
      el("h3", { id: "chat-words-heading", text: t("admin.chat.words_heading") }),
      el("p", { text: t("admin.chat.words_note") }), wordForm, wordsStatus, wordsBox));
  await Promise.all([drawReports(), drawMutes(), drawLog(), drawWords()]);
}
