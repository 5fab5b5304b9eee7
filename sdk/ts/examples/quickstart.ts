// Sign a user up and in from Node with the TypeScript SDK, keep the session fresh, check the
// access token offline, and read why a login failed.
//   GATEHOUSE_URL=http://localhost:8080 GATEHOUSE_API_KEY=gk_… GATEHOUSE_LOGIN_ID=lp_… \
//   GATEHOUSE_PROJECT_ID=proj_… node --import tsx sdk/ts/examples/quickstart.ts
import {
  authClients,
  createAccessTokenVerifier,
  errorReason,
  memoryStore,
  nodeTransport,
  Session,
} from "../src/node.js";

const env = (name: string) => process.env[name] ?? (console.error(`set ${name}`), process.exit(2));
const url = env("GATEHOUSE_URL");
const { auth, asUser } = authClients(nodeTransport(url, { protocol: "grpc" }), env("GATEHOUSE_API_KEY"));

const email = `quickstart-${Date.now()}@example.com`;
const password = "correct horse battery staple";
const { user } = await auth.signup({ email, password });
console.log(`signed up ${user?.id}`);

const session = new Session({ auth, store: memoryStore() });
await session.start(await auth.login({ email, password }));
const me = await asUser(session).getUser({ id: user!.id });
console.log(`signed in as ${me.email}`);

const verify = createAccessTokenVerifier({
  baseUrl: url,
  loginId: env("GATEHOUSE_LOGIN_ID"),
  projectId: env("GATEHOUSE_PROJECT_ID"),
  issuer: process.env.GATEHOUSE_ISSUER, // only when the URL above is not Gatehouse's PUBLIC_URL
});
const claims = await verify(await session.accessToken());
console.log(`token checked offline: sub ${claims.sub}, amr ${claims.amr.join(",")}`);

try {
  await auth.login({ email, password: "wrong password" });
} catch (error) {
  console.log(`failed login: ${errorReason(error)}`);
}
await session.signOut();
