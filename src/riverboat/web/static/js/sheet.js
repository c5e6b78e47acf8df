// The page's drawers: a modal <dialog> made here and appended to the body (no markup in
// index.html), with a heading, a Close button and a body; a full-screen sheet on phones.
// Its `hidden` attribute follows whether it is open, so the page's keys can ask.

// the dialog `id`, made once
/** @param {string} id @param {string} title @returns {HTMLDialogElement} */
export function sheet(id, title) {
  let dialog = /** @type {HTMLDialogElement | null} */ (document.getElementById(id));
  if (dialog) return dialog;
  dialog = document.createElement("dialog");
  dialog.id = id;
  dialog.className = "sheet";
  dialog.hidden = true;
  dialog.setAttribute("aria-labelledby", `${id}-title`);
  dialog.innerHTML = `<header class="sheet-head"><h2 id="${id}-title"></h2>` +
    `<button type="button" class="sheet-close" aria-label="Close">Close</button></header><div class="sheet-body"></div>`;
  /** @type {HTMLHeadingElement} */ (dialog.querySelector("h2")).textContent = title;
  /** @type {HTMLButtonElement} */ (dialog.querySelector(".sheet-close")).onclick = () => dialog.close();
  // the close event comes a task after the dialog closed: opened again meanwhile (Escape
  // then the drawer's key at once), it stays shown
  dialog.addEventListener("close", () => { if (!dialog.open) dialog.hidden = true; });
  // a tap on the backdrop (outside the sheet's box) closes it
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
  document.body.append(dialog);
  return dialog;
}

/** The sheet's body, made with it. @param {HTMLDialogElement} dialog */
export const sheetBody = (dialog) => /** @type {HTMLElement} */ (dialog.querySelector(".sheet-body"));

/** @param {HTMLDialogElement} dialog */
export function openSheet(dialog) {
  dialog.hidden = false;
  if (!dialog.open) dialog.showModal();
}

/** @param {HTMLDialogElement} dialog */
export function closeSheet(dialog) {
  if (dialog.open) dialog.close();
  dialog.hidden = true;
}
