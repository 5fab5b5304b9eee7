import type { KeyObject } from "node:crypto";
import type { ApiKey, Project } from "../../domain/account.js";
import type { Change } from "../change-feed.js";
import type { Repositories } from "../repositories/index.js";

export interface ActiveApiKey {
  apiKey: ApiKey;
  project: Project;
}

export interface VerificationKey {
  kid: string;
  key: KeyObject;
  retiredAt: Date | null;
}

/** The session a token names, as far as verification cares: whose it is and until when. */
export interface SessionStanding {
  userId: string;
  expiresAt: Date;
}

/** A token whose signature held: the key that made it and its (unchecked) claims. */
export interface SignedToken {
  kid: string;
  payload: Record<string, unknown>;
}

/** The key new tokens of a project are signed with, opened. */
export interface ActiveSigningKey {
  kid: string;
  key: KeyObject;
}

/** Plain counters, bumped on the hot path without allocating; read when metrics are scraped. */
export interface HitsAndMisses {
  hits: number;
  misses: number;
}

export type VerificationRepos = Pick<
  Repositories,
  "apiKeys" | "signingKeys" | "revokedAccessTokens" | "sessions" | "users"
>;

/** One topic's part in following the change feed. */
export interface FeedFollower {
  /** Forgets what `change` made stale; a change of a kind the topic does not hold is ignored. */
  change(change: Change): void;
  /** Notices may have been missed: forgets everything. */
  reset(): void;
}
