import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { type AuthFixture } from "./helpers.js";
import { expectReason, newUser } from "./mfa-helpers.js";
import { authenticator, finishSignIn, passkeyProject, passkeyUser, register, startSignIn } from "./passkey-helpers.js";

// Email-first passkey sign-in must not tell a registered address from an unknown one (issue 46:
// the made-up answer had one credential, a 16-byte id and transports ["internal", "hybrid"]
// whatever the project's users held, and a finish with any passkey of the project signed in for
// an unknown address but not for a registered one). What a client sees of the answer: the
// fields, how many credentials, each id's length in bytes and its transports.

type Options = { allowCredentials: Array<{ id: string; type: string; transports?: string[] }> } & Record<
  string,
  unknown
>;

/** What an answer shows besides the ids and the challenge. */
function shape(options: Options) {
  return {
    fields: Object.keys(options),
    credentials: options.allowCredentials.map((c) => ({
      fields: Object.keys(c),
      bytes: Buffer.from(c.id, "base64url").length,
      type: c.type,
      transports: c.transports,
    })),
  };
}

const ids = (options: Options) => options.allowCredentials.map((c) => c.id);

describe("email-first passkey sign-in tells no address from another", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await sharedTestServer();
  });

  it("an unknown address and a user without a passkey get an answer shaped as a registered user's, the same at every ask; the registered user still signs in", async () => {
    // A project whose one passkey holder has a platform passkey (16-byte id, internal) and a
    // security key (64-byte id, nfc and usb).
    const app = await passkeyProject(server);
    const laptop = authenticator();
    const holder = await passkeyUser(app, laptop);
    const key = authenticator();
    const second = await register(
      app,
      key,
      { bearer: holder.accessToken },
      { transports: ["nfc", "usb"], credentialId: randomBytes(64).toString("base64url") },
    );
    expect(second.finish.status, JSON.stringify(second.finish.body)).toBe(200);
    const withoutPasskey = await newUser(app);

    const known = (await startSignIn(app, { email: holder.email })).options as Options;
    expect(shape(known).credentials.map((c) => [c.bytes, c.transports])).toEqual([
      [64, ["nfc", "usb"]],
      [16, ["internal"]],
    ]);
    const unknownAddress = `nobody-${Date.now()}@example.com`;
    for (const email of [unknownAddress, withoutPasskey.email]) {
      const first = (await startSignIn(app, { email })).options as Options;
      const again = (await startSignIn(app, { email: email.toUpperCase() })).options as Options;
      expect(shape(first), email).toEqual(shape(known));
      expect(ids(again), "the same made-up credentials at every ask").toEqual(ids(first));
      expect(ids(first).filter((id) => ids(known).includes(id))).toEqual([]);
    }
    const unknown = (await startSignIn(app, { email: unknownAddress })).options as Options;
    const none = (await startSignIn(app, { email: withoutPasskey.email })).options as Options;
    expect(ids(unknown)).not.toEqual(ids(none));

    // The real answer still signs its user in with the passkey the browser finds in it.
    const started = await startSignIn(app, { email: holder.email });
    const res = await finishSignIn(app, {
      challenge_id: started.challenge_id,
      credential: laptop.authenticate(started.options),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.id).toBe(holder.userId);
  });

  it("made-up answers copy the project's passkey holders: each one holder's shape, several holders' across addresses", async () => {
    const app = await passkeyProject(server);
    const one = await passkeyUser(app, authenticator());
    const other = await newUser(app);
    for (const transports of [["usb"], ["hybrid", "internal"]]) {
      const { finish } = await register(
        app,
        authenticator(),
        { bearer: other.accessToken },
        { transports, credentialId: randomBytes(32).toString("base64url") },
      );
      expect(finish.status, JSON.stringify(finish.body)).toBe(200);
    }
    const holders = [
      shape((await startSignIn(app, { email: one.email })).options),
      shape((await startSignIn(app, { email: other.email })).options),
    ];
    expect(holders[0]).not.toEqual(holders[1]);
    const seen = new Set<number>();
    for (let i = 0; i < 24; i++) {
      const made = shape((await startSignIn(app, { email: `someone-${i}-${Date.now()}@example.com` })).options);
      const like = holders.findIndex((h) => JSON.stringify(h) === JSON.stringify(made));
      expect(like, JSON.stringify(made)).toBeGreaterThanOrEqual(0);
      seen.add(like);
    }
    // 24 addresses each pick one of two holders: all on one side would happen once in 2^23.
    expect(seen.size).toBe(2);
  });

  it("a passkey that is not the named user's finishes nothing, for a registered address and an unknown one alike", async () => {
    const app: AuthFixture = await passkeyProject(server);
    const holder = await passkeyUser(app, authenticator());
    const mallorysDevice = authenticator();
    await passkeyUser(app, mallorysDevice);
    const mallorys = mallorysDevice.credentials()[0].id;
    for (const email of [holder.email, `nobody-${Date.now()}@example.com`]) {
      const started = await startSignIn(app, { email });
      const res = await finishSignIn(app, {
        challenge_id: started.challenge_id,
        credential: mallorysDevice.authenticate(started.options, { credentialId: mallorys }),
      });
      expectReason(res, 401, "PASSKEY_NOT_FOUND");
    }
  });
});
