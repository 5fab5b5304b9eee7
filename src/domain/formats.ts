// String shapes that need a parser, named by the proto's server rules (gatehouse.options.v1.Format;
// the shapes a pattern states are protovalidate rules, src/domain/patterns.ts). Each check
// answers a description of what is wrong, or undefined when the value is fine.

import { emailProblem } from "./email.js";

const E164 = /^\+[1-9]\d{7,14}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An address in the one canonical form's rules (domain/email.ts): refused look-alikes are told why. */
export function checkEmail(value: string): string | undefined {
  return emailProblem(value);
}

export function checkHttpUri(value: string): string | undefined {
  const url = parseUrl(value);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
    return "must be an absolute http or https URI";
  }
  return undefined;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * An image a hosted page loads: https, or http on a loopback host (plain http elsewhere is
 * mixed content). Its origin goes into the page's Content-Security-Policy, so its host must be
 * a plain DNS name or an IP literal: the URL parser lets `*`, `;`, `,` and quotes through in a
 * host, and `https://*.example.com` would allow images from every subdomain, `;` would end
 * the directive and `,` would start a second policy.
 */
export function checkImageUrl(value: string): string | undefined {
  if (value === "") return undefined;
  const url = parseUrl(value);
  const ok =
    url !== undefined &&
    isPlainHost(url.hostname) &&
    (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)));
  return ok
    ? undefined
    : "must be an absolute https URI whose host is a DNS name or an IP address (http only on localhost or a loopback address)";
}

const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/;

/**
 * A URL's `hostname` (as the URL parser gives it: lower case, punycode, IPv4 in dotted
 * decimal, IPv6 in brackets) that is a DNS name of letters, digits and hyphens, or an IP
 * literal: what a CSP host-source can name without a wildcard.
 */
export function isPlainHost(hostname: string): boolean {
  if (IPV6_LITERAL.test(hostname)) return true;
  const labels = hostname.split(".");
  return hostname.length <= 253 && labels.every((label) => DNS_LABEL.test(label));
}

export function checkOrigin(value: string): string | undefined {
  const url = parseUrl(value);
  const shapeOk =
    url !== undefined &&
    (url.protocol === "http:" || url.protocol === "https:") &&
    url.origin.toLowerCase() === value.toLowerCase();
  return shapeOk ? undefined : "must be an origin, scheme://host[:port], without path, query or trailing slash";
}

export function checkE164(value: string): string | undefined {
  return E164.test(value) ? undefined : "must be a phone number in E.164 form, e.g. +15551234567";
}

export function checkDateTime(value: string): string | undefined {
  return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
    ? undefined
    : "must be an RFC 3339 date-time with a time zone, e.g. 2026-01-31T12:00:00Z";
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
