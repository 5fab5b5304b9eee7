/** One text message. */
export interface OutgoingSms {
  /** E.164. */
  to: string;
  body: string;
}

/** Hands one SMS to a provider; resolves once it was accepted, throws otherwise (the outbox retries). */
export interface SmsSender {
  send(sms: OutgoingSms): Promise<void>;
  close(): void;
}

// Bounded, like SMTP's timeouts, so a stalled provider cannot hold a delivery past its lease.
const TIMEOUT_MS = 10_000;

/**
 * SMS_WEBHOOK_URL receives `POST {"to", "body"}` as JSON (API.md section 5); any 2xx answer
 * is delivery, anything else a failure to retry. Bridge it to the provider of your choice.
 */
export function webhookSmsSender(url: string): SmsSender {
  const controller = new AbortController();
  return {
    async send(sms) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ to: sms.to, body: sms.body }),
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(TIMEOUT_MS)]),
      });
      // Drained either way, so the connection can be reused.
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`SMS webhook answered HTTP ${res.status}`);
    },
    close() {
      controller.abort();
    },
  };
}
