import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newSigningSecret, signingHeaders, signingKey } from "../../src/outbound/standard-webhooks.js";

// Threat: receivers that cannot verify our deliveries (a signature that only our own code
// accepts), a rotation that breaks them, or signing with a secret that was stored damaged.
// The reference is the Standard Webhooks library a receiver would use.

const BODY = JSON.stringify({ type: "user.created", timestamp: "2026-01-02T03:04:05.000Z", data: { id: "usr_1" } });

describe("Standard Webhooks signing", () => {
  it("makes whsec_ secrets of 32 random bytes", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(signingKey(secret)).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it("signs what the standardwebhooks library verifies", () => {
    const secret = newSigningSecret();
    const now = new Date();
    const headers = signingHeaders("evt_01jabc", now, BODY, [secret]);
    expect(headers["webhook-id"]).toBe("evt_01jabc");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(headers["webhook-signature"]).toBe(new Webhook(secret).sign("evt_01jabc", now, BODY));
  });

  it("signs with both secrets during a rotation, so either alone verifies", () => {
    const [previous, next] = [newSigningSecret(), newSigningSecret()];
    const headers = signingHeaders("evt_01jrot", new Date(), BODY, [next, previous]);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(previous).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(new Webhook(next).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(newSigningSecret()).verify(BODY, headers)).toThrow("No matching signature");
  });

  it("does not verify a changed body, id or timestamp", () => {
    const secret = newSigningSecret();
    const now = new Date();
    const headers = signingHeaders("evt_01jchg", now, BODY, [secret]);
    const verifier = new Webhook(secret);
    expect(() => verifier.verify(BODY.replace("usr_1", "usr_2"), headers)).toThrow("No matching signature");
    expect(() => verifier.verify(`${BODY} `, headers)).toThrow("No matching signature");
    expect(() => verifier.verify(BODY, { ...headers, "webhook-id": "evt_01jother" })).toThrow("No matching signature");
    const later = String(Math.floor(now.getTime() / 1000) + 1);
    expect(() => verifier.verify(BODY, { ...headers, "webhook-timestamp": later })).toThrow("No matching signature");
  });

  it.each([
    ["no prefix", "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI="],
    ["empty", "whsec_"],
    ["not base64", "whsec_not*base64!not*base64!not*base64!not*base64"],
    ["stray characters", `whsec_ ${Buffer.alloc(32, 7).toString("base64")}`],
    ["unpadded", `whsec_${Buffer.alloc(32, 7).toString("base64").replace(/=+$/, "")}`],
    ["too short", `whsec_${Buffer.alloc(16, 7).toString("base64")}`],
    ["too long", `whsec_${Buffer.alloc(65, 7).toString("base64")}`],
  ])("refuses a malformed secret (%s) rather than sign", (_case, secret) => {
    expect(() => signingHeaders("evt_1", new Date(), BODY, [newSigningSecret(), secret])).toThrow(
      "malformed webhook signing secret",
    );
  });

  it("refuses to sign with no secret, an invalid date or an id that is not a header value", () => {
    const secret = newSigningSecret();
    expect(() => signingHeaders("evt_1", new Date(), BODY, [])).toThrow("at least one signing secret");
    expect(() => signingHeaders("evt_1", new Date(Number.NaN), BODY, [secret])).toThrow("valid date");
    expect(() => signingHeaders("evt 1", new Date(), BODY, [secret])).toThrow("message id");
    expect(() => signingHeaders("evt_1\r\nx: y", new Date(), BODY, [secret])).toThrow("message id");
    expect(() => signingHeaders("", new Date(), BODY, [secret])).toThrow("message id");
  });
});
