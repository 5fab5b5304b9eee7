import * as oidc from "openid-client";
import { describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import {
  CookieBrowser,
  formFields,
  signInAtLoginPage,
  useOpenidWorld,
  type OpenidProject,
} from "../helpers/openid-provider-world.js";

// The device grant's user code (RFC 8628) is 8 letters a person types on the verification
// page, short enough to guess at, so its entry is limited (section 5.1): wrong codes count
// against the client address, with the wrong passwords and codes of the project, and against
// the project's code entry as a whole. Over a limit the page answers 429 with Retry-After and
// does not look the code up, so a guesser cannot tell a right code from a wrong one; a person
// at another address still connects their device. Requests come through a trusted proxy on
// loopback, so X-Forwarded-For names each client.

const world = useOpenidWorld({ TRUSTED_PROXIES: "127.0.0.1" });

let addresses = 0;
/** A fresh client address from TEST-NET-2. */
function freshIp(): string {
  addresses++;
  return `198.51.100.${addresses}`;
}

async function deviceProject(rateLimits: Record<string, number>) {
  const p = await world.project();
  const limited = await http(`${world.publicUrl}/v1/projects/${p.project.id}`, {
    method: "PATCH",
    headers: p.admin,
    body: { rate_limits: rateLimits },
  });
  expect(limited.status, JSON.stringify(limited.body)).toBe(200);
  const { client_id } = await p.createClient({
    name: "Gatehouse CLI",
    type: "public",
    grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
    first_party: true,
  });
  const device = await oidc.initiateDeviceAuthorization(await p.discover(client_id), { scope: "openid email" });
  return { p, device };
}

/** A person's browser at `ip` on the verification page: it types codes into the page's form. */
async function atDevicePage(p: OpenidProject, ip: string) {
  const browser = new CookieBrowser({ "x-forwarded-for": ip });
  let page = await browser.request(`${p.issuer}/oauth/device`);
  expect(page.status).toBe(200);
  return {
    browser,
    async enter(code: string) {
      const { action, fields } = formFields(page.body as string, "op.deviceInputForm");
      page = await browser.request(new URL(action, p.issuer).href, { form: { ...fields, user_code: code } });
      return page;
    },
  };
}

/** A code of the device grant's alphabet (no vowels) that no device was given. */
function wrongCode(i: number): string {
  return `BCDF-GH${"JKLMNPQRSTVWXZ"[Math.floor(i / 14) % 14]}${"JKLMNPQRSTVWXZ"[i % 14]}`;
}

async function rateLimitRows(p: OpenidProject) {
  const res = await http(`${world.publicUrl}/v1/audit-events?project_id=${p.project.id}&type=rate_limit.exceeded`, {
    method: "GET",
    headers: p.admin,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<{ details: Record<string, unknown>; ip_address: string }>;
}

function expectLimited(res: { status: number; body: unknown; headers: Headers }): void {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(res.body).toContain("Too many codes were tried.");
  expect(res.body).not.toContain("op.deviceConfirmForm");
}

describe("the device page's user-code entry", () => {
  it("refuses an address past its wrong codes, the right code too; another address connects its device", async () => {
    const { p, device } = await deviceProject({ failures_per_ip: 3 });
    const guesser = freshIp();
    const guessing = await atDevicePage(p, guesser);
    for (let i = 0; i < 3; i++) {
      const wrong = await guessing.enter(wrongCode(i));
      expect(wrong.status).toBe(200);
      expect(wrong.body).toContain("That code is not right, or has expired.");
    }
    expectLimited(await guessing.enter(wrongCode(3)));
    // Not looked up: the right code answers as a wrong one would.
    expectLimited(await guessing.enter(device.user_code));
    // A new browser at the same address is the same guesser.
    expectLimited(await (await atDevicePage(p, guesser)).enter(device.user_code));

    // The person whose device shows the code, elsewhere: confirm, sign in, and the device gets its tokens.
    const person = await atDevicePage(p, freshIp());
    const confirm = await person.enter(device.user_code);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(device.user_code);
    const { action, fields } = formFields(confirm.body as string, "op.deviceConfirmForm");
    const submitted = await person.browser.request(new URL(action, p.issuer).href, { form: fields });
    const atLogin = await person.browser.follow(submitted.location, world.publicUrl);
    await p.signUp("dev@example.com");
    const done = await signInAtLoginPage(world, p, person.browser, atLogin.url, "dev@example.com");
    expect(done.body).toContain("Device connected");

    // One audit row for the guesser's wait, however many refusals it had.
    const rows = await rateLimitRows(p);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ip_address: guesser, details: { endpoint: "oauth/device" } });
  });

  it("takes at most ten addresses' worth of wrong codes across the project, then refuses every address", async () => {
    const { p, device } = await deviceProject({ failures_per_ip: 1 });
    for (let i = 0; i < 10; i++) {
      const wrong = await (await atDevicePage(p, freshIp())).enter(wrongCode(i));
      expect(wrong.status, `address ${i + 1}`).toBe(200);
    }
    expectLimited(await (await atDevicePage(p, freshIp())).enter(device.user_code));
    // Another project's code entry is its own.
    const other = await deviceProject({ failures_per_ip: 1 });
    const confirm = await (await atDevicePage(other.p, freshIp())).enter(other.device.user_code);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain("op.deviceConfirmForm");
  });
});
