// The table's log in words, as a dealer would say it: "Ann brings in for 1", "Bob completes
// to 2", "Ann wins 12 from the main pot". It only words the server's events; the amounts and
// the hand names are the server's.
import { el, cardName } from "/web/common.js";

const MAX_LINES = 200;
const STREET_NAMES = { 3: "Third street", 4: "Fourth street", 5: "Fifth street", 6: "Sixth street", 7: "Seventh street" };

function potName(pot) {
  return pot === 0 ? "the main pot" : `side pot ${pot}`;
}

function cardsText(cards) {
  return cards.map((c) => (c ? cardName(c) : "a hidden card")).join(", ");
}

/** The words for one event, or null where a line would be noise (cards dealt, clocks). `name`
 *  turns a table seat into the player's name. */
export function eventWords(event, name) {
  const who = event.seat !== undefined ? name(event.seat) : "";
  switch (event.type) {
    case "sat_down":
      return `${event.player} sits down in seat ${event.seat} with ${event.buy_in}`;
    case "topped_up":
      return `${event.player} tops up ${event.amount} (stack ${event.stack})`;
    case "sat_out":
      return event.reason === "asked" ? `${event.player} sits out` : `${event.player} sits out (${event.reason})`;
    case "sat_in":
      return `${event.player} sits in`;
    case "leaving":
      return `${event.player} will leave when the hand ends`;
    case "stood_up":
      return `${event.player} stands up with ${event.stack}`;
    case "hand_started":
      return `Hand ${event.hand} is dealt to ${event.players.join(", ")}`;
    case "timed_out":
      return `${event.player} ran out of time`;
    case "ante_posted":
      return `${who} antes ${event.amount}${event.all_in ? ", all in" : ""}`;
    case "street_started":
      return event.street > 3 ? STREET_NAMES[event.street] || `Street ${event.street}` : null;
    case "community_card_dealt":
      return `The community card for everybody: ${cardName(event.card)}`;
    case "action_taken":
      return actionWords(who, event);
    case "bet_returned":
      return `${event.amount} returned to ${who}`;
    case "hand_turned_up":
      return `${who}'s hand is turned up: ${cardsText(event.cards)}`;
    case "hand_shown": {
      const names = [event.high, event.low ? `low ${event.low}` : null].filter(Boolean).join("; ");
      return `${who} shows ${cardsText(event.cards)}${names ? ` (${names})` : ""}`;
    }
    case "hand_mucked":
      return `${who} mucks`;
    case "rake_taken":
      return `The house rakes ${event.amount}`;
    case "pot_awarded": {
      const half = event.share === "whole" ? "" : ` (the ${event.share} half)`;
      return `${who} wins ${event.amount} from ${potName(event.pot)}${half}`;
    }
    case "hand_ended":
      return "The hand is over";
    default:
      return null;
  }
}

function actionWords(who, event) {
  const action = event.action;
  const allIn = event.all_in ? ", all in" : "";
  switch (action.kind) {
    case "fold": return `${who} folds`;
    case "check": return `${who} checks`;
    case "call": return `${who} calls ${event.chips}${allIn}`;
    case "bring-in": return `${who} brings in for ${action.amount}${allIn}`;
    case "complete": return `${who} completes to ${action.amount}${allIn}`;
    case "bet": return `${who} bets ${action.amount}${allIn}`;
    case "raise": return `${who} raises to ${action.amount}${allIn}`;
    case "show": return `${who} shows`;
    case "muck": return `${who} mucks`;
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
