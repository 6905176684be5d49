// The "How to play" pages, /rules (the games) and /rules/{game}: each game's rules in the
// page's language (written from docs/rules.md), with small pictures of cards drawn as the
// table draws them: who brings in, who acts first on 4th street, how the pot is won (the hi/lo
// split in hi/lo) and the community card. The words and the pictures' captions are the
// catalog's (rules.<game>.*); the pictures' cards are this page's examples.
import { applySettings, cardElement, el, me, siteHeader } from "/web/common.js";
import { gameName, t, translatePage } from "/web/i18n.js";

const GAMES = ["stud8", "stud", "razz"];
const code = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const $ = (id) => document.getElementById(id);

// Each picture: boards of cards ([card, down]), the board the rule marks, and its caption.
const DOWN = true;
const PICTURES = {
  stud8: {
    bring_in: { boards: [[["9h"]], [["2c"]], [["Ks"]]], marked: 1 },
    first: { boards: [[["9h"], ["9d"]], [["As"], ["Ks"]], [["2c"], ["7d"]]], marked: 0 },
    showdown: {
      boards: [
        [["Kc", DOWN], ["Kd", DOWN], ["Kh"], ["9s"], ["9d"], ["3c"], ["Qh", DOWN]],
        [["Ac", DOWN], ["2d", DOWN], ["5h"], ["7s"], ["4c"], ["Jd"], ["Jc", DOWN]],
      ],
      marked: null,
    },
  },
  stud: {
    bring_in: { boards: [[["9h"]], [["2c"]], [["Ks"]]], marked: 1 },
    first: { boards: [[["9h"], ["9d"]], [["As"], ["Ks"]], [["2c"], ["7d"]]], marked: 0 },
    showdown: {
      boards: [
        [["Kc", DOWN], ["Kd", DOWN], ["Kh"], ["9s"], ["9d"], ["3c"], ["Qh", DOWN]],
        [["Ac", DOWN], ["2d", DOWN], ["5h"], ["7s"], ["4c"], ["Jd"], ["Jc", DOWN]],
      ],
      marked: 0,
    },
  },
  razz: {
    bring_in: { boards: [[["5h"]], [["Kc"]], [["2s"]]], marked: 1 },
    first: { boards: [[["9h"], ["9d"]], [["As"], ["3d"]], [["Kc"], ["7d"]]], marked: 1 },
    showdown: {
      boards: [
        [["Kc", DOWN], ["Kd", DOWN], ["Kh"], ["9s"], ["9d"], ["3c"], ["Qh", DOWN]],
        [["Ac", DOWN], ["2d", DOWN], ["5h"], ["7s"], ["4c"], ["Jd"], ["Jc", DOWN]],
      ],
      marked: 1,
    },
  },
};
// Eight players on 6th street leave too few cards for 7th: one card up in the middle, for all.
const COMMUNITY = { boards: [[["Ah", DOWN], ["3d", DOWN], ["5c"], ["8s"], ["Td"], ["4h"]], [["Qs", DOWN], ["Qd", DOWN], ["Jc"], ["Jh"], ["2s"], ["6d"]]], middle: "7c" };

function board(cards, who, marked, note) {
  const row = el("span", { class: "cards" });
  for (const [card, down] of cards) row.append(cardElement(card, { down: Boolean(down) }));
  return el("div", { class: `board${marked ? " marked" : ""}` },
    el("span", { class: "who", text: who }), row, note ? el("span", { class: "note", text: note }) : null);
}

function picture(spec, caption, testid) {
  const boards = el("div", { class: "boards" });
  spec.boards.forEach((cards, i) => {
    const marked = spec.marked === i;
    boards.append(board(cards, t(`rules.name${i + 1}`), marked, marked ? t("rules.marked") : null));
  });
  if (spec.middle) {
    boards.append(el("div", { class: "board marked" },
      el("span", { class: "who", text: t("rules.middle") }),
      el("span", { class: "cards" }, cardElement(spec.middle)),
      el("span", { class: "note", text: t("rules.everybody") })));
  }
  return el("figure", { "data-testid": testid }, boards, el("figcaption", { text: caption }));
}

function section(id, heading, paragraphs, figure) {
  return el("section", { "aria-labelledby": `h-${id}`, "data-testid": `rules-${id}` },
    el("h2", { id: `h-${id}`, text: heading }),
    ...paragraphs.map((text) => el("p", { text })),
    figure);
}

function gameLinks() {
  const nav = document.querySelector(".games");
  for (const game of GAMES) {
    const link = el("a", { href: `/rules/${game}`, "data-testid": `rules-link-${game}`, text: gameName(game) });
    if (game === code) link.setAttribute("aria-current", "page");
    nav.append(link);
  }
}

function rulesOf(game) {
  const title = t("rules.title", { game: gameName(game) });
  $("rules-title").textContent = title;
  document.title = t("rules.page_title", { game: gameName(game) });
  const pictures = PICTURES[game];
  return [
    section("goal", t("rules.h_goal"), [t(`rules.${game}.goal`)]),
    section("deal", t("rules.h_deal"), [t("rules.deal"), t("rules.limits")]),
    section("bring-in", t("rules.h_bring_in"), [t(`rules.${game}.bring_in`)],
      picture(pictures.bring_in, t(`rules.${game}.pic_bring_in`), "picture-bring-in")),
    section("first", t("rules.h_first"), [t(`rules.${game}.first`)],
      picture(pictures.first, t(`rules.${game}.pic_first`), "picture-first")),
    section("showdown", t(`rules.${game}.h_showdown`), [t(`rules.${game}.showdown`)],
      picture(pictures.showdown, t(`rules.${game}.pic_showdown`), "picture-showdown")),
    section("community", t("rules.h_community"), [t("rules.community")],
      picture(COMMUNITY, t("rules.pic_community"), "picture-community")),
  ];
}

async function start() {
  translatePage();
  applySettings();
  let account = null;
  try {
    account = await me();
  } catch {
    account = null;
  }
  $("header-slot").replaceWith(siteHeader(account));
  gameLinks();
  const body = $("rules-body");
  if (GAMES.includes(code)) {
    body.replaceChildren(...rulesOf(code));
  } else {
    body.replaceChildren(el("p", { text: t("rules.choose") }));
  }
  document.body.dataset.ready = "1";
}

start();
