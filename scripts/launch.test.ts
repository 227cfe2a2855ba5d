import { describe, expect, it } from "vitest";
import { localSetupDefaults } from "./launch";

// What `npm start` on the embedded database and `npm run dev` turn on for a
// local trial, and what they must not.

describe("the launcher's local-setup defaults", () => {
  it("a trial on the embedded database: plain-HTTP cookies and the demo login, but webhooks still only to public addresses", () => {
    const defaults = localSetupDefaults({}, "start");
    expect(defaults).toEqual({ INSECURE_COOKIES: "true", SEED_DEMO_STAFF: "true" });
    expect(defaults).not.toHaveProperty("WEBHOOK_ALLOW_PRIVATE");
    expect(localSetupDefaults({}, "dev")).not.toHaveProperty("WEBHOOK_ALLOW_PRIVATE");
  });

  it("a deployment's database: nothing turned on; what the operator set is kept", () => {
    expect(localSetupDefaults({ DATABASE_URL: "postgresql://db/petstore" }, "start")).toEqual({});
    expect(localSetupDefaults({ DATABASE_URL: "postgresql://db/petstore" }, "dev")).toEqual({ SEED_DEMO_STAFF: "true" });
    expect(localSetupDefaults({ INSECURE_COOKIES: "false", SEED_DEMO_STAFF: "false" }, "start")).toEqual({});
  });
});
