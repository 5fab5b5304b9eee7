import type { SignupHook } from "../../flows/auth/signup.js";

/** Steps one flow lends another (the verification email queued by Signup). */
export interface AuthHooks {
  afterSignup?: SignupHook;
}
