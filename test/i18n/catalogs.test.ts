import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { REASONS } from "../../src/domain/errors.js";
import { SHIPPED_LANGUAGES } from "../../src/i18n/languages.js";

// Every catalog area (src/i18n/catalogs/<area>/<language>.json) must have, in every shipped
// language, exactly English's keys, each a valid ICU message with English's arguments; and
// every key must be used by the code (a quoted literal under src/), so words neither go
// missing in one language nor linger after the page that showed them is gone.

const root = join(import.meta.dirname, "../../src/i18n/catalogs");
const areas = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory());

function load(area: string, language: string): Record<string, string> {
  return JSON.parse(readFileSync(join(root, area, `${language}.json`), "utf8")) as Record<string, string>;
}

function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (
      element.type === TYPE.argument ||
      element.type === TYPE.number ||
      element.type === TYPE.date ||
      element.type === TYPE.time
    ) {
      into.add(element.value);
    } else if (element.type === TYPE.plural || element.type === TYPE.select) {
      into.add(element.value);
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    } else if (element.type === TYPE.tag) {
      argumentsOf(element.children, into);
    }
  }
  return into;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

describe("message catalogs", () => {
  it("has at least the pages, messages and reasons areas", () => {
    expect(areas).toEqual(expect.arrayContaining(["messages", "pages", "reasons"]));
  });

  // The words for the API's error reasons live in one area, read by the hosted pages
  // (src/pages-route/words.ts) and the SDK's errorMessage alike, so the two never disagree.
  describe("reasons", () => {
    const english = load("reasons", "en");

    it("has one key per reason of src/domain/errors.ts, and no other", () => {
      const keys = Object.keys(english);
      const expected = REASONS.map((reason) => `reason.${reason}`);
      const missing = expected.filter((key) => !keys.includes(key));
      const extra = keys.filter((key) => !expected.includes(key));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it("words every reason without arguments or ICU syntax, so the SDK shows them as written", () => {
      for (const language of SHIPPED_LANGUAGES) {
        for (const [key, value] of Object.entries(load("reasons", language))) {
          expect(parse(value, { ignoreTag: true }), `${language} ${key}`).toEqual([{ type: TYPE.literal, value }]);
        }
      }
    });

    it("is the only area with reason words", () => {
      const elsewhere = areas
        .filter((area) => area !== "reasons")
        .flatMap((area) => Object.keys(load(area, "en")).filter((key) => key.startsWith("reason.")));
      expect(elsewhere).toEqual([]);
    });
  });

  const source = sourceFiles(join(import.meta.dirname, "../../src"))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");

  for (const area of areas) {
    describe(area, () => {
      const english = load(area, "en");

      it("has English words for every key", () => {
        expect(Object.keys(english).length).toBeGreaterThan(0);
        for (const [key, value] of Object.entries(english)) expect(value.trim(), key).not.toBe("");
      });

      for (const language of SHIPPED_LANGUAGES.filter((l) => l !== "en")) {
        it(`${language} has exactly English's keys, with the same arguments`, () => {
          const catalog = load(area, language);
          const missing = Object.keys(english).filter((key) => !(key in catalog));
          const extra = Object.keys(catalog).filter((key) => !(key in english));
          expect({ missing, extra }).toEqual({ missing: [], extra: [] });
          for (const [key, value] of Object.entries(catalog)) {
            expect(value.trim(), `${language} ${key}`).not.toBe("");
            const own = [...argumentsOf(parse(value, { ignoreTag: true }))].sort();
            const englishArgs = [...argumentsOf(parse(english[key], { ignoreTag: true }))].sort();
            expect(own, `${language} ${key}`).toEqual(englishArgs);
          }
        });
      }

      it("uses every key somewhere under src/", () => {
        // `reason.<REASON>` keys are the words for API.md's error reasons, looked up by reason.
        const used = (key: string) =>
          key.startsWith("reason.")
            ? (REASONS as readonly string[]).includes(key.slice("reason.".length))
            : source.includes(`"${key}"`) || source.includes(`'${key}'`);
        const unused = Object.keys(english).filter((key) => !used(key));
        expect(unused, `unused keys in ${relative(process.cwd(), join(root, area))}`).toEqual([]);
      });
    });
  }
});
