import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { relyingPartySuite } from "./relying-party-suite.js";
import { PYTHON, skipReason } from "../sdks/toolchain.js";

// A relying party no one here wrote: Python's Authlib (Debian python3-authlib), in a small web
// application (test/fixtures/oidc-rp/authlib_rp.py) that signs its users in with Gatehouse
// through the code flow with PKCE, verifies the ID token against the JWKS, calls userinfo and
// refreshes; the browser is a cookie jar and the sign-in happens over the API.

const PACKAGES = "python3-authlib python3-requests";
function authlibMissing(): string | undefined {
  try {
    execFileSync(PYTHON, ["-c", "import authlib.jose, authlib.integrations.requests_client, requests"], {
      stdio: "ignore",
    });
    return undefined;
  } catch {
    return `${PYTHON} with authlib and requests not found; apt-get install ${PACKAGES}`;
  }
}
const missing = skipReason(authlibMissing());
const RP = resolve(import.meta.dirname, "../fixtures/oidc-rp/authlib_rp.py");

relyingPartySuite("Authlib", missing, async () => ({
  command: PYTHON,
  args: [RP],
  env: { PYTHONDONTWRITEBYTECODE: "1" },
}));
