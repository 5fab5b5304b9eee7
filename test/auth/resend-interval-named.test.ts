import { fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { beforeAll, describe, expect, it } from "vitest";
import { ErrorInfoSchema, RetryInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import type { HttpAnswer } from "../helpers/clients.js";
import { injectConnect } from "../helpers/inject.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { limitsApp, type LimitsApp } from "../limits/helpers.js";
import { newEmail } from "./passwordless-helpers.js";

// A second code or link to one address within the minute is refused (RATE_LIMITED), but it is
// not "too many attempts": the first message is on its way. The answer names that limit in its
// ErrorInfo (`limit: resend_interval`, beside the wait and RetryInfo), so a page can say "a code
// was sent less than a minute ago" from the answer, not by guessing from the wait or the text;
// every other RATE_LIMITED names none.

function errorInfo(answer: HttpAnswer) {
  const details = answer.body.details as Array<{ type: string; value: string }>;
  const detail = (type: string) => base64Decode(details.find((d) => d.type === type)!.value);
  return {
    info: fromBinary(ErrorInfoSchema, detail("google.rpc.ErrorInfo")),
    retry: fromBinary(RetryInfoSchema, detail("google.rpc.RetryInfo")),
  };
}

describe("a resend within the minute is named in the answer", () => {
  const ctx = useMessagingServer({ smtp: true });
  let app: LimitsApp;
  const call = (rpc: string, body: object) =>
    injectConnect(ctx.server.handle, "auth", rpc, body, { "x-service-key": app.key });

  beforeAll(async () => {
    app = await limitsApp(ctx.server);
  });

  for (const [rpc, body] of [
    ["SendOtp", (email: string) => ({ email })],
    ["SendMagicLink", (email: string) => ({ email, redirectUrl: "https://app.example.com/callback" })],
  ] as const) {
    it(`${rpc}: the second send is RATE_LIMITED with limit resend_interval, its wait in the metadata and RetryInfo`, async () => {
      const email = newEmail(rpc.toLowerCase());
      expect((await call(rpc, body(email))).status).toBe(200);
      const again = await call(rpc, body(email));
      expect(again.status).toBe(429);
      const { info, retry } = errorInfo(again);
      expect(info.reason).toBe("RATE_LIMITED");
      expect(info.metadata.limit).toBe("resend_interval");
      const wait = Number(info.metadata.retry_after_seconds);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(Number(retry.retryDelay?.seconds)).toBe(wait);
      expect(Number(again.headers.get("retry-after"))).toBe(wait);
    });
  }

  it("another limit's RATE_LIMITED (sends_per_destination) names no limit", async () => {
    await app.setLimits({ sends_per_destination: 1 });
    const email = newEmail("window");
    expect((await call("SendOtp", { email })).status).toBe(200);
    // Past the minute, so the resend interval is not what refuses.
    ctx.clock.advance(61_000);
    const over = await call("SendOtp", { email });
    expect(over.status).toBe(429);
    const { info } = errorInfo(over);
    expect(info.reason).toBe("RATE_LIMITED");
    expect(Number(info.metadata.retry_after_seconds)).toBeGreaterThan(60);
    expect(info.metadata).not.toHaveProperty("limit");
  });
});
