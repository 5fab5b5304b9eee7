import { ConnectError, type Client } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { errorReason } from "./errors.js";

/** A session's tokens as the SDK keeps them; `expiresAt` is the access token's end, in ms. */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

/**
 * Where a session's tokens live. Every copy of the application that shares a session (browser
 * tabs: indexedDbStore) must share the store and read there what another copy wrote before
 * it: after a refresh the old refresh token is spent, and presenting it again is reuse, which
 * revokes the whole session (API.md section 5).
 */
export interface TokenStore {
  load(): Tokens | undefined | Promise<Tokens | undefined>;
  save(tokens: Tokens | undefined): void | Promise<void>;
}

/** Runs `work` while no other holder of `name` runs, across every context the lock spans. */
export interface RefreshLock {
  run<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** Tokens in this process only (a server, a CLI, a test). */
export function memoryStore(initial?: Tokens): TokenStore {
  let tokens = initial;
  return {
    load: () => tokens,
    save: (next) => {
      tokens = next;
    },
  };
}

/** The part of the DOM's Storage (localStorage) a store needs. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The part of the Web Locks API (navigator.locks) a lock needs. */
export interface LockRequester {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

const browser = globalThis as { localStorage?: KeyValueStorage; navigator?: { locks?: LockRequester } };

/**
 * Tokens in `localStorage` (or any such storage). Within one tab only: a tab reads its own copy
 * of localStorage, which learns of another tab's write a moment later, so a tab taking the
 * refresh lock right after another may still read the spent refresh token. Tabs share a
 * session through indexedDbStore().
 */
export function storageStore(key: string, storage: KeyValueStorage | undefined = browser.localStorage): TokenStore {
  if (!storage) throw new Error("no localStorage here: pass a storage, or use memoryStore()");
  return {
    load() {
      const text = storage.getItem(key);
      return text === null ? undefined : (JSON.parse(text) as Tokens);
    },
    save(tokens) {
      if (tokens === undefined) storage.removeItem(key);
      else storage.setItem(key, JSON.stringify(tokens));
    },
  };
}

/** A lock within this JavaScript context: enough where one context holds the session. */
export function processLock(): RefreshLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(name, work) {
      const previous = tails.get(name) ?? Promise.resolve();
      const result = previous.then(work, work);
      const tail = result.catch(() => undefined);
      tails.set(name, tail);
      void tail.then(() => tails.get(name) === tail && tails.delete(name));
      return result;
    },
  };
}

/**
 * The Web Locks API (navigator.locks): one holder at a time across every tab and worker of the
 * origin, released by the browser if a tab dies holding it.
 */
export function webLock(locks: LockRequester): RefreshLock {
  return { run: (name, work) => locks.request(name, work) };
}

/** The Web Locks API where there is one (browsers), else a process lock. */
export function defaultLock(): RefreshLock {
  const locks = browser.navigator?.locks;
  return locks ? webLock(locks) : processLock();
}

export interface SessionOptions {
  /** A client of the Authentication interface, with the project's key (not the session's token). */
  auth: Client<typeof AuthService>;
  store?: TokenStore;
  lock?: RefreshLock;
  /** The lock's name: one per session store. */
  name?: string;
  /** Refresh this long before the access token ends. Default 60 s. */
  refreshMarginSeconds?: number;
  now?: () => number;
}

/**
 * Refresh answers that end the session for good: its tokens are dropped and the user must sign
 * in again. MFA_REQUIRED_BY_PROJECT: the project now requires MFA and the session was signed in
 * without a second factor; the next sign-in asks for one (or to enroll one).
 */
const SESSION_ENDING_REASONS: readonly string[] = [
  "INVALID_REFRESH_TOKEN",
  "REFRESH_TOKEN_REUSED",
  "MFA_REQUIRED_BY_PROJECT",
];

/**
 * The session has ended: signed out, revoked, its refresh token refused, or refused because the
 * project now requires MFA (`mfaRequired`). Sign in again; `reason` says why (undefined: there
 * was no session).
 */
export class SessionEndedError extends Error {
  constructor(readonly reason?: string) {
    super(reason ? `the session has ended (${reason})` : "no session: sign in first");
  }

  /** The project requires MFA now: send the user to sign in, where the second factor (or its enrollment) is asked for. */
  get mfaRequired(): boolean {
    return this.reason === "MFA_REQUIRED_BY_PROJECT";
  }
}

/**
 * A signed-in user's session: hands out an access token that is valid for at least the margin,
 * refreshing it first when needed. Refreshes never overlap: one at a time in this context,
 * and across contexts through `lock` and the shared `store`. Whoever gets the lock second
 * finds the tokens the first one stored and uses them instead of presenting the spent
 * refresh token, the race that logs users out of other libraries' apps when two tabs wake up
 * together.
 */
export class Session {
  private readonly store: TokenStore;
  private readonly lock: RefreshLock;
  private readonly name: string;
  private readonly marginMs: number;
  private readonly now: () => number;
  private refreshing: Promise<Tokens> | undefined;

  constructor(private readonly options: SessionOptions) {
    this.store = options.store ?? memoryStore();
    this.lock = options.lock ?? defaultLock();
    this.name = options.name ?? "gatehouse-session";
    this.marginMs = (options.refreshMarginSeconds ?? 60) * 1000;
    this.now = options.now ?? Date.now;
  }

  /** Stores the tokens of a sign-in answer (Login, Signup, VerifyOtp, …) as the session's. */
  async start(answer: {
    accessToken?: string;
    refreshToken?: string;
    expiresIn?: number;
    confirmationRequired?: boolean;
  }): Promise<Tokens> {
    if (answer.confirmationRequired) {
      throw new Error(
        "this signup waits for its email to be confirmed (signupOutcome: confirmation_required): start the session with VerifyMagicLink's answer",
      );
    }
    if (!answer.accessToken || !answer.refreshToken || answer.expiresIn === undefined) {
      throw new Error("this answer holds no tokens (an MFA challenge must be completed first)");
    }
    const tokens = {
      accessToken: answer.accessToken,
      refreshToken: answer.refreshToken,
      expiresAt: this.now() + answer.expiresIn * 1000,
    };
    await this.store.save(tokens);
    return tokens;
  }

  /** An access token valid for at least the margin; refreshes first if needed. */
  async accessToken(): Promise<string> {
    const tokens = await this.store.load();
    if (!tokens) throw new SessionEndedError();
    if (this.fresh(tokens)) return tokens.accessToken;
    return (await this.refresh()).accessToken;
  }

  /** Refreshes now unless another context just did; concurrent calls share one refresh. */
  refresh(): Promise<Tokens> {
    this.refreshing ??= this.lock
      .run(this.name, async () => {
        const current = await this.store.load();
        if (!current) throw new SessionEndedError();
        // Someone else refreshed while this one waited for the lock.
        if (this.fresh(current)) return current;
        try {
          const answer = await this.options.auth.refresh({ refreshToken: current.refreshToken });
          const next = {
            accessToken: answer.accessToken,
            refreshToken: answer.refreshToken,
            expiresAt: this.now() + answer.expiresIn * 1000,
          };
          await this.store.save(next);
          return next;
        } catch (error) {
          const reason = errorReason(error);
          // The session is over; anything else (a network failure) may be retried later.
          if (error instanceof ConnectError && reason !== undefined && SESSION_ENDING_REASONS.includes(reason)) {
            await this.store.save(undefined);
            throw new SessionEndedError(reason);
          }
          throw error;
        }
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  /** Revokes the session on the server and forgets its tokens here and in every tab. */
  async signOut(): Promise<void> {
    await this.lock.run(this.name, async () => {
      const tokens = await this.store.load();
      await this.store.save(undefined);
      if (tokens) await this.options.auth.revokeToken({ token: tokens.refreshToken });
    });
  }

  private fresh(tokens: Tokens): boolean {
    return tokens.expiresAt - this.marginMs > this.now();
  }
}
