// Threats: the operator's in-process caller reaching what it must not (a member's own RPCs, a
// sign-in), or going around the API's checks: the CLI is a client of the router the server
// serves, so what it cannot do as the operator it cannot do at all.
import { ConnectError } from "@connectrpc/connect";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import { openOperatorServices } from "../../src/operator-services.js";
import { commandEnv } from "../helpers/process.js";
import { cliBox } from "./helpers.js";

async function refusal(call: Promise<unknown>): Promise<string | undefined> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConnectError);
  return (error as ConnectError).findDetails(ErrorInfoSchema)[0]?.reason;
}

describe("cli: the operator as the API's caller", () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it("acts as an organization's administrator, audited as the operator, and reaches no member's own RPC", async () => {
    const box = await cliBox();
    cleanup.push(() => box.db.drop());
    const created = await box.json([
      "org",
      "create",
      "--name",
      "Acme",
      "--email",
      "ops@acme.test",
      "--password",
      "operator-password-1",
    ]);
    const org = created.organization.id as string;
    const other = await box.json([
      "org",
      "create",
      "--name",
      "Other",
      "--email",
      "ops@other.test",
      "--password",
      "operator-password-1",
    ]);
    // Opened last: on the embedded database this holds the data directory until the test ends.
    const services = await openOperatorServices(loadConfig(commandEnv(box.env)), createLogger("silent"));
    cleanup.push(() => services.close());
    const account = services.api.account(org, "tester");

    const project = await account.createProject({
      name: "Shop",
      allowedOrigins: ["https://app.example.com"],
      redirectUrl: "https://app.example.com/cb",
    });
    const audited = await account.listAuditEvents({ type: ["project.created"] });
    expect(audited.data.map((e) => [e.actorType, e.actorId, e.userAgent, e.ipAddress, e.projectId])).toEqual([
      ["operator", "tester", "gatehouse-cli", "", project.id],
    ]);
    // The request is validated as any other: the interceptor chain is the server's.
    expect(await refusal(account.createProject({ name: "Shop" }))).toBe("VALIDATION_FAILED");

    // Another organization's project is not found, as for its members.
    const stranger = services.api.account(other.organization.id as string, "tester");
    expect(await refusal(stranger.getProject({ id: project.id }))).toBe("PROJECT_NOT_FOUND");

    // A member's own RPCs and the sign-ins are no operator's: it is no member and signs in as no one.
    expect(await refusal(account.getCurrentMember({}))).toBe("MISSING_MANAGEMENT_TOKEN");
    expect(await refusal(account.logout({}))).toBe("MISSING_MANAGEMENT_TOKEN");
    expect(await refusal(account.login({ email: "ops@acme.test", password: "operator-password-1" }))).toBe(
      "MISSING_MANAGEMENT_TOKEN",
    );
  });
});
