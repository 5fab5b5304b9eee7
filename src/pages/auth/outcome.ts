// Every way of signing in ends here: tokens go to the application (or, with `?oauth=`, to the
// OpenID Provider's interaction: auth/oauth.ts), an MFA challenge goes to the code step, and a
// challenge with no methods (the project requires MFA, the user has none) goes to enrolment.
import type { Tokens } from "../shared/redirect.js";
import { finish, type Page } from "./context.js";
import { showEnrollment } from "./enroll.js";
import { showMfa } from "./mfa.js";

export interface SignInAnswer extends Tokens {
  mfaRequired?: boolean;
  mfaToken?: string;
  mfaMethods: string[];
}

export async function signedIn(page: Page, answer: SignInAnswer): Promise<void> {
  if (answer.mfaRequired && answer.mfaToken) {
    if (answer.mfaMethods.length === 0) await showEnrollment(page, answer.mfaToken);
    else showMfa(page, answer.mfaToken, answer.mfaMethods);
    return;
  }
  await finish(page, answer);
}
