import { describe, expect, it } from "vitest";
import { maskAddressesIn, maskRecipient } from "../../src/notify/mask.js";

describe("recipients in log lines", () => {
  it("an address keeps its first letter and domain, a number its first five and last two characters", () => {
    expect(maskRecipient("alice@example.com")).toBe("a***@example.com");
    expect(maskRecipient("+15551234567")).toBe("+1555***67");
    expect(maskRecipient("+123456")).toBe("***");
  });

  it("an SMTP refusal quoting the address says it masked", () => {
    expect(maskAddressesIn("550 5.1.1 <bob.smith@example.org>: Recipient address rejected")).toBe(
      "550 5.1.1 <b***@example.org>: Recipient address rejected",
    );
    expect(maskAddressesIn("connect ECONNREFUSED 127.0.0.1:25")).toBe("connect ECONNREFUSED 127.0.0.1:25");
  });
});
