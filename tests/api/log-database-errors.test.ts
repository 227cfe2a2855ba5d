import { beforeAll, describe, expect, it, vi } from "vitest";
import * as alertQueries from "@/lib/alerts/queries";
import { hashAlertToken } from "@/lib/alerts/service";
import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { logger } from "@/lib/log";
import { captureLogLines } from "@/tests/log-capture";
import { expectApiError, newKey } from "./helpers";
import { createAlert, tokenOf } from "./alerts-helpers";

// A database error's DETAIL holds the row a constraint refused ("Failing row
// contains (…)", "Key (…)=(…) already exists"): an alert's address and
// token hash, an applicant's name. Log lines keep the error's code, message
// and stack for operators, never those values, whatever field the error is
// logged under and however deep the driver's error sits.

const { lines, since: linesFrom } = captureLogLines();
let key: string;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "applications:write"]));
});

describe("log lines of database errors", () => {
  it("a check constraint's refusal answered 500 logs its code and constraint, not the row (the address, the token's hash)", async () => {
    const from = lines.length;
    const insert = alertQueries.insertAlertWithConfirmation;
    // A radius of 0, as a denormal `within` once underflowed to: the database refuses the row.
    vi.spyOn(alertQueries, "insertAlertWithConfirmation").mockImplementationOnce((a) => insert({ ...a, near: { ...a.near!, chord: 0 } }));
    await expectApiError(await createAlert(key, { email: "row.owner@example.org", filters: { near: "60601", within: "5km" } }), 500, "internal_error");
    const logged = linesFrom(from);
    const failure = logged.find((l) => l.includes("request failed"));
    expect(failure).toContain("alerts_within_chord_check");
    expect(failure).toContain("23514");
    expect(logged.join("\n")).not.toMatch(/row\.owner|Failing row contains \(|"detail"/);
  });

  it("a unique violation from the driver logs its code and constraint, not the key's value", async () => {
    expect((await createAlert(key, { email: "first@example.org" })).status).toBe(202);
    const taken = hashAlertToken(await tokenOf("first@example.org"));
    const error = await query(Prisma.sql`INSERT INTO alerts (email, inbox, token_hash, sealed_token, frequency, filters, consent_at)
      VALUES ('second.owner@example.org', 'second.owner@example.org', ${taken}, 'sealed', 'hourly', '{}', now())`).then(
      () => null,
      (e: unknown) => e as { code?: string; detail?: string },
    );
    // The driver's error does carry the row's key.
    expect(error?.detail).toContain(taken);
    const from = lines.length;
    logger().error({ err: error }, "insert failed");
    const logged = linesFrom(from).join("\n");
    expect(logged).toContain("23505");
    expect(logged).toContain("alerts_token_hash_key");
    expect(logged).not.toContain(taken);
    expect(logged).not.toMatch(/second\.owner|"detail"/);
  });

  it("nor does a driver's error logged under any other name, or quoted in another error's message", async () => {
    const error =
      await query(Prisma.sql`INSERT INTO alerts (email, inbox, token_hash, sealed_token, frequency, filters, within_chord, near_lat, near_lng, consent_at)
      VALUES ('driver.row@example.org', 'driver.row@example.org', ${"x".repeat(43)}, 'sealed', 'hourly', '{}', 0, 41.88, -87.62, now())`).then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeTruthy();
    const from = lines.length;
    logger().warn({ failure: error, step: "probe" }, "something failed");
    logger().error({ err: new Error("wrapped", { cause: error }) }, "wrapped failure");
    logger().error({ err: new Error(`insert refused: Failing row contains (1, driver.row@example.org, …)`) }, "quoted failure");
    const logged = linesFrom(from);
    expect(logged).toHaveLength(3);
    for (const line of logged) expect(line).not.toMatch(/driver\.row|"detail"/);
    expect(logged[2]).toContain("insert refused: Failing row contains [redacted]");
    expect(await db().alert.count({ where: { email: "driver.row@example.org" } })).toBe(0);
  });
});
