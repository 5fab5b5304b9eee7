// The console's component model (docs/console.md, "How a screen is built"). A component is a
// function from its props to the element it draws, built with `h` from text nodes only; what
// it does goes out through a callback in its props (onSignOut, onTurn, onConfirm, onChoose),
// never to a global, so a screen is a composition of components and each one can be drawn and
// driven on its own: test/pages/unit does so under happy-dom, with no browser and no server.
// A component that changes as it is used (a list turning pages, a question asked in place)
// keeps its state in a closure and redraws its own root with `stateful`; only the shell reads
// the address or the document's #app.
import { h } from "../../shared/dom.js";

/** A component: props in, one element out. */
export type Component<P> = (props: P) => HTMLElement;

export interface ButtonProps {
  label: string;
  onClick(): void;
  kind?: "primary" | "secondary" | "danger";
  /** The console's row-sized buttons. */
  small?: boolean;
  /** The name a screen reader gives when the label alone is ambiguous (one per table row). */
  ariaLabel?: string;
}

/** A button that does something in the page (type "button": it never submits a form). */
export function button({
  label,
  onClick,
  kind = "secondary",
  small = false,
  ariaLabel,
}: ButtonProps): HTMLButtonElement {
  const element = h(
    "button",
    { type: "button", class: small ? `${kind} small` : kind, "aria-label": ariaLabel },
    label,
  );
  element.addEventListener("click", onClick);
  return element;
}

export interface Stateful<S> {
  readonly state: Readonly<S>;
  /** Merges `change` into the state and draws `root` again. */
  set(change: Partial<S>): void;
}

/**
 * Keeps a component's state and draws `root` from it, now and after each `set`: the drawing is
 * a function of the state alone, so what a test reads after an event is what the state says.
 */
export function stateful<S extends object>(
  root: HTMLElement,
  initial: S,
  draw: (state: Readonly<S>) => Node[],
): Stateful<S> {
  let state = initial;
  root.replaceChildren(...draw(state));
  return {
    get state() {
      return state;
    },
    set(change) {
      state = { ...state, ...change };
      root.replaceChildren(...draw(state));
    },
  };
}
