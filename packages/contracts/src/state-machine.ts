/** Status machines are data: `{ from, action, to, who }` rows (STYLE.md "Shared rules as data"). */
export interface Transition<S extends string, A extends string, W extends string> {
  from: S;
  action: A;
  to: S;
  who: readonly W[];
}

export interface StateMachine<S extends string, A extends string, W extends string> {
  transitions: readonly Transition<S, A, W>[];
  /** The transition for this action from this status by one of these actors, or undefined. */
  find(from: S, action: A, actor: W | readonly W[]): Transition<S, A, W> | undefined;
  /** Actions this actor may take from this status, for the UI. */
  actions(from: S, actor: W | readonly W[]): A[];
}

export function defineStateMachine<S extends string, A extends string, W extends string>(
  transitions: readonly Transition<S, A, W>[],
): StateMachine<S, A, W> {
  const allowed = (t: Transition<S, A, W>, actor: W | readonly W[]) =>
    typeof actor === 'string' ? t.who.includes(actor) : actor.some((a) => t.who.includes(a));
  return {
    transitions,
    find: (from, action, actor) =>
      transitions.find((t) => t.from === from && t.action === action && allowed(t, actor)),
    actions: (from, actor) => [
      ...new Set(transitions.filter((t) => t.from === from && allowed(t, actor)).map((t) => t.action)),
    ],
  };
}
