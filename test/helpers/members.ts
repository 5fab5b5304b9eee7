import { expect } from "vitest";
import { http, type HttpAnswer } from "./clients.js";
import type { TestServer } from "./server.js";
import type { ReceivedMail, SmtpSink } from "./smtp.js";

// Members over the wire for the member-identity, logout, removal and password tests: sign-in
// (with or without an organization), invitations read from the SMTP sink, and the links in the
// emails. Each call is REST, as the console would make it.

export const PUBLIC_URL = "https://console.example.test";

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The token of the `{PUBLIC_URL}?token=…&type=<type>` link in an email, after checking the link's shape. */
export function linkToken(mail: ReceivedMail, type: string): string {
  const link = new RegExp(`${PUBLIC_URL.replace(/\./g, "\\.")}\\?\\S+`).exec(mail.text)?.[0];
  expect(link, "the text part carries the link").toBeDefined();
  const url = new URL(link!);
  expect(url.searchParams.get("type")).toBe(type);
  expect(mail.html).toContain(link!.replace(/&/g, "&#38;"));
  return url.searchParams.get("token")!;
}

export function membersKit(server: () => TestServer, smtp: () => SmtpSink) {
  const url = (path: string) => `${server().url}${path}`;
  const kit = {
    login: (email: string, password: string, organizationId?: string): Promise<HttpAnswer> =>
      http(url("/v1/account/login"), {
        body: { email, password, ...(organizationId && { organization_id: organizationId }) },
      }),

    /** Signs in and answers the token, failing the test unless Login issued one. */
    async token(email: string, password: string, organizationId?: string): Promise<string> {
      const answer = await kit.login(email, password, organizationId);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.management_token).toMatch(/^gmt_/);
      return answer.body.management_token as string;
    },

    /** Invites as `headers` and answers the token of the link in the email that arrives. */
    async invite(headers: Record<string, string>, email: string, role = "developer"): Promise<string> {
      const before = kit.mails(email).length;
      const answer = await http(url("/v1/members/invite"), { headers, body: { email, role } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return linkToken(await smtp().waitFor(email, { nth: before + 1 }), "invitation");
    },

    /** The emails that reached the address, oldest first (addresses compared case-insensitively). */
    mails: (email: string) => smtp().messages.filter((m) => m.to.some((r) => r.toLowerCase() === email.toLowerCase())),

    accept: (token: string, password: string): Promise<HttpAnswer> =>
      http(url("/v1/account/invitations/accept"), { body: { token, password } }),

    listProjects: (token: string): Promise<HttpAnswer> => http(url("/v1/projects"), { headers: bearer(token) }),

    listMembers: (token: string): Promise<HttpAnswer> => http(url("/v1/members?limit=100"), { headers: bearer(token) }),
  };
  return kit;
}
