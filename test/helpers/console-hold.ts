import type { Page, Request } from "playwright-core";

// Holds a console RPC in the browser (playwright's route), so a test can change the page's
// address while a section is still loading and then let the answer come: the late answer a
// stale section would draw from (issue 46).

export interface HeldRpc {
  /** Resolves once a call matching the filter has been sent and is being held. */
  seen: Promise<Request>;
  /** Lets the held call go on to the server. */
  release(): void;
  /** Resolves once the released call has ended in the page: answered, or aborted by it meanwhile. */
  ended: Promise<void>;
}

/** Holds the first call of `rpc` (e.g. "gatehouse.account.v1.AccountService/ListApiKeys") whose JSON body passes `match`. */
export async function holdRpc(
  page: Page,
  rpc: string,
  match: (body: Record<string, unknown>) => boolean,
): Promise<HeldRpc> {
  let held = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let seen!: (request: Request) => void;
  const seenPromise = new Promise<Request>((resolve) => (seen = resolve));
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  await page.route(`**/${rpc}`, async (route) => {
    const request = route.request();
    if (held || !match((request.postDataJSON() ?? {}) as Record<string, unknown>)) return route.fallback();
    held = true;
    const done = (other: Request) => {
      if (other !== request) return;
      page.off("requestfinished", done);
      page.off("requestfailed", done);
      end();
    };
    page.on("requestfinished", done);
    page.on("requestfailed", done);
    seen(request);
    await released;
    // The page may have aborted the call meanwhile: then there is nothing left to continue.
    await route.continue().catch(() => end());
  });
  return { seen: seenPromise, release, ended };
}
