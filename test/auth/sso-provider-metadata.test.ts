import { describe, expect, it } from "vitest";
import { useSsoApp } from "./sso-helpers.js";
import { expectTokens, newAccount } from "./sso-checks.js";

// Behaviour: what Gatehouse reads from a provider and for how long. Discovery on every sign-in
// would make the provider a bottleneck; cached forever, a provider's changed endpoints would
// never be seen. A provider that rotates its signing keys must not lock users out until a
// cache expires: a key the cache lacks makes the JWKS be read again at once.

const METADATA_TTL_MS = 10 * 60_000;

const world = useSsoApp();
const { ctx } = world;
const { clock } = ctx;

const signIn = async () =>
  expectTokens(await world.signIn(world.app, world.connection, newAccount(world.idp, "cached").id));

describe("SSO provider metadata", () => {
  it("discovery is read once for several sign-ins, and again once 10 minutes have passed", async () => {
    // Whatever earlier sign-ins cached, it is stale now.
    clock.advance(METADATA_TTL_MS + 60_000);
    const before = world.idp.discoveryRequests;
    await signIn();
    await signIn();
    await signIn();
    expect(world.idp.discoveryRequests).toBe(before + 1);

    clock.advance(11 * 60_000);
    await signIn();
    expect(world.idp.discoveryRequests).toBe(before + 2);
    await signIn();
    expect(world.idp.discoveryRequests).toBe(before + 2);
  });

  it("the JWKS is read once while fresh; after the provider rotates its keys the next sign-in reads it again at once", async () => {
    clock.advance(METADATA_TTL_MS + 60_000);
    await signIn();
    const discoveries = world.idp.discoveryRequests;
    const jwks = world.idp.jwksRequests;
    await signIn();
    expect(world.idp.jwksRequests).toBe(jwks);

    const oldKid = world.idp.signingKid;
    await world.idp.rotateKeys();
    expect(world.idp.signingKid).not.toBe(oldKid);
    await signIn();
    expect(world.idp.jwksRequests).toBe(jwks + 1);
    expect(world.idp.discoveryRequests).toBe(discoveries);
    // The refreshed keys are kept: no read per sign-in after the rotation.
    await signIn();
    expect(world.idp.jwksRequests).toBe(jwks + 1);
  });
});
