import { describe, expect, it } from "vitest";
import { NO_ALLOWED_HOSTS, parseAllowHosts } from "../../src/outbound/allow-hosts.js";
import { checkOutboundUrl } from "../../src/outbound/url-check.js";

// Threats: a webhook URL that leaks to a private address, sends events in clear text, or
// stores credentials (which the deliveries list would then show). What can be known without
// DNS is refused when the URL is saved, with a sentence the admin can act on.

describe("checkOutboundUrl without OUTBOUND_ALLOW_HOSTS", () => {
  it.each([
    "https://example.com/webhooks",
    "https://hooks.example.com:8443/in?source=gatehouse",
    "https://93.184.216.34/hook",
    "https://[2606:4700:4700::1111]/hook",
    // A DNS name is checked where it points when sending, not here.
    "https://localhost/hook",
    "https://internal.corp/hook",
  ])("accepts %s", (url) => {
    expect(checkOutboundUrl(url, NO_ALLOWED_HOSTS)).toBeNull();
  });

  it.each([
    ["http://example.com/webhooks", "must be https"],
    ["http://93.184.216.34/hook", "must be https"],
    ["ftp://example.com/x", "must be https"],
    ["javascript:alert(1)", "must be https"],
    ["https://user:pass@example.com/", "must not carry credentials"],
    ["https://token@example.com/", "must not carry credentials"],
    ["https://example.com/#frag", "must not have a fragment"],
    ["https://example.com/#", "must not have a fragment"],
    ["https://127.0.0.1/hook", "must not name a private address"],
    ["https://10.0.0.5:8443/hook", "must not name a private address"],
    ["https://169.254.169.254/latest/meta-data/", "must not name a private address"],
    ["https://0x7f.1/", "must not name a private address"],
    ["https://2130706433/", "must not name a private address"],
    ["https://[::1]/hook", "must not name a private address"],
    ["https://[::ffff:10.0.0.1]/hook", "must not name a private address"],
    ["https://[fd00::1]/hook", "must not name a private address"],
    ["http://127.0.0.1/hook", "must not name a private address"],
    ["example.com/webhooks", "must be an absolute URL such as https://example.com/webhooks"],
    ["", "must be an absolute URL such as https://example.com/webhooks"],
    ["https://exa mple.com/", "must not contain spaces or control characters"],
    ["https://example.com/a\tb", "must not contain spaces or control characters"],
    [" https://example.com/", "must not contain spaces or control characters"],
    [`https://example.com/${"a".repeat(2048)}`, "must be at most 2048 characters"],
  ])("refuses %s: %s", (url, sentence) => {
    expect(checkOutboundUrl(url, NO_ALLOWED_HOSTS)).toBe(sentence);
  });
});

describe("checkOutboundUrl with OUTBOUND_ALLOW_HOSTS", () => {
  it("accepts allowed addresses and hostnames, over plain http too", () => {
    const allow = parseAllowHosts("127.0.0.1/32,::1/128,localhost");
    expect(checkOutboundUrl("http://127.0.0.1:4000/hook", allow)).toBeNull();
    expect(checkOutboundUrl("https://127.0.0.1:4000/hook", allow)).toBeNull();
    expect(checkOutboundUrl("http://[::1]:4000/hook", allow)).toBeNull();
    expect(checkOutboundUrl("http://localhost:4000/hook", allow)).toBeNull();
    expect(checkOutboundUrl("http://LOCALHOST.:4000/hook", allow)).toBeNull();
    expect(checkOutboundUrl("http://127.0.0.2/hook", allow)).toBe("must not name a private address");
    expect(checkOutboundUrl("http://example.com/hook", allow)).toBeNull(); // where it points is for sending
    expect(checkOutboundUrl("https://user:pw@localhost/hook", allow)).toBe("must not carry credentials");
  });

  it("keeps plain http to hosts it lists", () => {
    const names = parseAllowHosts("sink.internal");
    expect(checkOutboundUrl("http://sink.internal/hook", names)).toBeNull();
    expect(checkOutboundUrl("http://other.internal/hook", names)).toBe("must be https");
    expect(checkOutboundUrl("http://93.184.216.34/hook", parseAllowHosts("10.0.0.0/8"))).toBe("must be https");
  });
});
