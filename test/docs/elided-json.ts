import { expect } from "vitest";

// The example answers in the docs are JSON with parts left out, written `…`: inside a string it
// stands for characters (`"pkc_…"`, `"…"`), as an object member for more members (`{…,"a":1}`),
// as an array element for more elements (`["…-…",…]`). `readElided` reads such an example;
// `expectAnswerLike` holds a live answer to it: the same members in the same order where none is
// left out, the ones shown in their order where some are, and every value shown as it is.

const MORE = "\u0000more";

/** Parses an example answer, `…` members and elements becoming markers. */
export function readElided(text: string): unknown {
  let out = "";
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") open.push(c);
    else if (c === "}" || c === "]") open.pop();
    else if (c === "…") {
      // Written as JSON's escape: the marker's NUL cannot stand in JSON text as it is.
      out += open.at(-1) === "{" ? `"\\u0000more":true` : `"\\u0000more"`;
      continue;
    }
    out += c;
  }
  return JSON.parse(out);
}

/** Whether `actual` is a string of the example's shape, each `…` standing for any characters. */
function globMatches(example: string, actual: string): boolean {
  const pattern = example
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  return new RegExp(`^${pattern}$`).test(actual);
}

/** Asserts `actual` is what the example shows; `where` names the spot in a failure. */
export function expectAnswerLike(example: unknown, actual: unknown, where = "answer"): void {
  if (typeof example === "string") {
    expect(typeof actual, where).toBe("string");
    expect(globMatches(example, actual as string), `${where}: ${JSON.stringify(actual)} is not like "${example}"`).toBe(
      true,
    );
    return;
  }
  if (Array.isArray(example)) {
    expect(Array.isArray(actual), `${where} is an array`).toBe(true);
    const list = actual as unknown[];
    const shown = example.filter((e) => e !== MORE);
    if (shown.length === example.length) expect(list.length, `${where}: its length`).toBe(shown.length);
    else expect(list.length, `${where}: at least the elements shown`).toBeGreaterThanOrEqual(shown.length);
    shown.forEach((e, i) => expectAnswerLike(e, list[i], `${where}[${i}]`));
    return;
  }
  if (example !== null && typeof example === "object") {
    expect(actual !== null && typeof actual === "object" && !Array.isArray(actual), `${where} is an object`).toBe(true);
    const record = actual as Record<string, unknown>;
    const keys = Object.keys(example).filter((k) => k !== MORE);
    const elided = keys.length < Object.keys(example).length;
    const order = Object.keys(record).filter((k) => (elided ? keys.includes(k) : true));
    expect(order, `${where}: its members, in order`).toEqual(keys);
    for (const key of keys) expectAnswerLike((example as Record<string, unknown>)[key], record[key], `${where}.${key}`);
    return;
  }
  expect(actual, where).toEqual(example);
}
