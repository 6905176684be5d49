// The table's chat and players panels: the chat (the server's `chat` lines, always as text,
// never as HTML), the dealer's words for actions and results (the page's wording of the events
// this connection may see: no card is ever put into a chat line), muting a player for yourself
// (a list kept in this browser), reporting another player's line to the room's operators (by
// the line's id: POST /api/chat/reports), and for each other player their statistics (counted by
// the server from the hands you played with them) and your private note on them.
import { api, el } from "/web/common.js";
import { handName, t } from "/web/i18n.js";
import { eventWords } from "/web/table_log.js";
import { statsTable } from "/web/stats_view.js";
import { NARROW } from "/web/table_view.js";

const MAX_LINES = 200;
const MUTED_KEY = "sevenstud.muted";
const DEALER_KEY = "sevenstud.chatDealer";
const DEALER_EVENTS = new Set(["action_taken", "bet_returned", "hand_shown", "hand_mucked", "hand_turned_up", "pot_awarded", "rake_taken"]);

/** The players muted in this browser (names), remembered in localStorage. */
export const muted = {
  all() {
    try {
      const list = JSON.parse(localStorage.getItem(MUTED_KEY) || "[]");
      return new Set(Array.isArray(list) ? list.filter((n) => typeof n === "string") : []);
    } catch {
      return new Set();
    }
  },
  has(name) {
    return this.all().has(name);
  },
  set(name, on) {
    const list = this.all();
    if (on) list.add(name);
    else list.delete(name);
    localStorage.setItem(MUTED_KEY, JSON.stringify([...list]));
  },
};

/** The dealer's words for an event, without a card: a hand shown is said by its names. */
function dealerWords(event, name) {
  if (!DEALER_EVENTS.has(event.type)) return null;
  if (event.type === "hand_shown") {
    const names = [handName(event.high), event.low ? t("chat.low", { low: event.low }) : null].filter(Boolean).join("; ");
    return names ? t("chat.shows_names", { name: name(event.seat), names }) : t("chat.shows", { name: name(event.seat) });
  }
  if (event.type === "hand_turned_up") return t("chat.turned_up", { name: name(event.seat) });
  return eventWords(event, name);
}

export class Social {
  /** `root`: where the panels go; `send`: sends a websocket message. */
  constructor(root, send) {
    this.send = send;
    this.account = null;
    this.view = null;
    this.seen = new Set();
    this.selected = null;
    this.players = "";
    const dealerId = "chat-dealer";
    this.dealerBox = el("input", { type: "checkbox", id: dealerId, "data-testid": "chat-dealer" });
    this.dealerBox.checked = localStorage.getItem(DEALER_KEY) !== "false";
    this.dealerBox.addEventListener("change", () => {
      localStorage.setItem(DEALER_KEY, String(this.dealerBox.checked));
      this.refilter();
    });
    this.lines = el("ol", { class: "chat-lines" });
    this.box = el("div", { class: "chat", role: "log", "aria-live": "polite", "aria-labelledby": "chat-heading", tabindex: "0", "data-testid": "chat" }, this.lines);
    this.input = el("input", { id: "chat-text", type: "text", maxlength: "200", autocomplete: "off", "data-testid": "chat-text" });
    this.note = el("p", { class: "chat-note", "data-testid": "chat-note" });
    const form = el("form", { class: "chat-form", "data-testid": "chat-form" },
      el("label", { for: "chat-text", text: t("chat.say") }), this.input,
      el("button", { type: "submit", text: t("chat.send") }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      this.send({ type: "chat", text });
      this.input.value = "";
    });
    this.form = form;
    this.reportBox = el("div", { class: "chat-report", "data-testid": "chat-report" });
    this.playerList = el("ul", { class: "players", "data-testid": "players" });
    this.detail = el("div", { class: "player-detail", "data-testid": "player-detail", "aria-live": "polite" });
    const closer = () => {
      const button = el("button", { type: "button", class: "sheet-close", "data-testid": "close-sheet", "aria-label": t("table.close_panel") }, "\u00d7");
      button.addEventListener("click", () => this.close());
      return button;
    };
    this.panels = {
      chat: el("section", { class: "chat-panel", id: "chat-panel", "aria-labelledby": "chat-heading", "data-testid": "chat-panel" },
        el("div", { class: "panel-head" }, el("h3", { id: "chat-heading", tabindex: "-1", text: t("chat.heading") }), closer()),
        el("label", { for: dealerId, class: "dealer-toggle" }, this.dealerBox, ` ${t("chat.dealer_messages")}`),
        this.box, this.reportBox, form, this.note),
      players: el("section", { class: "players-panel", id: "players-panel", "aria-labelledby": "players-heading", "data-testid": "players-panel" },
        el("div", { class: "panel-head" }, el("h3", { id: "players-heading", tabindex: "-1", text: t("chat.players") }), closer()),
        this.playerList, this.detail),
    };
    root.replaceWith(el("div", { class: "social" }, this.panels.chat, this.panels.players));
    // The panels are built here, after the page has loaded this module, so the buttons that
    // open them only name them now: an aria-controls naming a missing element is invalid.
    for (const button of document.querySelectorAll("[data-opens]")) {
      const panel = this.panels[button.dataset.opens];
      if (panel) button.setAttribute("aria-controls", panel.id);
    }
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && document.body.dataset.sheet) this.close();
    });
  }

  /** Opens the chat or the players panel (`which`) from the table's buttons: on a phone as a
   *  sheet over the table's lower part (the panels sat far below it), elsewhere by bringing
   *  the panel below the table into view. Either way the panel's heading takes the focus. */
  open(which, opener = null) {
    const panel = this.panels[which];
    if (!panel) return;
    this.opener = opener;
    if (NARROW.matches) document.body.dataset.sheet = which;
    else panel.scrollIntoView({ block: "nearest" });
    for (const button of document.querySelectorAll("[data-opens]")) {
      button.setAttribute("aria-expanded", String(NARROW.matches && button.dataset.opens === which));
    }
    panel.querySelector("h3").focus({ preventScroll: NARROW.matches });
  }

  /** Closes the sheet (a phone's); the focus goes back to the button that opened it. */
  close() {
    delete document.body.dataset.sheet;
    for (const button of document.querySelectorAll("[data-opens]")) button.setAttribute("aria-expanded", "false");
    if (this.opener) this.opener.focus();
  }

  /** A `chat` message from the server (one already shown, after a reconnect, is dropped). */
  chat(line) {
    if (this.seen.has(line.id)) return;
    this.seen.add(line.id);
    // The report button's flag is drawn by chat.css: the line's text stays the line alone.
    const report = el("button", { type: "button", class: "report", "data-testid": "chat-report-button",
      "aria-label": t("chat.report_named", { name: line.player }), title: t("chat.report") });
    report.addEventListener("click", () => this.reportForm(line, report));
    const item = el("li", { class: "said", "data-player": line.player, "data-testid": "chat-line" },
      el("span", { class: "who", text: line.player }), ": ",
      el("span", { class: "text", text: line.text }), report);
    item.hidden = muted.has(line.player);
    report.hidden = !this.account || line.player === this.account.name;
    this.add(item);
  }

  /** The form reporting `line` to the room's operators (one at a time, under the chat). */
  reportForm(line, button) {
    const reasonId = "chat-report-reason";
    const reason = el("input", { id: reasonId, type: "text", maxlength: "200", autocomplete: "off", "data-testid": "chat-report-reason" });
    const status = el("p", { role: "status", "data-testid": "chat-report-status" });
    const cancel = el("button", { type: "button", text: t("chat.report_cancel") });
    cancel.addEventListener("click", () => { this.reportBox.replaceChildren(); button.focus(); });
    const form = el("form", {},
      el("p", { text: t("chat.report_heading", { name: line.player, text: line.text }) }),
      el("label", { for: reasonId, text: t("chat.report_reason") }), reason,
      el("button", { type: "submit", "data-testid": "chat-report-send", text: t("chat.report_send") }), cancel);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api("/api/chat/reports", { method: "POST", body: { line: line.id, reason: reason.value.trim() } });
      } catch (error) {
        status.textContent = t("chat.report_failed", { error: error.message });
        return;
      }
      button.disabled = true;
      button.title = t("chat.reported_short");
      this.reportBox.replaceChildren(el("p", { role: "status", "data-testid": "chat-report-status", text: t("chat.reported") }));
    });
    this.reportBox.replaceChildren(form, status);
    reason.focus();
  }

  /** A table event: the dealer's words in the chat, for actions and results. */
  event(event, name) {
    const words = dealerWords(event, name);
    if (!words) return;
    const item = el("li", { class: "dealer", "data-testid": "dealer-line" },
      el("span", { class: "who", text: t("chat.dealer") }), ": ", el("span", { class: "text", text: words }));
    item.hidden = !this.dealerBox.checked;
    this.add(item);
  }

  add(item) {
    this.lines.append(item);
    while (this.lines.children.length > MAX_LINES) this.lines.firstElementChild.remove();
    this.box.scrollTop = this.box.scrollHeight;
  }

  /** Hide or show the lines again after a mute or the dealer toggle changed. */
  refilter() {
    const off = muted.all();
    for (const item of this.lines.children) {
      if (item.classList.contains("dealer")) item.hidden = !this.dealerBox.checked;
      else item.hidden = off.has(item.dataset.player);
    }
  }

  /** The table's `view`: who may write, and the players to show. */
  draw(view, account) {
    this.view = view;
    if ((account && account.name) !== (this.account && this.account.name)) {
      for (const item of this.lines.querySelectorAll(".said")) {
        item.querySelector(".report").hidden = !account || item.dataset.player === account.name;
      }
    }
    this.account = account;
    const seated = view.you !== null && view.you !== undefined;
    this.input.disabled = !seated;
    this.form.querySelector("button").disabled = !seated;
    this.note.textContent = seated ? "" : account ? t("chat.sit_down_to_write") : t("chat.sign_in_to_write");
    const others = Object.entries(view.players || {})
      .filter(([seat]) => Number(seat) !== view.you)
      .map(([seat, p]) => ({ seat: Number(seat), name: p.name, bot: p.bot }));
    const key = others.map((p) => `${p.seat}:${p.name}`).join(",");
    if (key !== this.players) {
      this.players = key;
      this.drawPlayers(others);
    }
    const last = view.last_hand ? view.last_hand.hand : null;
    if (this.selected && last !== this.lastHand) this.showPlayer(this.selected, false);
    this.lastHand = last;
  }

  drawPlayers(others) {
    this.playerList.replaceChildren(...others.map((p) => {
      const mute = el("button", { type: "button", class: "mute", "data-testid": `mute-${p.name}` });
      const setLabel = () => {
        const on = muted.has(p.name);
        mute.textContent = on ? t("chat.unmute") : t("chat.mute");
        mute.setAttribute("aria-pressed", String(on));
        mute.setAttribute("aria-label", t(on ? "chat.unmute_named" : "chat.mute_named", { name: p.name }));
      };
      setLabel();
      mute.addEventListener("click", () => {
        muted.set(p.name, !muted.has(p.name));
        setLabel();
        this.refilter();
      });
      const about = el("button", { type: "button", class: "about", "data-testid": `about-${p.name}`, "aria-label": t("chat.about_named", { name: p.name }), text: t("chat.about") });
      about.addEventListener("click", () => this.showPlayer(p.name, true));
      return el("li", {}, el("span", { class: "name", text: p.bot ? t("chat.bot_named", { name: p.name }) : p.name }), " ", about, " ", mute);
    }));
  }

  /** The statistics of a player and your note on them (fetched from the server). */
  async showPlayer(name, withNote) {
    this.selected = name;
    if (!this.account) {
      this.detail.replaceChildren(el("p", { text: t("chat.sign_in_for_stats") }));
      return;
    }
    const statsBox = this.detail.querySelector(".stats-box") || el("div", { class: "stats-box" });
    if (withNote || !this.detail.contains(statsBox)) {
      const noteId = "player-note";
      const area = el("textarea", { id: noteId, rows: "3", maxlength: "2000", "data-testid": "note-text" });
      const status = el("p", { class: "note-status", role: "status", "data-testid": "note-status" });
      const save = el("button", { type: "button", "data-testid": "note-save", text: t("chat.save_note") });
      save.addEventListener("click", async () => {
        try {
          await api(`/api/notes/${encodeURIComponent(name)}`, { method: "PUT", body: { text: area.value } });
          status.textContent = area.value.trim() ? t("chat.note_saved") : t("chat.note_deleted");
        } catch (error) {
          status.textContent = t("chat.note_not_saved", { error: error.message });
        }
      });
      this.detail.replaceChildren(
        el("h4", { text: name }), statsBox,
        el("label", { for: noteId, text: t("chat.note_label", { name }) }), area, save, status);
      try {
        area.value = (await api(`/api/notes/${encodeURIComponent(name)}`)).text;
      } catch (error) {
        if (error.status !== 404) status.textContent = t("chat.note_unread", { error: error.message });
      }
    }
    try {
      const found = await api(`/api/stats/players?name=${encodeURIComponent(name)}`);
      if (this.selected !== name) return;
      statsBox.replaceChildren(statsTable(found.players[name], t("chat.stats_caption", { name })));
      statsBox.scrollIntoView({ block: "nearest" }); // asked for: in view (a phone's sheet scrolls to it)
    } catch (error) {
      statsBox.replaceChildren(el("p", { text: t("chat.no_stats", { error: error.message }) }));
    }
  }
}
