// Redrawing a part of the page keeps the keyboard's place.

// a part of the page drawn again keeps the keyboard's place: the control that had the
// focus (matched by `selector` and a data attribute) gets it back
/**
 * @param {HTMLElement} container the part drawn again; its children are the controls
 * @param {string} attribute the data attribute that names a control (`dataset` key)
 * @param {() => void} draw
 */
export function keepFocus(container, attribute, draw) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const had = active && container.contains(active) ? active.dataset[attribute] : undefined;
  draw();
  if (had === undefined) return;
  const again = [.../** @type {HTMLCollectionOf<HTMLElement>} */ (container.children)].find((element) => element.dataset[attribute] === had);
  if (again) again.focus();
}
