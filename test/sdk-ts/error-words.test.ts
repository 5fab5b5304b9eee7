import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { authClients, errorMessage, errorReason, nodeTransport } from "../../sdk/ts/src/node.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import type { TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";

// The SDK's words for an error reason are the catalog the hosted pages show
// (src/i18n/catalogs/reasons): the expectations read the catalog itself, so a reworded
// message changes the test with it.

const CATALOGS = join(import.meta.dirname, "../../src/i18n/catalogs/reasons");
const words = (language: string) =>
  JSON.parse(readFileSync(join(CATALOGS, `${language}.json`), "utf8")) as Record<string, string>;

describe("the TypeScript SDK's errorMessage", () => {
  let server: TestServer;
  let app: AuthFixture;
  let refused: unknown;

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    const { email, password } = await app.signup();
    const { auth } = authClients(nodeTransport(server.url), app.key);
    refused = await auth.login({ email, password: `${password} but wrong` }).then(
      () => undefined,
      (error: unknown) => error,
    );
  });
  afterAll(() => server?.stop());

  it("words a wrong password in the language asked for, as the catalog does", () => {
    expect(errorReason(refused)).toBe("INVALID_CREDENTIALS");
    expect(errorMessage(refused, "es")).toBe(words("es")["reason.INVALID_CREDENTIALS"]);
    expect(errorMessage(refused, "es")).toBe("El correo electrónico y la contraseña no coinciden.");
  });

  it("reads a regional tag as its language, and English for a language Gatehouse does not ship", () => {
    expect(errorMessage(refused, "de-AT")).toBe(words("de")["reason.INVALID_CREDENTIALS"]);
    expect(errorMessage(refused, "fr-CA")).toBe(words("fr")["reason.INVALID_CREDENTIALS"]);
    expect(errorMessage(refused, "ar")).toBe(words("ar")["reason.INVALID_CREDENTIALS"]);
    expect(errorMessage(refused, "ja")).toBe(words("en")["reason.INVALID_CREDENTIALS"]);
    expect(errorMessage(refused, "not a tag")).toBe(words("en")["reason.INVALID_CREDENTIALS"]);
    expect(errorMessage(refused)).toBe("That email and password don't match.");
  });

  it("has no words for an error that is not Gatehouse's", () => {
    expect(errorMessage(new Error("socket hang up"), "es")).toBeUndefined();
    expect(errorMessage(new ConnectError("bad gateway", Code.Unavailable), "es")).toBeUndefined();
    expect(errorMessage(undefined)).toBeUndefined();
  });
});
