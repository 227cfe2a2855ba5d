import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { MAIL_KINDS, type MailKind } from "@/lib/core/mail-kinds";
import { MailError, sendMail } from "@/lib/mail/mailer";
import { metrics } from "@/lib/metrics";
import { testMailServer } from "@/tests/mail-server";

// Every email is counted by what it is for and whether the mail server took
// it (petstore_emails_total), so an operator sees mail failing before
// applicants say their link never came; the address is never a label.

const mail = testMailServer({ rejectRecipient: (address) => (address.startsWith("nobody") ? `5.1.1 <${address}>: no such user` : undefined) });

beforeAll(async () => {
  vi.stubEnv("SMTP_URL", await mail.start());
  vi.stubEnv("MAIL_FROM", "Shelter <adopt@shelter.example>");
  resetEnvCache();
});

afterAll(async () => {
  await mail.close();
  vi.unstubAllEnvs();
  resetEnvCache();
});

async function counted(kind: MailKind, outcome: "sent" | "failed"): Promise<number> {
  const { values } = await metrics().emails.get();
  return values.find((v) => v.labels.kind === kind && v.labels.outcome === outcome)?.value ?? 0;
}

describe("petstore_emails_total", () => {
  it("is exported for every kind and outcome from the start (at 0 until counted), so a rule can see that none were sent", async () => {
    const { values } = await metrics().emails.get();
    const series = values.map((v) => `${v.labels.kind} ${v.labels.outcome}`).sort();
    expect(series).toEqual(MAIL_KINDS.flatMap((kind) => [`${kind} failed`, `${kind} sent`]).sort());
  });

  it("counts a sent email under its kind, and a refused one (temporary or for good) as failed", async () => {
    const before = {
      sent: await counted("alert_matches", "sent"),
      failed: await counted("alert_matches", "failed"),
      other: await counted("application_link", "sent"),
    };
    const message = { kind: "alert_matches" as const, subject: "2 new animals match your alert", text: "Biscuit and Pepper." };

    expect(await sendMail({ ...message, to: "sam@example.org" })).toBe(true);
    expect(mail.inbox.at(-1)?.subject).toBe(message.subject);
    mail.refuseNext(1);
    await expect(sendMail({ ...message, to: "sam@example.org" })).rejects.toBeInstanceOf(MailError);
    await expect(sendMail({ ...message, to: "nobody@example.org" })).rejects.toBeInstanceOf(MailError);

    expect(await counted("alert_matches", "sent")).toBe(before.sent + 1);
    expect(await counted("alert_matches", "failed")).toBe(before.failed + 2);
    expect(await counted("application_link", "sent")).toBe(before.other);
  });

  it("has no label that could carry an address", async () => {
    const { values } = await metrics().emails.get();
    expect(values.length).toBeGreaterThan(0);
    for (const { labels } of values) {
      expect(Object.keys(labels).sort()).toEqual(["kind", "outcome"]);
      expect(JSON.stringify(labels)).not.toContain("@");
    }
  });
});
