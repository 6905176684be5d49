// A home game at the table page (docs/private_games.md): the host's panel (the invite link,
// who asks to join, pause and resume, removing a player, the night's ledger) and, for everyone
// at a private table, the host's notices (paused; you were removed). The server decides every
// one of these: the panel shows what GET /api/private/tables/{id} says, and that answers the
// host alone (anybody else gets {"host": false}, and sees no panel).
import { api, el } from "/web/common.js";
import { t } from "/web/i18n.js";

const POLL_MS = 3000;
const KEY = (table) => `sevenstud.invite.${table}`;

/** Keep the invite link the server gave (only its hash is stored there: the host's browser
 *  is where the link can be copied from again). */
export function rememberInvite(table, token) {
  try {
    localStorage.setItem(KEY(table), token);
  } catch {
    // No storage (a private window's limits): the link is shown once, and "New link" makes another.
  }
}

function rememberedInvite(table) {
  try {
    return localStorage.getItem(KEY(table));
  } catch {
    return null;
  }
}

function inviteUrl(token) {
  return `${location.origin}/invite/${token}`;
}

/** The host's notices for every player (drawn into `noticeSlot`), and the host's panel (into
 *  `slot`) when the server says this account hosts the table. `backlog`: the notices that came before this
 *  module did; later ones come as "sevenstud:private" events. */
export async function mountHost(noticeSlot, slot, tableId, backlog) {
  document.head.append(el("link", { rel: "stylesheet", href: "/web/table_host.css" }));
  const notices = el("div", { class: "private-notices", "data-testid": "private-notices", "aria-live": "polite" });
  noticeSlot.append(notices);
  const onNotice = (data) => notice(notices, data);
  for (const data of backlog.splice(0)) onNotice(data);
  window.addEventListener("sevenstud:private", (event) => {
    backlog.splice(0);
    onNotice(event.detail);
  });
  let panel;
  try {
    panel = await api(`/api/private/tables/${tableId}`);
  } catch {
    return;
  }
  if (!panel.host) return; // not the host (or not a private table): nothing more to show
  const host = new HostPanel(slot, tableId, notices);
  host.draw(panel);
  setInterval(() => host.refresh(), POLL_MS);
}

/** A private sit-and-go's host panel at its page (the link, who asks, asking first): nothing
 *  for anybody else (the server answers them {"host": false}). */
export async function mountTournamentHost(slot, tid) {
  let panel;
  try {
    panel = await api(`/api/private/tournaments/${tid}`);
  } catch {
    return;
  }
  if (!panel.host) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/web/table_host.css" }));
  const host = new HostPanel(slot, tid, null, "tournament");
  host.draw(panel);
  setInterval(() => host.refresh(), POLL_MS);
}

function notice(box, data) {
  if (data.type === "table_paused") {
    box.querySelector("[data-testid=paused-notice]")?.remove();
    if (data.paused) box.append(el("p", { class: "notice", "data-testid": "paused-notice", text: t("private.paused_notice") }));
  } else if (data.type === "removed") {
    const words = data.reason ? t("private.removed_because", { reason: data.reason }) : t("private.removed");
    box.replaceChildren(el("section", { class: "table-end", "data-testid": "removed-notice" },
      el("p", { text: words }),
      el("p", { class: "end-links" }, el("a", { href: "/", class: "button primary", text: t("table.to_lobby") }))));
    document.body.dataset.removed = "1";
  }
}

class HostPanel {
  constructor(slot, tableId, notices, kind = "table") {
    this.tableId = tableId;
    this.kind = kind;
    this.key = kind === "table" ? tableId : `t${tableId}`; // where the browser keeps its link
    // At the top of the page, by the felt: how many ask to join (the panel is further down).
    this.banner = el("p", { class: "notice", "data-testid": "asking-notice", hidden: "" });
    if (notices) notices.prepend(this.banner);
    this.base = kind === "table" ? `/api/private/tables/${tableId}` : `/api/private/tournaments/${tableId}`;
    this.box = el("section", { class: "host-panel panel", "data-testid": "host-panel", "aria-labelledby": "host-heading" });
    slot.append(this.box);
    this.error = el("p", { class: "error", role: "alert", "data-testid": "host-error" });
    this.state = null;
  }

  async refresh() {
    try {
      this.draw(await api(this.base));
    } catch {
      // A network blip: the next round tries again; the panel keeps what it showed.
    }
  }

  async act(path, body) {
    this.error.textContent = "";
    try {
      const answer = await api(`${this.base}/${path}`, { method: "POST", body });
      await this.refresh();
      return answer;
    } catch (error) {
      this.error.textContent = error.message;
      return null;
    }
  }

  draw(state) {
    const same = this.state && JSON.stringify(this.state) === JSON.stringify(state);
    if (same) return; // nothing changed: the host's typing (a reason) stays where it is
    this.state = state;
    const count = state.asking.length;
    this.banner.hidden = !count;
    this.banner.replaceChildren(...(count ? [t("private.asking_notice", { count }), " ",
      el("a", { href: "#host-heading", text: t("private.asking_see") })] : []));
    const heading = el("h3", { id: "host-heading", text: t("private.host_heading") });
    if (this.kind !== "table") { // a sit-and-go: the link and who comes; the tournament runs the rest
      heading.textContent = t("private.host_heading_sng");
      this.box.replaceChildren(heading, this.linkPart(), this.askingPart(state), this.askPart(state), this.error);
      return;
    }
    this.box.replaceChildren(heading, this.linkPart(), this.askingPart(state), this.controlsPart(state),
      this.playersPart(state), this.error);
  }

  linkPart() {
    const token = rememberedInvite(this.key);
    const part = el("div", { class: "host-link" });
    if (token) {
      const field = el("input", { type: "text", readonly: "", value: inviteUrl(token), "aria-label": t("private.link_label"), "data-testid": "invite-link" });
      const copy = el("button", { type: "button", "data-testid": "copy-link", text: t("private.copy_link") });
      copy.addEventListener("click", async () => {
        field.select();
        try {
          await navigator.clipboard.writeText(field.value);
          copy.textContent = t("private.copied");
        } catch {
          document.execCommand("copy"); // an older browser, or no clipboard permission
        }
      });
      part.append(el("label", { text: t("private.link_label") }), field, copy);
    } else {
      part.append(el("p", { class: "hint", text: t("private.link_unknown") }));
    }
    const renew = el("button", { type: "button", "data-testid": "renew-link", text: t("private.new_link") });
    renew.addEventListener("click", async () => {
      const made = await this.act("link");
      if (made) {
        rememberInvite(this.key, made.token);
        this.state = null;
        await this.refresh();
      }
    });
    part.append(renew, el("p", { class: "hint", text: t("private.new_link_hint") }));
    return part;
  }

  askingPart(state) {
    const part = el("div", { class: "host-asking", "data-testid": "host-asking" });
    if (!state.asking.length) return part;
    part.append(el("h4", { text: t("private.asking_heading") }));
    const list = el("ul", {});
    for (const ask of state.asking) {
      const yes = el("button", { type: "button", class: "primary", "data-testid": "approve", text: t("private.approve") });
      const no = el("button", { type: "button", "data-testid": "deny", text: t("private.deny") });
      yes.addEventListener("click", () => this.act("decide", { player: ask.player, approve: true }));
      no.addEventListener("click", () => this.act("decide", { player: ask.player, approve: false }));
      list.append(el("li", { "data-player": ask.player }, el("span", { class: "who", text: ask.player }),
        el("span", { class: "answers" }, yes, no)));
    }
    part.append(list);
    return part;
  }

  askPart(state) {
    const ask = el("input", { type: "checkbox", id: "host-ask", "data-testid": "ask-to-join" });
    ask.checked = state.ask_to_join;
    ask.addEventListener("change", () => this.act("ask", { ask_to_join: ask.checked }));
    return el("p", { class: "host-controls" },
      el("span", { class: "check" }, ask, el("label", { for: "host-ask", text: t("private.ask_to_join") })));
  }

  controlsPart(state) {
    const pause = el("button", { type: "button", "data-testid": "pause", text: state.paused ? t("private.resume") : t("private.pause") });
    pause.addEventListener("click", () => this.act("pause", { paused: !state.paused }));
    const ask = el("input", { type: "checkbox", id: "host-ask", "data-testid": "ask-to-join" });
    ask.checked = state.ask_to_join;
    ask.addEventListener("change", () => this.act("ask", { ask_to_join: ask.checked }));
    const ledger = el("a", { href: `${this.base}/ledger.csv`, download: `table-${this.tableId}-ledger.csv`, class: "button", "data-testid": "ledger", text: t("private.ledger") });
    return el("div", { class: "host-controls" },
      pause,
      el("span", { class: "check" }, ask, el("label", { for: "host-ask", text: t("private.ask_to_join") })),
      ledger,
      el("p", { class: "hint", text: state.paused ? t("private.paused_hint") : t("private.pause_hint") }));
  }

  playersPart(state) {
    const part = el("div", { class: "host-players" });
    if (!state.players.length) return part;
    part.append(el("h4", { text: t("private.players_heading") }));
    const reason = el("input", { type: "text", maxlength: "200", placeholder: t("private.reason"), "aria-label": t("private.reason"), "data-testid": "remove-reason" });
    const list = el("ul", {});
    for (const name of state.players) {
      const remove = el("button", { type: "button", "data-testid": "remove", text: t("private.remove") });
      remove.addEventListener("click", () => this.act("remove", { player: name, reason: reason.value.trim() }));
      list.append(el("li", { "data-player": name }, el("span", { class: "who", text: name }), remove));
    }
    part.append(reason, list, el("p", { class: "hint", text: t("private.remove_hint") }));
    return part;
  }
}
