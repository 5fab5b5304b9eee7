import type { Interceptor } from "@connectrpc/connect";
import { getOption, type DescMethod } from "@bufbuild/protobuf";
import { access as accessExt, type Access } from "../../gen/gatehouse/options/v1/options_pb.js";
import type { CredentialRequest } from "./authenticators/authenticator.js";
import { credentialTable, type CredentialDeps } from "./authenticators/table.js";
import { kMember, kProject, kRequest, kUser } from "./context.js";

export type { CredentialDeps } from "./authenticators/table.js";
export type { UserTokenVerifier } from "./authenticators/user-token.js";

// Enforces the `(gatehouse.options.v1.access)` declared on each RPC: the credential kind,
// the API key scope and the member role. Each kind of credential has its authenticator in
// authenticators/, and the table there says which ones each declared kind accepts.
//
// An `Authorization` header is never ignored where a credential is read: on the Authentication
// interface a header that is present must carry a valid access token of the key's project, and
// on the Account interface a valid management token. A header the server does not understand (a
// bare JWT, `Basic …`, `Bearer` with nothing) or a token that is not valid fails the request; it
// never falls back to another credential, nor to the rights the API key has alone, which are
// admin rights. The handlers then limit a request with a user token to that user.
export function credentialInterceptor(deps: CredentialDeps): Interceptor {
  const table = credentialTable(deps);
  return (next) => async (req) => {
    const access = accessOf(req.method);
    const row = table.get(access.credential);
    // A method without a declared credential fails closed.
    if (!row) throw new Error(`RPC ${req.method.parent.typeName}/${req.method.name} declares no credential`);
    const request: CredentialRequest = {
      method: req.method,
      access,
      header: req.header,
      contextValues: req.contextValues,
      record: req.contextValues.get(kRequest),
      origin: req.header.get("origin"),
      authorization: req.header.get("authorization"),
    };
    const authenticator = row.accepted.find((candidate) => candidate.presented(request)) ?? row.otherwise;
    const { project, member, user } = await authenticator.authenticate(request);
    if (project) req.contextValues.set(kProject, project);
    if (member) req.contextValues.set(kMember, member);
    if (user) req.contextValues.set(kUser, user);
    return next(req);
  };
}

// Read once per method: getOption builds the option message anew on every call.
const accessByMethod = new WeakMap<DescMethod, Access>();
function accessOf(method: DescMethod): Access {
  let access = accessByMethod.get(method);
  if (!access) {
    access = getOption(method, accessExt);
    accessByMethod.set(method, access);
  }
  return access;
}
