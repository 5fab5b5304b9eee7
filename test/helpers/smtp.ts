import { SMTPServer } from "smtp-server";
import { WAIT_GUARD_MS } from "./patience.js";

// A real SMTP server in the test process, on 127.0.0.1: what Gatehouse's mailer talks to.
// It accepts any sender and recipient without authentication and keeps each message parsed
// (headers, text and HTML parts), so a test can follow the link a person would click.

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

export interface SmtpSink {
  port: number;
  /** `smtp://127.0.0.1:port`, for SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /** The `nth` message (1-based, received or still to come) to this address; fails after `timeoutMs`. */
  waitFor(to: string, options?: { nth?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // No certificate to offer: keep the session in plain text on loopback.
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        messages.push({
          ...parseMessage(Buffer.concat(chunks).toString("utf8")),
          to: session.envelope.rcptTo.map((r) => r.address),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = (server as unknown as { server: { address(): { port: number } } }).server.address();
  return {
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    async waitFor(to, { nth = 1, timeoutMs = WAIT_GUARD_MS } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.filter((m) => m.to.some((r) => r.toLowerCase() === to.toLowerCase()))[nth - 1];
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`mail #${nth} to ${to} did not arrive within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// Just enough MIME for what nodemailer writes: folded headers, encoded words, nested
// multiparts, quoted-printable and base64 parts.
function parseMessage(raw: string): Omit<ReceivedMail, "to"> {
  const out = { from: "", subject: "", text: "", html: "" };
  const visit = (entity: string) => {
    const { headers, body } = splitEntity(entity);
    const type = headers.get("content-type") ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      for (const part of body.split(`--${boundary}`).slice(1)) {
        if (part.startsWith("--")) break;
        visit(part.replace(/^\r?\n/, ""));
      }
      return;
    }
    const decoded = decodeTransfer(body, headers.get("content-transfer-encoding") ?? "7bit");
    if (/^text\/html/i.test(type)) out.html ||= decoded;
    else if (/^text\/plain/i.test(type)) out.text ||= decoded;
  };
  const top = splitEntity(raw).headers;
  out.from = decodeWords(top.get("from") ?? "");
  out.subject = decodeWords(top.get("subject") ?? "");
  visit(raw);
  return out;
}

function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const end = entity.search(/\r?\n\r?\n/);
  const head = end === -1 ? entity : entity.slice(0, end);
  const body = end === -1 ? "" : entity.slice(end).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeTransfer(body: string, encoding: string): string {
  if (/quoted-printable/i.test(encoding)) {
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=\s*/gi, (_, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : decodeTransfer(text.replace(/_/g, " "), "quoted-printable"),
  );
}
