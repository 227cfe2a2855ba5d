import { PUBLIC_SITE, mailingInstance } from "@/tests/mail-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createPetRoute } from "@/app/v1/pets/route";
import { startBackgroundWork, type BackgroundWork } from "@/lib/worker/runner";
import { call, newKey, newOrganization } from "./helpers";
import { confirm, confirmedAlert, createAlert, tokenOf } from "./alerts-helpers";

// The whole path with the real background work, as an instance runs it: the
// confirmation email from its job, then an animal created through the API
// reaches an "as they arrive" alert's inbox within seconds (the matcher
// reads the feed after the commit's notification, and queues the sender at
// once), never inside the request.

const mail = mailingInstance();
let work: BackgroundWork | undefined;
let key: string;
let staffKey: string;
let shelter: number;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "applications:write"], "site"));
  shelter = await newOrganization({ name: "Runner Rescue" });
  ({ key: staffKey } = await newKey(["pets:read", "pets:write"], "intake", { plan: "pro" }, shelter));
  work = startBackgroundWork();
});

afterAll(async () => {
  await work?.stop();
});

describe("with the instance's background work", () => {
  it("sends the confirmation, and the first match within seconds of the animal's creation", async () => {
    expect((await createAlert(key, { email: "first@example.org", filters: { q: "Runner" } })).status).toBe(202);
    const confirmation = await mail.waitFor("first@example.org", /^Confirm your alert/, 30_000);
    expect(confirmation.text).toContain(`${PUBLIC_SITE}/alerts/${await tokenOf("first@example.org")}`);
    await confirmedAlert(key, "second@example.org", { q: "Runner" });
    // The first alert is confirmed through its link's API, as the page does.
    expect((await confirm(await tokenOf("first@example.org"))).status).toBe(200);

    const began = Date.now();
    const created = await call(createPetRoute, "/v1/pets", { method: "POST", key: staffKey, json: { name: "Runner Bean", categoryId: 1 } });
    expect(created.status).toBe(201);
    const match = await mail.waitFor("first@example.org", /^New match: Runner Bean/, 30_000);
    await mail.waitFor("second@example.org", /^New match: Runner Bean/, 30_000);
    expect(Date.now() - began).toBeLessThan(60_000);
    expect(match.text).toContain(`${PUBLIC_SITE}/pets/`);
  }, 90_000);
});
