/**
 * Freezes a value all the way down, for an object shared between calls that nothing may change
 * (an answer built once and handed to every caller).
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}
