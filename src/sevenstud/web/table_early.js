// What the table page starts before its modules are fetched (a classic async script, first in
// the page's head): the table's websocket, with its hello, and the page's own language catalog.
// The first view then comes side by side with the modules instead of after them (the modules
// took 150-250 ms to arrive on a busy machine, and the socket's open, hello and first view
// another 50-100 ms after them). table.js takes the socket over when it runs (takeEarly), and
// is given every message that came before, in order; it opens a socket of its own when there
// is none to take (a closed one, an address that is no table, another language).
(() => {
  // Come after table.js had to connect by itself (this file was slower than the modules):
  // nothing to do, and a second socket would be one too many.
  if ("sevenstudEarly" in window) return;
  const tableId = Number(location.pathname.split("/").filter(Boolean).pop());
  if (!Number.isInteger(tableId) || tableId <= 0) return;
  // The language i18n.js will choose (the one chosen here before, else the browser's first
  // of ours): the server's sentences follow the hello's. table.js checks that they agree.
  const ours = ["en", "uk", "ru", "et"];
  const of = (tag) => {
    const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
    return ours.includes(base) ? base : null;
  };
  let stored = null;
  try {
    stored = localStorage.getItem("sevenstud.lang");
  } catch {
    stored = null;
  }
  const lang = of(stored) || (navigator.languages || [navigator.language]).map(of).find(Boolean) || "en";
  if (lang !== "en") {
    // The page's catalog fetched now, beside the English one the page preloads (i18n.js asks
    // for both; the same request is then answered from this one).
    const link = document.createElement("link");
    link.rel = "preload";
    link.as = "fetch";
    link.crossOrigin = "anonymous";
    link.href = `/web/i18n/${lang}.json`;
    document.head.append(link);
  }
  const spectator = new URLSearchParams(location.search).get("watch") === "1";
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let socket;
  try {
    socket = new WebSocket(`${scheme}://${location.host}/ws`);
  } catch {
    return;
  }
  const early = { socket, lang, spectator, tableId, messages: [], sink: null };
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", version: 1, table: tableId, last: 0, views: true, lang }));
  });
  socket.addEventListener("message", (message) => {
    if (early.sink) early.sink(message);
    else early.messages.push(message);
  });
  window.sevenstudEarly = early;
})();
