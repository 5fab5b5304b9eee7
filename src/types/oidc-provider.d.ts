// oidc-provider ships no types and @types/oidc-provider is not a dependency; this declares the
// part of its API Gatehouse's OpenID Provider (src/flows/oidc/) and the test harness
// (test/helpers/oidc-provider.ts) call, so `tsc` can check them.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface AdapterPayload {
    [key: string]: unknown;
    accountId?: string;
    clientId?: string;
    grantId?: string;
    uid?: string;
    userCode?: string;
    sessionUid?: string;
    kind?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id: string };
    session?: { accountId: string; uid: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
    returnTo: string;
    exp: number;
  }

  export interface Grant {
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(indicator: string, scope: string): void;
    getOIDCScope(): string;
    save(): Promise<string>;
  }

  export interface KoaContextLike {
    req: IncomingMessage;
    res: ServerResponse;
    headers: Record<string, string | string[] | undefined>;
    oidc?: Record<string, unknown> & { params?: Record<string, unknown> };
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    static readonly ctx: KoaContextLike | undefined;
    issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    Grant: {
      new (init: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    Client: {
      find(id: string): Promise<{ clientId: string; clientName?: string; logoUri?: string } | undefined>;
    };
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
  export const errors: Record<string, new (description?: string) => Error>;
  export default Provider;
}
