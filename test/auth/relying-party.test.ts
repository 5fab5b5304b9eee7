import { describe, expect, it } from "vitest";
import type { Project } from "../../src/domain/account.js";
import { DomainError } from "../../src/domain/errors.js";
import { pagesOrigins, relyingParty } from "../../src/domain/relying-party.js";

// The relying party a passkey ceremony runs under (docs/passkeys.md, "Relying party and
// origins"): chosen from the project's settings, its origins and the request's.

const project = (allowedOrigins: string[], passkeyRpId = "") => ({ allowedOrigins, passkeyRpId }) as Project;
const HOSTED = "https://auth.example.com";

function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? error.reason : String(error);
  }
  return undefined;
}

describe("relyingParty", () => {
  it("takes the request's origin when it is one of the project's, with the project's origins under that host", () => {
    const p = project(["https://shop.example.com", "https://www.example.org"]);
    expect(relyingParty(p, HOSTED, "https://shop.example.com")).toEqual({
      id: "shop.example.com",
      origins: ["https://shop.example.com"],
    });
    expect(relyingParty(p, HOSTED, "https://www.example.org").id).toBe("www.example.org");
  });

  it("an origin that is not the project's, or none, falls back to the hosted pages' host", () => {
    const p = project(["https://shop.example.com"]);
    expect(relyingParty(p, HOSTED, "https://evil.example").id).toBe("auth.example.com");
    expect(relyingParty(p, HOSTED).id).toBe("auth.example.com");
  });

  it("a set passkey_rp_id covers every eligible origin under it, the hosted pages' included", () => {
    const p = project(["https://shop.example.com", "https://example.com", "https://other.example.org"], "example.com");
    expect(relyingParty(p, HOSTED, "https://other.example.org")).toEqual({
      id: "example.com",
      origins: ["https://auth.example.com", "https://shop.example.com", "https://example.com"],
    });
  });

  it("http works on localhost only, and an IP address never serves", () => {
    expect(relyingParty(project(["http://localhost:3000"]), "http://127.0.0.1:8080").id).toBe("localhost");
    expect(relyingParty(project([]), "http://localhost:8080")).toEqual({
      id: "localhost",
      origins: ["http://localhost:8080"],
    });
    expect(refusal(() => relyingParty(project(["http://shop.example.com"]), "http://127.0.0.1:8080"))).toBe(
      "PASSKEYS_UNAVAILABLE",
    );
    expect(refusal(() => relyingParty(project(["https://10.0.0.5"]), "http://[::1]:8080"))).toBe(
      "PASSKEYS_UNAVAILABLE",
    );
  });

  it("with several eligible origins and no hosted one to fall back on, a call without an origin is refused", () => {
    const p = project(["https://a.example.com", "https://b.example.com"]);
    expect(refusal(() => relyingParty(p, "http://127.0.0.1:8080"))).toBe("PASSKEYS_UNAVAILABLE");
    expect(relyingParty(p, "http://127.0.0.1:8080", "https://b.example.com").id).toBe("b.example.com");
  });

  it("a passkey_rp_id no origin is under is refused", () => {
    expect(refusal(() => relyingParty(project(["https://shop.example.com"], "example.org"), HOSTED))).toBe(
      "PASSKEYS_UNAVAILABLE",
    );
  });
});

describe("pagesOrigins: where a project's hosted pages are served", () => {
  it("Gatehouse's origin only, while the project's passkeys live under the relying party its pages share", () => {
    expect(pagesOrigins(project(["https://shop.example.com"]), HOSTED)).toEqual([HOSTED]);
    // A passkey_rp_id that covers PUBLIC_URL's host is shared with every project there.
    expect(pagesOrigins(project(["https://shop.example.com"], "example.com"), HOSTED)).toEqual([HOSTED]);
  });

  it("with a passkey_rp_id of its own, also its allowed origins under that id that can serve passkeys", () => {
    const p = project(
      ["https://login.shop.example", "http://plain.shop.example", "https://app.other.example", "https://shop.example"],
      "shop.example",
    );
    expect(pagesOrigins(p, HOSTED)).toEqual([HOSTED, "https://login.shop.example", "https://shop.example"]);
    expect(pagesOrigins(project(["http://b.localhost:8080"], "b.localhost"), "http://localhost:8080")).toEqual([
      "http://localhost:8080",
      "http://b.localhost:8080",
    ]);
  });
});
