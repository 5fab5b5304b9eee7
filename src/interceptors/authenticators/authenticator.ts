import type { ContextValues } from "@connectrpc/connect";
import type { DescMethod } from "@bufbuild/protobuf";
import type { Access } from "../../../gen/gatehouse/options/v1/options_pb.js";
import type { MemberPrincipal } from "../../domain/principals.js";
import type { ProjectPrincipal, RequestRecord, UserPrincipal } from "../context.js";

/** What an authenticator reads: the request's headers and context, and what its RPC declares. */
export interface CredentialRequest {
  method: DescMethod;
  /** The RPC's `(gatehouse.options.v1.access)`. */
  access: Access;
  header: Headers;
  contextValues: ContextValues;
  record: RequestRecord | undefined;
  origin: string | null;
  authorization: string | null;
}

/** Who the request is, as the credential interceptor puts it into the context values. */
export interface Principals {
  project?: ProjectPrincipal;
  member?: MemberPrincipal;
  user?: UserPrincipal;
}

/**
 * One credential kind. `presented` looks at the request without I/O: does it carry this kind's
 * credential? `authenticate` then answers who it is, or throws a DomainError from the reason
 * vocabulary. A credential that is present but malformed, unknown or expired is always a refusal,
 * never a reason to try the next kind: the table (table.ts) picks one authenticator per request.
 */
export interface Authenticator {
  presented(request: CredentialRequest): boolean;
  authenticate(request: CredentialRequest): Promise<Principals>;
}
