import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { SHIPPED_LANGUAGES } from "../../src/i18n/languages.js";

// The Python and Go helpers ship copies of the error reasons' words (error_message,
// ErrorMessage), which scripts/generate-sdks.mjs writes from src/i18n/catalogs/reasons. A
// catalog edited without `npm run generate` fails here, so an SDK never words an error
// otherwise than the hosted pages do. Read from the files: no toolchain needed.
const ROOT = resolve(import.meta.dirname, "../..");
const SOURCE = join(ROOT, "src/i18n/catalogs/reasons");
const COPIES = ["sdk/python/gatehouse_sdk/words", "sdk/go/gatehouse/words"];

const jsonFiles = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort();

describe("the SDKs' copies of the reasons catalogs", () => {
  it("the source holds one catalog per shipped language", () => {
    expect(jsonFiles(SOURCE)).toEqual(SHIPPED_LANGUAGES.map((language) => `${language}.json`).sort());
  });

  for (const copy of COPIES)
    it(`${copy} holds exactly the catalogs, byte for byte (run npm run generate after editing one)`, () => {
      const dir = join(ROOT, copy);
      expect(readdirSync(dir).sort()).toEqual(jsonFiles(SOURCE));
      for (const file of jsonFiles(SOURCE))
        expect(readFileSync(join(dir, file), "utf8"), `${copy}/${file}`).toBe(readFileSync(join(SOURCE, file), "utf8"));
    });
});
