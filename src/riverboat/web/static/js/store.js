// A store: one object of state that any module reads, changed only through named
// actions, and views that subscribe to the keys they draw. After the actions of one
// task, each view whose keys changed is drawn once (on a microtask, before the
// browser paints), so no change can forget its redraw.
//
//   const store = createStore({ count: 0, label: "" });
//   store.watch(["count"], () => { counter.textContent = String(store.state.count); });
//   store.act("increment", { count: store.state.count + 1 });  // drawn once, soon

/**
 * @template {object} S
 * @typedef {object} Store
 * @property {Readonly<S>} state what the page knows now: read it anywhere, change it only with `act`
 * @property {(name: string, changes: Partial<S>) => void} act a named action: the keys it changes, drawn soon
 * @property {(keys: (keyof S)[], draw: () => void) => void} watch `draw` runs after any action that changes one of `keys`
 * @property {() => void} flush draws what is due now (for code that reads the page right after an action)
 * @property {readonly string[]} actions the names of the last actions, newest last (for tests and bug reports)
 */

const KEPT_ACTIONS = 40;

/**
 * @template {object} S
 * @param {S} initial
 * @returns {Store<S>}
 */
export function createStore(initial) {
  const state = { ...initial };
  /** @type {{ keys: (keyof S)[], draw: () => void }[]} */
  const views = [];
  /** @type {Set<keyof S>} */
  let changed = new Set();
  let due = false;
  /** @type {string[]} */
  const actions = [];

  function flush() {
    due = false;
    const keys = changed;
    changed = new Set();
    for (const view of views) {
      if (!view.keys.some((key) => keys.has(key))) continue;
      try {
        view.draw();
      } catch (error) { reportError(error); }  // one view's bug leaves the others drawn
    }
  }

  /** @param {string} name @param {Partial<S>} changes */
  function act(name, changes) {
    actions.push(name);
    if (actions.length > KEPT_ACTIONS) actions.shift();
    for (const key of /** @type {(keyof S)[]} */ (Object.keys(changes))) {
      const value = /** @type {S[keyof S]} */ (changes[key]);
      if (Object.is(state[key], value)) continue;
      state[key] = value;
      changed.add(key);
    }
    if (changed.size && !due) {
      due = true;
      queueMicrotask(() => { if (due) flush(); });
    }
  }

  /** @param {(keyof S)[]} keys @param {() => void} draw */
  function watch(keys, draw) { views.push({ keys, draw }); }

  return { state, act, watch, flush, actions };
}
