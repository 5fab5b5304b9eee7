import { createServer, type Server } from "node:http";
import { pathToFileURL } from "node:url";
import * as client from "openid-client";

// A web application that signs its users in with a Gatehouse project (the OpenID Provider at
// ISSUER) through openid-client: /login starts the code flow with PKCE and state, /callback
// redeems the code and answers the user's claims. docs/openid-provider.md quotes this file;
// test/docs/openid-provider-page.test.ts runs it as the page says, against an issuer on
// http://localhost.

/**
 * openid-client speaks https only. A Gatehouse on your machine (PUBLIC_URL
 * http://localhost:8080, the default) serves its issuer over http: allow that for an http
 * issuer alone, so the same code refuses plain http once the issuer is https.
 */
export function discoveryOptions(issuer: URL): client.DiscoveryRequestOptions | undefined {
  return issuer.protocol === "http:" ? { execute: [client.allowInsecureRequests] } : undefined;
}

export async function createRelyingParty(options: {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<Server> {
  const issuer = new URL(options.issuer);
  const config = await client.discovery(
    issuer,
    options.clientId,
    options.clientSecret,
    undefined,
    discoveryOptions(issuer),
  );
  const callback = new URL(options.redirectUri);
  // state → PKCE verifier, each used once; a real application keeps them in its session.
  const pending = new Map<string, string>();
  return createServer((req, res) => {
    const url = new URL(req.url ?? "/", callback);
    // Plain text, never sniffed as HTML: an error may quote what the callback's URL said.
    const refuse = (text: string) =>
      res
        .writeHead(400, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" })
        .end(text);
    const answer = async () => {
      if (url.pathname === "/login") {
        const verifier = client.randomPKCECodeVerifier();
        const state = client.randomState();
        pending.set(state, verifier);
        const to = client.buildAuthorizationUrl(config, {
          redirect_uri: callback.href,
          scope: "openid email profile",
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
          state,
        });
        res.writeHead(302, { location: to.href }).end();
      } else if (url.pathname === callback.pathname) {
        const state = url.searchParams.get("state") ?? "";
        const verifier = pending.get(state);
        pending.delete(state);
        if (!verifier) return void refuse("unknown or used state\n");
        const tokens = await client.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: verifier,
          expectedState: state,
        });
        const user = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(user));
      } else {
        res.writeHead(404).end();
      }
    };
    // A refused sign-in (access_denied, an expired code) comes here as an error to show.
    answer().catch((error: unknown) => refuse(`sign-in failed: ${String(error)}\n`));
  });
}

// As a program: ISSUER=… CLIENT_ID=… CLIENT_SECRET=… npx tsx relying-party.ts, then open
// http://localhost:3000/login. The client's redirect URI is REDIRECT_URI, by default
// http://localhost:3000/callback (PORT changes the port).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const port = Number(process.env.PORT ?? 3000);
  const server = await createRelyingParty({
    issuer: process.env.ISSUER!,
    clientId: process.env.CLIENT_ID!,
    clientSecret: process.env.CLIENT_SECRET!,
    redirectUri: process.env.REDIRECT_URI ?? `http://localhost:${port}/callback`,
  });
  server.listen(port, () => console.log(`listening port=${port}`));
}
