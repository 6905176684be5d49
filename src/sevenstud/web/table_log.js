// The table's log in words, as a dealer would say it: "Ann brings in for 1", "Bob completes
// to 2", "Ann wins 12 from the main pot". It only words the server's events; the amounts and
// the hand names are the server's.
import { el, cardName } from "/web/common.js";
import { handName, t } from "/web/i18n.js";

const MAX_LINES = 200;
/** A seat sat out, by the engine's reason (table_events.SatOut): one sentence each. */
const SAT_OUT_KEYS = { asked: "log.sat_out", "time-outs": "log.sat_out_time_outs", "cannot post the ante": "log.sat_out_no_ante" };
const STREET_KEYS = { 3: "log.street3", 4: "log.street4", 5: "log.street5", 6: "log.street6", 7: "log.street7" };

function potName(pot) {
  return pot === 0 ? t("log.main_pot") : t("log.side_pot", { number: pot });
}

function cardsText(cards) {
  return cards.map((c) => (c ? cardName(c) : t("log.hidden_card"))).join(", ");
}

/** The words for one event, or null where a line would be noise (cards dealt, clocks). `name`
 *  turns a table seat into the player's name. */
export function eventWords(event, name) {
  const who = event.seat !== undefined ? name(event.seat) : "";
  switch (event.type) {
    case "sat_down":
      return t("log.sat_down", { player: event.player, seat: event.seat, amount: event.buy_in });
    case "topped_up":
      return t("log.topped_up", { player: event.player, amount: event.amount, stack: event.stack });
    case "sat_out":
      // The reason is the engine's code ("time-outs"), never shown as it is: a sentence each.
      return t(SAT_OUT_KEYS[event.reason] || "log.sat_out", { player: event.player });
    case "sat_in":
      return t("log.sat_in", { player: event.player });
    case "leaving":
      return t("log.leaving", { player: event.player });
    case "stood_up":
      return t("log.stood_up", { player: event.player, stack: event.stack });
    case "hand_started":
      return t("log.hand_started", { hand: event.hand, players: event.players.join(", ") });
    case "timed_out":
      return t("log.timed_out", { name: event.player });
    case "ante_posted":
      return t("log.ante", { name: who, amount: event.amount }) + (event.all_in ? t("log.all_in") : "");
    case "street_started":
      return event.street > 3 ? (STREET_KEYS[event.street] ? t(STREET_KEYS[event.street]) : t("log.street", { street: event.street })) : null;
    case "community_card_dealt":
      return t("log.community", { card: cardName(event.card) });
    case "action_taken":
      return actionWords(who, event);
    case "bet_returned":
      return t("log.returned", { amount: event.amount, name: who });
    case "hand_turned_up":
      return t("log.turned_up", { name: who, cards: cardsText(event.cards) });
    case "hand_shown": {
      const low = event.low ? t("log.low", { low: event.low }) : null;
      const names = [handName(event.high), low].filter(Boolean).join("; ");
      return t("log.shows", { name: who, cards: cardsText(event.cards) }) + (names ? ` (${names})` : "");
    }
    case "hand_mucked":
      return t("log.mucks", { name: who });
    case "rake_taken":
      return t("log.rake", { amount: event.amount });
    case "pot_awarded": {
      const half = event.share === "whole" ? "" : event.share === "high" ? t("log.high_half") : t("log.low_half");
      return t("log.wins", { who, amount: event.amount, pot: potName(event.pot) }) + half;
    }
    case "hand_ended":
      return t("log.hand_over");
    default:
      return null;
  }
}

function actionWords(who, event) {
  const action = event.action;
  const allIn = event.all_in ? t("log.all_in") : "";
  switch (action.kind) {
    // the sentences are the server's (sevenstud.wording.PAGE), its placeholders too
    case "fold": return t("log.folds", { name: who });
    case "check": return t("log.checks", { name: who });
    case "call": return t("log.calls", { name: who, chips: event.chips }) + allIn;
    case "bring-in": return t("log.brings_in", { name: who, amount: action.amount }) + allIn;
    case "complete": return t("log.completes", { name: who, amount: action.amount }) + allIn;
    case "bet": return t("log.bets", { name: who, amount: action.amount }) + allIn;
    case "raise": return t("log.raises", { name: who, amount: action.amount }) + allIn;
    case "show": return t("log.shows_hand", { name: who });
    case "muck": return t("log.mucks", { name: who });
    default: return `${who}: ${action.kind}`;
  }
}

/** The log list: `add(event, name)` writes a line for an event that has words. */
export function makeLog(list) {
  return {
    add(event, name) {
      const words = eventWords(event, name);
      if (!words) return;
      list.append(el("li", { text: words }));
      while (list.children.length > MAX_LINES) list.firstElementChild.remove();
      list.parentElement.scrollTop = list.parentElement.scrollHeight;
    },
    note(words) {
      list.append(el("li", { class: "note", text: words }));
      list.parentElement.scrollTop = list.parentElement.scrollHeight;
    },
  };
}
