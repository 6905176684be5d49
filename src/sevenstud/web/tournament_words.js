// A tournament's clock and level in words, shared by its page (tournament.js) and the bar of
// its tables (tournament_bar.js), in the page's language.
import { number, t } from "/web/i18n.js";

/** Seconds as a clock says them ("4:05"). */
export function clockWords(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A level's stakes ("ante 5, bring-in 10, 20/40"). */
export function levelWords(level) {
  return t("tournament.level_words", {
    ante: number(level.ante), bring_in: number(level.bring_in),
    small: number(level.small_bet), big: number(level.big_bet),
  });
}
