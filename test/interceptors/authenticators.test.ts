import { describe, expect, it } from "vitest";
import { createContextValues } from "@connectrpc/connect";
import { getOption, type DescMethod } from "@bufbuild/protobuf";
import { AccountService } from "../../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import { access as accessExt, Credential } from "../../gen/gatehouse/options/v1/options_pb.js";
import { DomainError } from "../../src/domain/errors.js";
import type { CredentialRequest } from "../../src/interceptors/authenticators/authenticator.js";
import { operatorAuthenticator } from "../../src/interceptors/authenticators/operator.js";
import { credentialTable, type CredentialDeps } from "../../src/interceptors/authenticators/table.js";
import { kOperator } from "../../src/interceptors/operator-credential.js";

// The credential table alone, as plain functions: which authenticator answers a request for each
// declared kind, and that a credential that is present but cannot be read is refused without a
// lookup and without falling back to another kind. Every dependency throws when called, so each
// case here decides on the headers alone. test/interceptors/credentials.test.ts checks the same
// rules through the router, against the database.

const CONSOLE = "https://gatehouse.test";

const untouched = (what: string) => () => {
  throw new Error(`${what} must not be called`);
};
const deps: CredentialDeps = {
  repos: {
    managementTokens: new Proxy({}, { get: (_t, name) => untouched(`managementTokens.${String(name)}`) }),
    projects: new Proxy({}, { get: (_t, name) => untouched(`projects.${String(name)}`) }),
  } as unknown as CredentialDeps["repos"],
  apiKeys: { findActiveApiKey: untouched("findActiveApiKey") },
  clock: { now: () => new Date() },
  userTokens: { verify: untouched("userTokens.verify") },
  accountOrigins: [CONSOLE],
  pages: { projects: { getByLoginId: untouched("getByLoginId") }, pagesOrigin: CONSOLE },
};
const table = credentialTable(deps);

/** Some RPC of either service that declares `kind`. */
function methodDeclaring(kind: Credential): DescMethod {
  const found = [...AccountService.methods, ...AuthService.methods].find(
    (m) => getOption(m, accessExt).credential === kind,
  );
  if (!found) throw new Error(`no RPC declares credential ${Credential[kind]}`);
  return found;
}

function request(kind: Credential, headers: Record<string, string>, operator = false): CredentialRequest {
  const method = methodDeclaring(kind);
  const header = new Headers(headers);
  const contextValues = createContextValues();
  if (operator) contextValues.set(kOperator, { account: "root", organizationId: "org_1" });
  return {
    method,
    access: getOption(method, accessExt),
    header,
    contextValues,
    record: undefined,
    origin: header.get("origin"),
    authorization: header.get("authorization"),
  };
}

function chosen(kind: Credential, headers: Record<string, string>, operator = false) {
  const row = table.get(kind);
  if (!row) throw new Error(`no row for ${Credential[kind]}`);
  const req = request(kind, headers, operator);
  const authenticator = row.accepted.find((a) => a.presented(req)) ?? row.otherwise;
  return { authenticator, req, row };
}

async function reason(kind: Credential, headers: Record<string, string>, operator = false): Promise<string> {
  const { authenticator, req } = chosen(kind, headers, operator);
  try {
    await authenticator.authenticate(req);
    return "passed";
  } catch (error) {
    if (error instanceof DomainError) return error.reason;
    throw error;
  }
}

const PROJECT_KINDS = [
  Credential.API_KEY,
  Credential.API_KEY_AND_USER_TOKEN,
  Credential.API_KEY_OPTIONAL_USER_TOKEN,
] as const;

describe("the credential table", () => {
  it("has a row for every declared kind but CREDENTIAL_UNSPECIFIED, which fails closed", () => {
    for (const kind of Object.values(Credential).filter((v): v is Credential => typeof v === "number")) {
      expect(table.has(kind), Credential[kind]).toBe(kind !== Credential.UNSPECIFIED);
    }
  });

  it.each(PROJECT_KINDS)("kind %s: an API key outranks the console's header, and that the pages'", (kind) => {
    const row = table.get(kind);
    // The CLI's operator comes first (its own test below); then the project's credentials.
    const [, apiKey, consoleCredential, page] = row?.accepted ?? [];
    const all = { "x-service-key": "k", "x-gatehouse-console": "c", "x-gatehouse-page": "p" };
    expect(chosen(kind, all).authenticator).toBe(apiKey);
    expect(chosen(kind, { "x-gatehouse-console": "c", "x-gatehouse-page": "p" }).authenticator).toBe(consoleCredential);
    expect(chosen(kind, { "x-gatehouse-page": "p" }).authenticator).toBe(page);
    expect(chosen(kind, {}).authenticator).toBe(row?.otherwise);
    expect(row?.otherwise).toBe(apiKey);
  });

  it("the CLI's operator is read first in every row, and is an administrator's management token only", async () => {
    const all = {
      "x-service-key": "k",
      "x-gatehouse-console": "c",
      "x-gatehouse-page": "p",
      authorization: "Bearer x",
    };
    for (const [kind, row] of table) {
      expect(row.accepted[0], Credential[kind]).toBe(operatorAuthenticator);
      expect(chosen(kind, all, true).authenticator, Credential[kind]).toBe(operatorAuthenticator);
      // Without the operator's context value no header selects it.
      expect(chosen(kind, all).authenticator, Credential[kind]).not.toBe(operatorAuthenticator);
      expect(await reason(kind, all, true), Credential[kind]).toBe(
        kind === Credential.MANAGEMENT_TOKEN ? "passed" : "MISSING_MANAGEMENT_TOKEN",
      );
    }
  });

  it.each(PROJECT_KINDS)("kind %s: no project credential is MISSING_API_KEY, a blank key too", async (kind) => {
    expect(await reason(kind, {})).toBe("MISSING_API_KEY");
    expect(await reason(kind, { "x-service-key": "  " })).toBe("MISSING_API_KEY");
    // A user token alone names no project.
    expect(await reason(kind, { authorization: "Bearer eyJ" })).toBe("MISSING_API_KEY");
  });

  it("the Account interface's token: missing, or present but not a bearer token, is refused without a lookup", async () => {
    expect(await reason(Credential.MANAGEMENT_TOKEN, {})).toBe("MISSING_MANAGEMENT_TOKEN");
    for (const authorization of ["Basic dTpw", "Bearer", "Bearer a b", "gmt_bare"]) {
      expect(await reason(Credential.MANAGEMENT_TOKEN, { authorization })).toBe("INVALID_MANAGEMENT_TOKEN");
      // Optional means "may be absent", never "ignored when unreadable".
      expect(await reason(Credential.OPTIONAL_MANAGEMENT_TOKEN, { authorization })).toBe("INVALID_MANAGEMENT_TOKEN");
    }
    expect(await reason(Credential.OPTIONAL_MANAGEMENT_TOKEN, {})).toBe("passed");
  });

  it("the Account interface judges the origin before the token", async () => {
    const foreign = { origin: "https://evil.test" };
    for (const kind of [Credential.NONE, Credential.MANAGEMENT_TOKEN, Credential.OPTIONAL_MANAGEMENT_TOKEN]) {
      expect(await reason(kind, foreign), Credential[kind]).toBe("ORIGIN_NOT_ALLOWED");
      expect(await reason(kind, { ...foreign, authorization: "Basic x" }), Credential[kind]).toBe("ORIGIN_NOT_ALLOWED");
    }
    expect(await reason(Credential.NONE, { origin: CONSOLE })).toBe("passed");
    expect(await reason(Credential.MANAGEMENT_TOKEN, { origin: CONSOLE })).toBe("MISSING_MANAGEMENT_TOKEN");
  });

  it("a public RPC reads no Authorization header", async () => {
    expect(await reason(Credential.NONE, { authorization: "Basic x" })).toBe("passed");
  });

  it("the console's and the pages' credentials work only from their own origin, judged first", async () => {
    const kind = Credential.API_KEY_OPTIONAL_USER_TOKEN;
    expect(await reason(kind, { "x-gatehouse-console": "proj_x", authorization: "Bearer t" })).toBe(
      "ORIGIN_NOT_ALLOWED",
    );
    expect(await reason(kind, { "x-gatehouse-console": "proj_x", origin: CONSOLE })).toBe("MISSING_MANAGEMENT_TOKEN");
    expect(await reason(kind, { "x-gatehouse-page": "not-a-login-id", origin: "https://evil.test" })).toBe(
      "ORIGIN_NOT_ALLOWED",
    );
  });
});
