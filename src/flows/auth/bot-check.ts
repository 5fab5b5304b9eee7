import type { Challenge } from "altcha-lib/v1/types";
import type { BotChallenges } from "../../crypto/bot-challenges.js";
import type { Project } from "../../domain/account.js";
import type { Clock } from "../../domain/clock.js";
import { DomainError } from "../../domain/errors.js";
import type { Counter } from "../../limits/store.js";
import { countBotCheck } from "../../metrics/bot-checks.js";

/** How long a challenge may be solved and its proof sent (auth.proto, GetBotChallenge). */
export const BOT_CHALLENGE_SECONDS = 600;

/**
 * How much longer than its expiry a spent proof is remembered: the instances' clocks may
 * differ a little, and a proof must not come back to life on one whose clock is behind.
 */
const SPENT_MARGIN_SECONDS = 60;

/** Bot protection (docs/security.md "Bot protection"): challenges out, proofs in, each proof once. */
export interface BotCheck {
  /** A new challenge of the project, valid BOT_CHALLENGE_SECONDS. */
  challenge(project: Project): Promise<Challenge>;
  /** PERMISSION_DENIED BOT_CHECK_FAILED unless `proof` solves a live challenge of the project, never spent before; then spends it. */
  spend(project: Project, proof: string, rpc: string): Promise<void>;
}

export interface BotCheckDeps {
  challenges: BotChallenges;
  clock: Clock;
  /** The work of each challenge: the secret number is drawn from 0 to this (BOT_CHALLENGE_MAX_NUMBER). */
  maxNumber: number;
  /**
   * Spent proofs, shared by every instance: the rate-limit store (PostgreSQL or Redis), whose
   * hitFor() counts atomically, so of two requests racing with one proof exactly one sees 1.
   */
  spent: Counter;
}

export function createBotCheck(deps: BotCheckDeps): BotCheck {
  return {
    challenge(project) {
      const expiresAt = new Date(deps.clock.now().getTime() + BOT_CHALLENGE_SECONDS * 1000);
      return deps.challenges.issue(project.id, expiresAt, deps.maxNumber);
    },

    async spend(project, proof, rpc) {
      if (proof.trim() === "") {
        throw refused(
          rpc,
          "missing",
          "this project asks for a solved bot challenge: get one from GetBotChallenge (GET /v1/auth/bot-challenge), solve it, and send the solution as bot_proof",
        );
      }
      const now = deps.clock.now();
      const checked = await deps.challenges.check(project.id, proof, now);
      if (!checked.ok && checked.problem === "expired") {
        throw refused(
          rpc,
          "expired",
          "the bot challenge of bot_proof has expired (challenges work for 10 minutes); solve a new one",
        );
      }
      if (!checked.ok)
        throw refused(
          rpc,
          "invalid",
          "bot_proof is not a solved bot challenge of this project; get one from GetBotChallenge and send its solution",
        );
      // Remembered until it could no longer pass the expiry check anyway; the key is the
      // challenge, a hash that is unique per challenge and public already.
      const seconds = Math.ceil((checked.expiresAt.getTime() - now.getTime()) / 1000) + SPENT_MARGIN_SECONDS;
      const uses = await deps.spent.hitFor(`${project.id}:${checked.challenge}`, seconds);
      if (uses.count > 1)
        throw refused(
          rpc,
          "replayed",
          "this bot_proof was used already: each solved challenge works once; solve a new one",
        );
      countBotCheck(rpc, "passed");
    },
  };
}

function refused(rpc: string, outcome: "missing" | "invalid" | "expired" | "replayed", message: string): DomainError {
  countBotCheck(rpc, outcome);
  return new DomainError("BOT_CHECK_FAILED", message);
}
