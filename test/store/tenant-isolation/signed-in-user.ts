import { expect } from "vitest";
import { newId } from "../../../src/crypto/ids.js";
import { hashToken } from "../../../src/crypto/tokens.js";
import type { Session } from "../../../src/domain/auth.js";
import type { SignInWrite } from "../../../src/store/repositories/sign-ins.js";
import { auditRow } from "../../../src/store/repositories/audit-events.js";
import type { TenantWorld } from "./contract.js";

const HOUR = 3600_000;

/** The organization of one of the world's projects. */
export const organizationOf = (world: TenantWorld, projectId: string) =>
  projectId === world.b.id ? world.two.id : world.one.id;

/** A sign-in of `userId` into `projectId` (default `a`) as the sign-in flows write it (session, refresh token, events). */
export function signInWrite(
  world: TenantWorld,
  userId: string,
  options: { projectId?: string; max?: number } = {},
): SignInWrite & { refreshToken: string } {
  const now = world.clock.now();
  const projectId = options.projectId ?? world.a.id;
  const session: Session = {
    id: newId("ses"),
    projectId,
    userId,
    ipAddress: "203.0.113.7",
    userAgent: "contract",
    amr: ["pwd"],
    createdAt: now,
    lastActiveAt: now,
    expiresAt: new Date(now.getTime() + HOUR),
    revokedAt: null,
  };
  const origin = { actor: { type: "user" as const, id: userId }, ip: "203.0.113.7", userAgent: "contract" };
  const event = { organizationId: organizationOf(world, projectId), projectId, userId };
  const refreshToken = newId("rtk");
  return {
    session,
    refreshToken,
    refreshTokenHash: hashToken(refreshToken),
    event: { ...event, kind: "login", method: "password", at: now },
    audit: auditRow({ ...event, type: "user.login.succeeded", origin }, now),
    cap: {
      max: options.max ?? 50,
      audit: auditRow({ ...event, type: "session.revoked", origin, details: { reason: "session_cap" } }, now),
    },
  };
}

/** A user of project `a` with an email, a phone, a password, one live session and its refresh token. */
export async function seedSignedInUser(world: TenantWorld) {
  const userId = newId("usr");
  const email = `${userId.toLowerCase()}@example.com`;
  const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  const write = signInWrite(world, userId);
  await world.repos.signIns.recordSignup(
    world.a.id,
    {
      id: userId,
      organizationId: world.one.id,
      email,
      phone,
      emailVerified: true,
      phoneVerified: true,
      passwordHash: "contract-hash",
      metadata: { seeded: true },
    },
    write,
  );
  return {
    userId,
    email,
    phone,
    sessionId: write.session.id,
    refreshToken: write.refreshToken,
    refreshTokenHash: write.refreshTokenHash,
  };
}

export type SignedInUser = Awaited<ReturnType<typeof seedSignedInUser>>;

/** The other tenants: a project of the same organization, and one of another. */
export const strangers = (world: TenantWorld) => [world.a2.id, world.b.id];

/** The seeded user, its session and refresh token, as they were written, for project `a`. */
export async function expectSignedInUserIntact(world: TenantWorld, s: SignedInUser): Promise<void> {
  const user = await world.repos.users.get(world.a.id, s.userId);
  expect(user).toMatchObject({ email: s.email, phone: s.phone, disabled: false, metadata: { seeded: true } });
  expect(await world.repos.users.passwordHash(world.a.id, s.userId)).toBe("contract-hash");
  const session = await world.repos.sessions.getActive(world.a.id, s.sessionId, world.clock.now());
  expect(session).toMatchObject({ userId: s.userId, revokedAt: null, lastActiveAt: user!.createdAt });
  expect(session!.expiresAt.getTime()).toBe(user!.createdAt.getTime() + HOUR);
  const token = await world.repos.refreshTokens.findForUpdate(world.a.id, s.refreshTokenHash);
  expect(token).toMatchObject({ sessionId: s.sessionId, rotatedAt: null, revokedAt: null, successorSealed: null });
}
