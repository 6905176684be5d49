// Redrawing a tournament page's parts (they are read again every second or two) without
// taking a keyboard user's focus away: a part is drawn again only when what it shows changed,
// and a control that had the focus hands it to the control drawn in its place (the same
// data-testid, or the same data-focus-as, in the same tournament's row).

const drawnFor = new WeakMap(); // box -> the signature it was last drawn for

/** The focused control inside `box`, as a selector that finds its redrawn self; null: none. */
function focusedKey(box) {
  const active = document.activeElement;
  if (!active || active === document.body || !box.contains(active)) return null;
  // data-focus-as: controls that stand in for each other (Register, then Unregister in its place).
  const as = active.getAttribute("data-focus-as");
  const id = active.getAttribute("data-testid");
  if (!as && !id) return null;
  const row = active.closest("[data-tournament]");
  const within = row ? `[data-tournament="${row.getAttribute("data-tournament")}"] ` : "";
  return as ? `${within}[data-focus-as="${as}"]` : `${within}[data-testid="${id}"]`;
}

/** Run `redraw()` when `signature` differs from the one `box` was drawn for, keeping the
 *  focus on the control that had it (drawn anew). */
export function redrawKeepingFocus(box, signature, redraw) {
  if (drawnFor.get(box) === signature) return;
  drawnFor.set(box, signature);
  const key = focusedKey(box);
  redraw();
  if (key && !box.contains(document.activeElement)) {
    const again = box.querySelector(key);
    if (again) again.focus({ preventScroll: true });
  }
}
