/**
 * What a Signup answer asks the application to do next:
 * - `signed_in`: it holds the tokens; hand it to `Session.start`.
 * - `mfa_required`: an MFA challenge (an enrollment challenge, `mfaMethods: []`, in a project
 *   with `mfa_required`): go on with StartMfaEnrollment or VerifyMfa and its `mfaToken`.
 * - `confirmation_required`: a publishable key's signup in a project without
 *   `reveal_email_exists` (the default), whether or not the address was registered: nothing
 *   is signed in yet. Tell the user to check their email; the mailed link opens the project's
 *   `redirect_url` with `?token=…&type=magic_link`, whose page calls VerifyMagicLink and starts
 *   the session with that answer.
 */
export type SignupOutcome = "signed_in" | "mfa_required" | "confirmation_required";

export function signupOutcome(answer: { confirmationRequired?: boolean; mfaRequired?: boolean }): SignupOutcome {
  if (answer.confirmationRequired) return "confirmation_required";
  if (answer.mfaRequired) return "mfa_required";
  return "signed_in";
}
