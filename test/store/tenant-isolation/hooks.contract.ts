import { expect } from "vitest";
import { createSecretBox } from "../../../src/crypto/secret-box.js";
import { contract } from "./contract.js";
import { strangers } from "./signed-in-user.js";

const secrets = createSecretBox(Buffer.alloc(32, 7));
const input = (url: string) => ({ url, failurePolicy: "closed" as const, secret: "whsec_contract", rotate: false });

// A project's hooks are set by its organization and read by the project's own requests: a
// stranger neither reads, replaces nor removes them, and cannot set one on another's project.
export default contract({
  repository: "hooks",
  async seed(world) {
    const { hook } = await world.db.transaction((repos) =>
      repos.hooks.set(world.one.id, world.a.id, "before_user_created", input("https://hooks.example.com/a"), secrets),
    );
    return hook;
  },
  checks: {
    async set(world) {
      await expect(
        world.db.transaction((repos) =>
          repos.hooks.set(world.two.id, world.a.id, "before_user_created", input("https://evil.example.com"), secrets),
        ),
      ).rejects.toThrow();
    },
    async list(world) {
      expect(await world.repos.hooks.list(world.two.id, world.a.id)).toEqual([]);
      expect(await world.repos.hooks.list(world.one.id, world.a2.id)).toEqual([]);
    },
    async delete(world) {
      expect(await world.repos.hooks.delete(world.two.id, world.a.id, "before_user_created")).toBe(false);
      expect(await world.repos.hooks.delete(world.one.id, world.a2.id, "before_user_created")).toBe(false);
    },
    async getWithSecret(world) {
      for (const p of strangers(world))
        expect(await world.repos.hooks.getWithSecret(p, "before_user_created", secrets)).toBeNull();
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.hooks.list(world.one.id, world.a.id)).toEqual([seeded]);
    expect((await world.repos.hooks.getWithSecret(world.a.id, "before_user_created", secrets))?.secret).toBe(
      "whsec_contract",
    );
  },
});
