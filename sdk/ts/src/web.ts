import { createConnectTransport } from "@connectrpc/connect-web";
import type { TransportFactory } from "./clients.js";

export * from "./index.js";
export {
  registerPasskey,
  signInWithPasskey,
  type PasskeyRegistrationOptions,
  type PasskeySignInOptions,
} from "./passkeys.js";

/**
 * The browser transport: Connect over fetch, JSON so the network panel reads well, and HTTP
 * GET for the read RPCs so caches can serve what is cacheable. The page's origin must be in
 * the project's allowed_origins, and the key a publishable (`gpk_`) one.
 */
export function webTransport(baseUrl: string, options: { fetch?: typeof globalThis.fetch } = {}): TransportFactory {
  return (interceptors) => createConnectTransport({ baseUrl, useHttpGet: true, interceptors, fetch: options.fetch });
}
