// Gatehouse from a web page with the TypeScript SDK: a publishable key (safe in a page), the
// project's allowed origins naming this page's origin, and a session that every tab of the
// origin shares (IndexedDB holds it, the Web Locks API lets one tab refresh it at a time).
import {
  authClients,
  errorReason,
  indexedDbStore,
  registerPasskey,
  Session,
  signInWithPasskey,
  signupOutcome,
  webTransport,
} from "../../src/web.js";

// A real page has these as constants; the test serving this example passes them in the URL.
const params = new URLSearchParams(location.search);
const GATEHOUSE_URL = params.get("gatehouse") ?? "http://localhost:8080";
const PUBLISHABLE_KEY = params.get("key") ?? "gpk_replace_me";

const { auth, asUser } = authClients(webTransport(GATEHOUSE_URL), PUBLISHABLE_KEY);
const store = indexedDbStore();
const session = new Session({ auth, store });
const status = document.querySelector<HTMLParagraphElement>("#status")!;
let userId = localStorage.getItem("gatehouse.user") ?? undefined;

/** Keeps a sign-in's tokens in the shared session and shows who is signed in. */
async function signedIn(answer: Parameters<Session["start"]>[0] & { user?: { id: string } }): Promise<void> {
  await session.start(answer);
  userId = answer.user!.id;
  localStorage.setItem("gatehouse.user", userId);
  await showProfile();
}

async function showProfile(): Promise<void> {
  if (!userId) return;
  try {
    const me = await asUser(session).getUser({ id: userId });
    status.textContent = `Signed in as ${me.email}.`;
  } catch (error) {
    status.textContent = `Not signed in (${errorReason(error) ?? String(error)}).`;
  }
}

document.querySelector<HTMLFormElement>("#credentials")!.addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const [email, password] = [String(form.get("email")), String(form.get("password"))];
  const action = ((event as SubmitEvent).submitter as HTMLButtonElement | null)?.value;
  try {
    const answer = action === "signup" ? await auth.signup({ email, password }) : await auth.login({ email, password });
    // A publishable key's signup waits for the mailbox (unless the project sets reveal_email_exists):
    // the mailed link opens the project's redirect_url, whose page calls verifyMagicLink.
    if (signupOutcome(answer) === "confirmation_required") {
      status.textContent = `Check your email: open the link sent to ${email} to finish signing up.`;
      return;
    }
    await signedIn(answer);
  } catch (error) {
    status.textContent = `That did not work: ${errorReason(error) ?? String(error)}.`;
  }
});

document.querySelector<HTMLButtonElement>("#signout")!.addEventListener("click", async () => {
  await session.signOut();
  localStorage.removeItem("gatehouse.user");
  userId = undefined;
  status.textContent = "Not signed in.";
});

// Passkeys: added by a signed-in user (the client carrying its access token), then used to sign
// in with no email or password at all. The origin must be https, or http on localhost.
document.querySelector<HTMLButtonElement>("#add-passkey")!.addEventListener("click", async () => {
  try {
    const added = await registerPasskey(asUser(session), { name: "This browser" });
    // The user's first MFA method comes with recovery codes: a real page shows them once, now.
    const codes = added.recoveryCodes.length > 0 ? ` Save your ${added.recoveryCodes.length} recovery codes.` : "";
    status.textContent = `Passkey "${added.passkey!.name}" added.${codes}`;
  } catch (error) {
    status.textContent = `No passkey added: ${errorReason(error) ?? String(error)}.`;
  }
});

document.querySelector<HTMLButtonElement>("#passkey")!.addEventListener("click", async () => {
  try {
    // With an email typed in, only that user's passkeys are offered; without, any the browser holds for the site.
    const email = document.querySelector<HTMLInputElement>("#email")!.value || undefined;
    const answer = await signInWithPasskey(auth, { email });
    if (answer.mfaRequired) {
      status.textContent = "This passkey did not verify you: a second step is needed.";
      return;
    }
    await signedIn(answer);
  } catch (error) {
    status.textContent = `That did not work: ${errorReason(error) ?? String(error)}.`;
  }
});

// For the test that drives this page in Chromium.
Object.assign(globalThis, { example: { auth, asUser, session, Session, store } });
await showProfile();
