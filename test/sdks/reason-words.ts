import { readFileSync } from "node:fs";
import { resolve } from "node:path";

// What the SDK tests expect an error's words to be: the reasons catalogs themselves
// (src/i18n/catalogs/reasons), so a reworded message changes the expectation with it.

const CATALOGS = resolve(import.meta.dirname, "../../src/i18n/catalogs/reasons");

/** The tags the SDK programs word a refusal in, each with the catalog it must read. */
export const LANGUAGE_TAGS: Readonly<Record<string, string>> = {
  de: "de",
  // A regional tag reads its language.
  "fr-CA": "fr",
  // A language Gatehouse does not ship reads English.
  "pt-BR": "en",
};

/** The catalogs' words for `reason` in the language of each of LANGUAGE_TAGS, by tag. */
export function catalogWords(reason: string): Record<string, string> {
  const words = (language: string) =>
    (JSON.parse(readFileSync(`${CATALOGS}/${language}.json`, "utf8")) as Record<string, string>)[`reason.${reason}`];
  return Object.fromEntries(Object.entries(LANGUAGE_TAGS).map(([tag, language]) => [tag, words(language)]));
}

/** The JSON after `prefix` on the first output line starting with it (words hold spaces). */
export function jsonAfter(stdout: string, prefix: string): unknown {
  const line = stdout.split("\n").find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : JSON.parse(line.slice(prefix.length));
}
