import { expect } from "vitest";
import { contract } from "./contract.js";
import { expectSignedInUserIntact, seedSignedInUser, strangers } from "./signed-in-user.js";

const MINUTE = 60_000;

// A session is (project, id): another project's calls neither see, touch, shorten nor end it.
export default contract({
  repository: "sessions",
  seed: seedSignedInUser,
  checks: {
    async getActive(world, s) {
      for (const p of strangers(world))
        expect(await world.repos.sessions.getActive(p, s.sessionId, world.clock.now())).toBeNull();
    },
    async listActive(world, s) {
      for (const p of strangers(world))
        expect(await world.repos.sessions.listActive(p, s.userId, world.clock.now(), { limit: 10 })).toEqual([]);
    },
    async touch(world, s) {
      for (const p of strangers(world))
        await world.repos.sessions.touch(p, s.sessionId, new Date(world.clock.now().getTime() + MINUTE));
    },
    async shortenTo(world, s) {
      for (const p of strangers(world))
        await world.repos.sessions.shortenTo(p, s.sessionId, new Date(world.clock.now().getTime() + MINUTE));
    },
    async revoke(world, s) {
      for (const p of strangers(world))
        expect(await world.repos.sessions.revoke(p, s.userId, s.sessionId, world.clock.now())).toBe(false);
    },
    async existsForUser(world, s) {
      for (const p of strangers(world))
        expect(await world.repos.sessions.existsForUser(p, s.userId, s.sessionId)).toBe(false);
    },
    async revokeAll(world, s) {
      for (const p of strangers(world))
        expect(await world.repos.sessions.revokeAll(p, s.userId, world.clock.now())).toBe(0);
    },
  },
  intact: expectSignedInUserIntact,
});
