// Two small programs a user of openapi-typescript + openapi-fetch would write against the types
// generated from the document (gatehouse.d.ts beside them). They are text, not modules of this
// repository: tsc compiles them in their own strict project (test/openapi/typed-client.test.ts).

/**
 * Compiles clean: sets `metadata` and `app_metadata` (free-form JSON objects), uses path
 * parameters, reads an error's `reason` and its details (`violations`). `run` makes the calls
 * against a live server and answers what it read, typed by the same generated types.
 */
export const GOOD_PROGRAM = `
import createClient from "openapi-fetch";
import type { components, paths } from "./gatehouse.js";

type ErrorBody = components["schemas"]["ErrorBody"];
type Metadata = NonNullable<components["schemas"]["auth.v1.User"]["metadata"]>;

export interface Seen {
  userId: string;
  metadata: Metadata;
  appMetadata: Metadata | undefined;
  readBack: Metadata | undefined;
  missing: Pick<ErrorBody, "code" | "reason"> & { status: number };
  invalid: { reason: string; fields: string[] };
}

export async function run(baseUrl: string, apiKey: string, email: string): Promise<Seen> {
  const client = createClient<paths>({ baseUrl, headers: { "x-service-key": apiKey } });

  const signup = await client.POST("/v1/auth/signup", {
    body: { email, password: "a sturdy passphrase 1", metadata: { plan: "pro" } },
  });
  if (!signup.data?.user) throw new Error("signup: " + JSON.stringify(signup.error));
  const userId: string = signup.data.user.id;

  const updated = await client.PATCH("/v1/auth/users/{id}", {
    params: { path: { id: userId } },
    body: {
      metadata: { plan: "team", seats: 5, tags: ["beta"], billing: { country: "NL" } },
      app_metadata: { tier: 2, flags: { sso: true } },
    },
  });
  if (!updated.data) throw new Error("update: " + JSON.stringify(updated.error));

  const read = await client.GET("/v1/auth/users/{id}", { params: { path: { id: userId } } });

  const missing = await client.GET("/v1/auth/users/{id}", { params: { path: { id: "usr_0000000000000000000000000" } } });
  if (!missing.error) throw new Error("an unknown user was found");
  const reason: string = missing.error.reason;

  const invalid = await client.POST("/v1/auth/signup", { body: { email: "not an email", password: "x" } });
  if (!invalid.error) throw new Error("an invalid signup passed");
  const fields: string[] = (invalid.error.violations ?? []).map((v) => v.field);

  return {
    userId,
    metadata: updated.data.metadata ?? {},
    appMetadata: updated.data.app_metadata,
    readBack: read.data?.metadata,
    missing: { status: missing.response.status, code: missing.error.code, reason },
    invalid: { reason: invalid.error.reason, fields },
  };
}
`;

/** Each line marked `// wrong` must be refused by tsc, and no other line. */
export const BAD_PROGRAM = `
import createClient from "openapi-fetch";
import type { paths } from "./gatehouse.js";

const client = createClient<paths>({ baseUrl: "http://127.0.0.1:9" });

export async function wrong(): Promise<void> {
  await client.PATCH("/v1/auth/users/{id}", {
    params: { path: { id: "usr_1" } },
    body: { metadata: "plan=pro" }, // wrong
  });
  await client.PATCH("/v1/auth/users/{id}", {
    params: { path: { id: "usr_1" } },
    body: { app_metadata: ["tier", 2] }, // wrong
  });
  await client.GET("/v1/auth/users/{id}", { params: { path: {} } }); // wrong
  await client.GET("/v1/auth/users/{user_id}", { params: { path: { user_id: "usr_1" } } }); // wrong
  const { error } = await client.GET("/v1/auth/users");
  const retry: string | undefined = error?.retry_after_seconds; // wrong
  console.log(retry, error?.reason);
}
`;
