import { getOption } from "@bufbuild/protobuf";
import { expect, it } from "vitest";
import { AccountService } from "../../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import { access } from "../../gen/gatehouse/options/v1/options_pb.js";

// The RPCs whose flows audit their own attempts, rate-limit refusals included, say so in the
// proto (`sign_in` in their access option); src/interceptors/audit-rate-limits.ts records
// `rate_limit.exceeded` for every other RPC. A sign-in left unmarked would write its refusals
// twice, one marked wrongly not at all.
it("the RPCs that sign a caller in, and only they, declare sign_in", () => {
  const declared = [AuthService, AccountService].flatMap((service) =>
    service.methods.filter((method) => getOption(method, access).signIn).map((m) => `${service.name}/${m.name}`),
  );
  expect(declared.sort()).toEqual([
    "AccountService/FinishMemberPasskeySignIn",
    "AccountService/Login",
    "AccountService/VerifyMemberMfa",
    "AuthService/FinishPasskeySignIn",
    "AuthService/Login",
    "AuthService/SsoExchange",
    "AuthService/VerifyMagicLink",
    "AuthService/VerifyMfa",
    "AuthService/VerifyOtp",
  ]);
});
