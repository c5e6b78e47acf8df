// Redrawing a part of the page keeps the keyboard's place.

// a part of the page drawn again keeps the keyboard's place: the control that had the
// focus (matched by `selector` and a data attribute) gets it back
export function keepFocus(container, attribute, draw) {
  const had = container.contains(document.activeElement) ? document.activeElement.dataset[attribute] : undefined;
  draw();
  if (had === undefined) return;
  const again = [...container.children].find((element) => element.dataset[attribute] === had);
  if (again) again.focus();
}
