import { validationFailed } from "../../domain/errors.js";
import {
  canonicalDomain,
  SIGNUP_METHODS,
  SIGNUPS,
  type SignupMethod,
  type SignupPolicy,
  type Signups,
} from "../../domain/signup-policy.js";

/** The signup settings as CreateProject and UpdateProject take them: strings, empty lists for "unchanged". */
export interface SignupSettingsInput {
  signups?: string;
  signupEmailDomains?: readonly string[];
  signupMethods?: readonly string[];
}

/**
 * The settings to store, each absent when the input leaves it as it is: domains in their
 * canonical form, once each, and every value checked here as well as by the proto's rules,
 * since the CLI and the tests call the flows without the interceptor.
 */
export function signupSettings(input: SignupSettingsInput): Partial<SignupPolicy> & {
  signups?: Signups;
  signupEmailDomains?: string[];
  signupMethods?: SignupMethod[];
} {
  const problems: Array<{ field: string; description: string }> = [];
  const signups = input.signups || undefined;
  if (signups !== undefined && !(SIGNUPS as readonly string[]).includes(signups)) {
    problems.push({ field: "signups", description: `must be one of ${SIGNUPS.join(", ")}` });
  }
  const domains: string[] = [];
  (input.signupEmailDomains ?? []).forEach((domain, i) => {
    const canonical = canonicalDomain(domain.trim());
    if (canonical.ok) domains.push(canonical.domain);
    else problems.push({ field: `signup_email_domains[${i}]`, description: canonical.problem });
  });
  const methods = input.signupMethods ?? [];
  methods.forEach((method, i) => {
    if (!(SIGNUP_METHODS as readonly string[]).includes(method)) {
      problems.push({ field: `signup_methods[${i}]`, description: `must be one of ${SIGNUP_METHODS.join(", ")}` });
    }
  });
  if (problems.length > 0) throw validationFailed(problems);
  return {
    signups: signups as Signups | undefined,
    signupEmailDomains: domains.length > 0 ? [...new Set(domains)] : undefined,
    signupMethods: methods.length > 0 ? [...new Set(methods as SignupMethod[])] : undefined,
  };
}

/** An allowlist admits no one without domains: refused, so a project never closes by accident. */
export function assertAllowlistHasDomains(policy: SignupPolicy): void {
  if (policy.signups === "allowlist" && policy.signupEmailDomains.length === 0) {
    throw validationFailed([
      { field: "signup_email_domains", description: "must name at least one domain when signups is allowlist" },
    ]);
  }
}
