import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Clock } from "../../domain/clock.js";
import type { Repositories } from "../../store/database.js";
import { clientMetadata, type PresentingRequest } from "./clients.js";
import type { UserCodeLookup } from "./user-codes.js";

/** Models that come from a user's sign-in: they hold only while its Gatehouse session does. */
const SESSION_BOUND = new Set([
  "Session",
  "AuthorizationCode",
  "AccessToken",
  "RefreshToken",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
]);

/** The engine's request context, as its adapter sees it (oidc-provider keeps it in AsyncLocalStorage). */
export interface EngineContext extends PresentingRequest {
  /** The client address: the route sets X-Forwarded-For to the one Gatehouse determined. */
  ip?: string;
  oidc?: PresentingRequest["oidc"] & {
    entities?: { Interaction?: { result?: { login?: { gatehouseSessionId?: unknown } } } };
  };
}

/**
 * The storage the engine is given for one project (oidc-provider's adapter interface), over the
 * oidc_payloads table. Clients are not stored by the engine: they are the project's OAuth
 * clients. A code or token whose Gatehouse session was revoked or expired, or whose user was
 * disabled, is not found: revoking a session, a password change and disabling a user end it as
 * they end Gatehouse refresh tokens. A user code a person typed is looked up under the limits
 * of `userCodes` (user-codes.ts).
 */
export function projectAdapter(
  repos: () => Repositories,
  clock: Clock,
  projectId: string,
  currentContext: () => EngineContext | undefined,
  userCodes: UserCodeLookup,
): new (model: string) => Adapter {
  return class GatehouseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const loginSession = currentContext()?.oidc?.entities?.Interaction?.result?.login?.gatehouseSessionId;
      await repos().oidcPayloads.upsert(projectId, {
        model: this.model,
        id,
        payload,
        grantId: this.model === "Grant" ? id : (payload.grantId ?? null),
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        clientId: payload.clientId ?? null,
        accountId: payload.accountId ?? null,
        sessionId: this.model === "Session" && typeof loginSession === "string" ? loginSession : null,
        sessionUid: typeof payload.sessionUid === "string" ? payload.sessionUid : null,
        expiresAt: expiresIn ? new Date(clock.now().getTime() + expiresIn * 1000) : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === "Client") {
        const client = await repos().oauthClients.findForProvider(projectId, id);
        return client && clientMetadata(client, currentContext());
      }
      return this.found(await repos().oidcPayloads.find(projectId, this.model, { id }, clock.now()));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.found(await repos().oidcPayloads.find(projectId, this.model, { uid }, clock.now()));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const ctx = currentContext();
      const userAgent = ctx?.headers["user-agent"];
      const entry = { ip: ctx?.ip || "unknown", userAgent: typeof userAgent === "string" ? userAgent : "" };
      return userCodes(entry, async () =>
        this.found(await repos().oidcPayloads.find(projectId, this.model, { userCode }, clock.now())),
      );
    }

    async consume(id: string): Promise<void> {
      await repos().oidcPayloads.consume(projectId, this.model, id, clock.now());
    }

    async destroy(id: string): Promise<void> {
      await repos().oidcPayloads.destroy(projectId, this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await repos().oidcPayloads.revokeByGrantId(projectId, grantId);
    }

    private found(row: Awaited<ReturnType<Repositories["oidcPayloads"]["find"]>>): AdapterPayload | undefined {
      if (!row) return undefined;
      // The injected clock decides expiry, so tests move time as they do for every other code.
      if (row.expiresAt && row.expiresAt <= clock.now()) return undefined;
      if (SESSION_BOUND.has(this.model) && !row.sessionLive) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }
  };
}
