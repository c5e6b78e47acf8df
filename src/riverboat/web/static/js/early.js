// A classic script, loaded in <head> before the body: the classes js/settings.js keeps
// for the player's speed, motion and card back go on <html> before the table first
// paints, so a fast or reduced-motion player never sees a first deal at the old pace
// nor a red back turn blue. The settings module applies them again once it runs.
(function () {
  try {
    var look = localStorage.getItem("riverboat-look") || "";
    var classes = look.split(" ").filter(function (name) { return /^[a-z-]{1,20}$/.test(name); });
    if (classes.length) document.documentElement.classList.add.apply(document.documentElement.classList, classes);
  } catch (error) { /* storage refused: the defaults */ }
})();
