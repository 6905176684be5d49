// The action bar: exactly the server's `actions` as buttons (with keyboard shortcuts), the
// advance boxes ("Check/Fold", "Call any", "Fold to any bet"), and the seat's own controls
// (sit out / sit in, leave, top up, the buy-in asked when sitting down). Which action is legal
// and for how much is always the server's word: the boxes only choose among its actions.
import { chips, el } from "/web/common.js";
import { t } from "/web/i18n.js";

/** The shortcut key for an action kind: F fold, C check or call, B bet or bring-in,
 *  R raise or complete. */
export const SHORTCUTS = { fold: "F", check: "C", call: "C", bet: "B", "bring-in": "B", raise: "R", complete: "R" };

const ADVANCE = [
  ["check-fold", "advance.check_fold", "advance.check_fold_what"],
  ["call-any", "advance.call_any", "advance.call_any_what"],
  ["fold-any", "advance.fold_any", "advance.fold_any_what"],
];

/** Which of the server's actions an advance box picks, or null (the player decides). */
export function advanceChoice(box, actions) {
  const kind = (k) => actions.find((a) => a.kind === k) || null;
  if (box === "check-fold") return kind("check") || kind("fold");
  if (box === "call-any") return kind("call") || kind("check");
  if (box === "fold-any") return kind("call") ? kind("fold") : null;
  return null;
}

export class ActionBar {
  /** `area` is the bar's section; `send(message)` sends a message on the websocket. */
  constructor(area, send) {
    this.area = area;
    this.send = send;
    this.view = null;
    this.ticked = new Set();
    this.tickedAt = null; // the (hand, street, bet) the boxes were ticked facing
    this.sentFor = null; // the turn an action was sent for, so that one turn gets one action
    this.buyInSeat = null;
    this.account = null;
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  /** Where the hand's betting stands for the advance boxes: they clear when it changes. */
  static facing(view) {
    const hand = view.view.hand;
    if (!hand) return null;
    return `${view.view.hand_number}:${hand.street}:${Math.max(0, ...hand.bets)}`;
  }

  /** Draws the bar for a view; returns true when it is this seat's turn (for the alert). */
  draw(view, { spectator }) {
    this.view = view;
    const facing = ActionBar.facing(view);
    if (this.ticked.size && facing !== this.tickedAt) this.ticked.clear();
    const actions = view.actions || [];
    const turn = actions.length > 0;
    // One turn is one hand, street and point in the hand's events (a table event, such as
    // someone sitting down, does not make it a new turn).
    const hand = view.view.hand;
    const turnKey = turn ? `${view.view.hand_number}:${hand.street}:${hand.version}` : null;
    if (turn && this.ticked.size) {
      for (const box of ADVANCE.map((a) => a[0])) {
        if (!this.ticked.has(box)) continue;
        const choice = advanceChoice(box, actions);
        if (choice) {
          this.ticked.clear();
          this.act(choice, turnKey);
          break;
        }
      }
    }
    // Each part is drawn again only when what it shows changed, so that a number being typed
    // (a buy-in, a top-up) or the focus on a box survives the views that keep coming.
    const you = view.you !== null && view.you !== undefined;
    if (spectator) {
      this.slot("bar", "watching", () => el("p", { class: "watching", text: t("actions.watching") }));
    } else if (turn) {
      const done = this.sentFor === turnKey;
      this.slot("bar", `turn:${turnKey}:${done}:${JSON.stringify(actions)}`, () => this.buttons(actions, turnKey));
    } else if (this.inHand(view)) {
      this.slot("bar", this.boxesSignature(facing), () => this.boxes(facing));
    } else {
      this.slot("bar", "none", () => null);
    }
    const asking = !spectator && this.buyInSeat !== null && !you;
    this.slot("buy-in", asking ? `${this.buyInSeat}:${view.min_buy_in}:${view.max_buy_in}` : "none", () => (asking ? this.buyInForm(view) : null));
    const me = you ? (view.view.seats || []).find((s) => s.seat === view.you) : null;
    const balance = this.account ? this.account.balance : "";
    const controls = !spectator && me ? `${me.sitting_out}:${me.leaving}:${me.in_hand}:${view.max_buy_in - me.stack}:${view.tournament}:${balance}` : "none";
    this.slot("controls", controls, () => (controls === "none" ? null : this.seatControls(view, me)));
    return turn;
  }

  boxesSignature(facing) {
    return `boxes:${facing}:${[...this.ticked].join(",")}`;
  }

  /** Draws one part of the bar (in a fixed order) again when its `signature` changed. */
  slot(name, signature, build) {
    let box = this.area.querySelector(`:scope > [data-slot="${name}"]`);
    if (!box) {
      box = el("div", { class: "slot", "data-slot": name });
      const order = ["buy-in", "bar", "controls"];
      const after = [...this.area.children].find((c) => order.indexOf(c.dataset.slot) > order.indexOf(name));
      this.area.insertBefore(box, after || null);
    }
    if (box.dataset.signature === signature) return;
    box.dataset.signature = signature;
    const made = build();
    box.replaceChildren(...(made ? [made] : []));
  }

  inHand(view) {
    const table = view.view;
    if (!table.hand || view.you === null || view.you === undefined) return false;
    const index = (table.hand_seats || []).indexOf(view.you);
    return index >= 0 && !table.hand.folded[index] && table.hand.phase === "betting";
  }

  buttons(actions, turnKey) {
    const bar = el("div", { class: "actions", role: "group", "aria-label": t("actions.choose"), "data-testid": "actions" });
    const done = this.sentFor === turnKey;
    for (const action of actions) {
      const key = SHORTCUTS[action.kind];
      const button = el("button", {
        type: "button",
        class: action.kind === "fold" ? "" : "primary",
        "data-testid": `act-${action.kind}`,
        "data-action": action.action,
        "data-key": key,
        "aria-keyshortcuts": key,
        disabled: done,
        onclick: () => this.act(action, turnKey),
      }, action.label, key ? el("kbd", { "aria-hidden": "true", text: key }) : null);
      bar.append(button);
    }
    return bar;
  }

  act(action, turnKey) {
    if (this.sentFor === turnKey) return;
    this.sentFor = turnKey;
    const view = this.view;
    this.send({ type: "act", hand: view.view.hand_number, street: view.view.hand.street, action: action.action });
    for (const button of this.area.querySelectorAll("[data-action]")) button.disabled = true;
  }

  boxes(facing) {
    const group = el("fieldset", { class: "advance", "data-testid": "advance" }, el("legend", { text: t("advance.legend") }));
    for (const [name, label, what] of ADVANCE) {
      const id = `advance-${name}`;
      const input = el("input", { type: "checkbox", id, "data-testid": id, "aria-describedby": `${id}-what` });
      input.checked = this.ticked.has(name);
      input.addEventListener("change", () => {
        // One box at a time, as card rooms do: ticking one unticks the others.
        this.ticked.clear();
        if (input.checked) this.ticked.add(name);
        this.tickedAt = facing;
        for (const other of this.area.querySelectorAll(".advance input")) {
          if (other !== input) other.checked = false;
        }
        // The boxes already show it: no drawing again (the focus stays on the box).
        const slot = this.area.querySelector('[data-slot="bar"]');
        if (slot) slot.dataset.signature = this.boxesSignature(facing);
      });
      group.append(el("label", { for: id }, input, ` ${t(label)}`),
        el("span", { id: `${id}-what`, class: "visually-hidden", text: t(what) }));
    }
    return group;
  }

  seatControls(view, me) {
    const box = el("div", { class: "seat-controls", "data-testid": "seat-controls" });
    const broke = this.broke(view, me);
    if (broke) box.append(broke);
    if (me.sitting_out) {
      box.append(el("button", { type: "button", "data-testid": "sit-in", onclick: () => this.send({ type: "sit_in" }), text: t("actions.sit_in") }));
    } else {
      box.append(el("button", { type: "button", "data-testid": "sit-out", onclick: () => this.send({ type: "sit_out" }), text: t("actions.sit_out") }));
    }
    if (view.tournament) return box; // its seats and chips are the tournament's: no leave, no top-up
    box.append(el("button", { type: "button", "data-testid": "leave", onclick: () => this.send({ type: "leave" }), text: me.leaving ? t("actions.leaving") : t("actions.leave"), disabled: me.leaving }));
    // The server takes top-ups only between a seat's hands (in_hand is its word for it).
    const room = view.max_buy_in - me.stack;
    if (room > 0 && !me.in_hand) {
      const input = el("input", { type: "number", id: "top-up-amount", min: 1, max: room, value: room, "data-testid": "top-up-amount" });
      box.append(el("label", { for: "top-up-amount", text: t("actions.top_up_upto", { room }) }), input,
        el("button", { type: "button", "data-testid": "top-up", onclick: () => this.send({ type: "top_up", amount: Number(input.value) }), text: t("actions.top_up") }));
    }
    return box;
  }

  /** Out of chips at a cash table (the table sat the seat out: it cannot post the ante): what
   *  happened, and the top-up that deals it in again (the balance's most, up to the table's
   *  maximum), or, the balance empty too, where to refill it. Null while the seat has chips. */
  broke(view, me) {
    const ante = Math.max(1, view.stakes[0]);
    if (view.tournament || !me.sitting_out || me.in_hand || me.leaving || me.stack >= ante) return null;
    const balance = this.account ? this.account.balance : 0;
    const amount = Math.min(view.max_buy_in - me.stack, balance);
    const box = el("div", { class: "broke", role: "status", "data-testid": "broke" }, el("p", { text: t("table.broke") }));
    if (amount + me.stack >= ante) {
      box.append(el("button", { type: "button", class: "primary", "data-testid": "top-up-back",
        onclick: () => this.send({ type: "top_up", amount }), text: t("actions.top_up_back", { amount: chips(amount) }) }));
    } else {
      box.append(el("p", {}, `${t("table.broke_no_balance")} `, el("a", { href: "/", text: t("table.to_lobby") })));
    }
    return box;
  }

  /** Asks the buy-in for an empty seat (the "Sit here" button), between the table's limits. */
  askBuyIn(seat) {
    this.buyInSeat = seat;
    if (this.view) this.draw(this.view, { spectator: false });
    const input = this.area.querySelector("#buy-in");
    if (input) input.focus();
  }

  buyInForm(view) {
    const seat = this.buyInSeat;
    const most = this.account ? Math.min(view.max_buy_in, this.account.balance) : view.max_buy_in;
    const input = el("input", { type: "number", id: "buy-in", min: view.min_buy_in, max: view.max_buy_in, value: Math.max(view.min_buy_in, most), "data-testid": "buy-in" });
    // novalidate: the server judges the buy-in and says why it refuses one.
    const form = el("form", { class: "buy-in", "data-testid": "buy-in-form", novalidate: true },
      el("label", { for: "buy-in", text: t("actions.buy_in_for", { seat, low: view.min_buy_in, high: view.max_buy_in }) }), input,
      el("button", { type: "submit", class: "primary", "data-testid": "sit-down", text: t("actions.sit_down") }),
      el("button", { type: "button", onclick: () => { this.buyInSeat = null; this.draw(this.view, { spectator: false }); }, text: t("actions.cancel") }));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.buyInSeat = null;
      this.send({ type: "sit", seat, buy_in: Number(input.value) });
    });
    return form;
  }

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    // Letters typed into a text or number field are not shortcuts; on a checkbox they are.
    const target = event.target;
    const typing = target && (target.tagName === "TEXTAREA" || target.tagName === "SELECT"
      || (target.tagName === "INPUT" && !["checkbox", "radio", "button", "submit"].includes(target.type)));
    if (typing) return;
    const key = event.key.toUpperCase();
    const button = [...this.area.querySelectorAll("[data-key]")].find((b) => b.dataset.key === key && !b.disabled);
    if (button) {
      event.preventDefault();
      button.click();
    }
  }
}
