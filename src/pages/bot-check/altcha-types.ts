// The parts of the ALTCHA widget's API the pages use, typed here: the package's declarations
// (altcha/dist/types) import their siblings without file extensions, which NodeNext resolution
// does not follow, so its global `$altcha` and the element's methods never reach the compiler.

/** <altcha-widget>, once mounted (its methods appear then; it says so with a `load` event). */
export interface AltchaWidgetElement extends HTMLElement {
  getState?: () => "code" | "error" | "verified" | "verifying" | "unverified" | "expired";
  reset: () => void;
  configure: (config: Record<string, unknown>) => Promise<void>;
  verify: () => Promise<{ payload: string } | null>;
}

declare global {
  var $altcha: {
    /** Workers by challenge algorithm. */
    algorithms: Map<string, () => Worker>;
    /** Configuration every widget starts from. */
    defaults: { set(config: Record<string, unknown>): void };
  };
}
