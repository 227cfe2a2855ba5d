import { testMailServer } from "@/tests/mail-server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as alertGET } from "@/app/v1/alerts/[token]/route";
import { POST as unsubscribePOST } from "@/app/v1/alerts/[token]/unsubscribe/route";
import { POST as alertPOST } from "@/app/v1/alerts/route";
import { GET as linkGET } from "@/app/v1/application-links/[token]/route";
import { POST as applyPOST } from "@/app/v1/pets/[petId]/applications/route";
import { GET as listGET, POST as createPOST } from "@/app/v1/pets/route";
import { DELETE as signOutDELETE, POST as signInPOST } from "@/app/v1/session/route";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { startBackgroundWork } from "@/lib/worker/runner";
import { openToken } from "@/lib/mail/sealed-token";
import * as petQueries from "@/lib/pets/queries/pages";
import { createStaff } from "@/lib/staff/service";
import { captureLogLines } from "@/tests/log-capture";
import { call, newKey } from "./helpers";
import { until } from "@/tests/wait";

// Logs are for operators and may travel far (collectors, tickets): no line
// may carry an Authorization header, a cookie, a password or a full API key,
// whatever the request and however it fails; nor anything of an adoption
// applicant beyond an id, even when their email fails in the background.

const { lines } = captureLogLines();

const STAFF = { email: "logs@petstore.test", password: "a password nobody may read" };
const HOST = { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" };

beforeAll(async () => {
  await createStaff(STAFF, { organizationId: 1 });
});

describe("log lines", () => {
  it("never contain a credential, on success or failure", async () => {
    const { key } = await newKey(["pets:read", "pets:write"]);
    const secrets: string[] = [key, key.slice(8), STAFF.password, "wrong-password-in-a-log"];

    await call(listGET, "/v1/pets", { key });
    await call(listGET, "/v1/pets", { authorization: `Bearer ${key.slice(0, -1)}X` });
    await call(listGET, "/v1/pets", { authorization: `Basic ${Buffer.from(`user:${STAFF.password}`).toString("base64")}` });
    secrets.push(key.slice(0, -1) + "X", Buffer.from(`user:${STAFF.password}`).toString("base64"));

    const wrong = await call(signInPOST, "/v1/session", { method: "POST", json: { email: STAFF.email, password: "wrong-password-in-a-log" }, headers: HOST });
    expect(wrong.status).toBe(401);
    const right = await call(signInPOST, "/v1/session", { method: "POST", json: STAFF, headers: HOST });
    expect(right.status).toBe(200);
    const cookie = right.headers.get("set-cookie")!.split(";")[0]!;
    secrets.push(cookie.split("=")[1]!);
    await call(createPOST, "/v1/pets", { method: "POST", json: { name: "Logged", categoryId: 1 }, headers: { ...HOST, cookie } });

    // An unexpected failure and a database outage are logged in full for
    // operators: still without the request's credentials.
    vi.spyOn(petQueries, "findPetPage").mockRejectedValueOnce(new Error("boom"));
    expect((await call(listGET, "/v1/pets", { key })).status).toBe(500);
    vi.spyOn(petQueries, "findPetPage").mockRejectedValueOnce(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
    expect((await call(listGET, "/v1/pets", { key })).status).toBe(503);
    await call(signOutDELETE, "/v1/session", { method: "DELETE", headers: { ...HOST, cookie } });

    // An adoption application: the applicant's details and the private link's token.
    const { key: forwarder } = await newKey(["pets:read", "pets:write", "applications:write"], "forwarder");
    const pet = (await (await call(createPOST, "/v1/pets", { method: "POST", key: forwarder, json: { name: "Private", categoryId: 1 } })).json()) as {
      id: number;
    };
    const applicant = {
      name: "Quinn Logless",
      email: "quinn.logless@example.org",
      phone: "+1 555 0177",
      home: "flat",
      message: "Reasons nobody else reads.",
      consent: true,
    };
    const applied = await call(applyPOST, `/v1/pets/${pet.id}/applications`, {
      method: "POST",
      key: forwarder,
      json: applicant,
      params: { petId: String(pet.id) },
    });
    expect(applied.status).toBe(201);
    const token = ((await applied.json()) as { statusUrl: string }).statusUrl.split("/").at(-1)!;
    await call(linkGET, `/v1/application-links/${token}`, { params: { token } });
    secrets.push(token, applicant.name, applicant.email, applicant.phone, applicant.message);

    // An alert: its address and its private link's token (in the paths of its page's calls and of the one-click unsubscribe).
    const alerted = await call(alertPOST, "/v1/alerts", {
      method: "POST",
      key: forwarder,
      json: { email: "ari.alerts@example.org", frequency: "hourly", consent: true },
    });
    expect(alerted.status).toBe(202);
    const alertToken = openToken(
      (await db().alert.findFirstOrThrow({ where: { email: "ari.alerts@example.org" }, select: { sealedToken: true } })).sealedToken,
    );
    await call(alertGET, `/v1/alerts/${alertToken}`, { params: { token: alertToken } });
    await call(unsubscribePOST, `/v1/alerts/${alertToken}/unsubscribe`, { method: "POST", params: { token: alertToken } });
    secrets.push(alertToken, "ari.alerts@example.org");

    expect(lines.length).toBeGreaterThan(8);
    expect(lines.some((l) => l.includes('"msg":"request failed"'))).toBe(true);
    for (const line of lines) {
      for (const secret of secrets) expect(line, `a log line contains a secret: ${line.slice(0, 300)}`).not.toContain(secret);
      expect(line.toLowerCase()).not.toMatch(/"authorization"\s*:\s*"(?!\[redacted\])/);
      expect(line.toLowerCase()).not.toMatch(/"cookie"\s*:\s*"(?!\[redacted\])/);
    }
  });

  it("an applicant's email the mail server refuses (550, echoing the address) fails its job without logging the applicant", async () => {
    // A mail server that refuses the recipient as real ones do: its reply names the address.
    const smtp = testMailServer({ rejectRecipient: (address) => `5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table` });
    vi.stubEnv("SMTP_URL", await smtp.start());
    resetEnvCache();
    const work = startBackgroundWork();
    lines.length = 0;
    try {
      const { key: forwarder } = await newKey(["pets:read", "pets:write", "applications:write"], "refused forwarder");
      const pet = (await (await call(createPOST, "/v1/pets", { method: "POST", key: forwarder, json: { name: "Unmailed", categoryId: 1 } })).json()) as {
        id: number;
      };
      const applicant = {
        name: "Rowan Unlisted",
        email: "rowan.unlisted@example.org",
        phone: "+1 555 0199",
        home: "house",
        message: "Words for the shelter only.",
        consent: true,
      };
      const applied = await call(applyPOST, `/v1/pets/${pet.id}/applications`, {
        method: "POST",
        key: forwarder,
        json: applicant,
        params: { petId: String(pet.id) },
      });
      expect(applied.status).toBe(201);
      const { id } = (await applied.json()) as { id: number };

      // Its confirmation job fails (and will be retried).
      const failed = await until("the confirmation job to fail", async () => {
        const rows = await db().$queryRaw<
          { last_error: string | null }[]
        >`SELECT j.last_error FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
          WHERE t.identifier = 'application-mail' AND j.payload->>'applicationId' = ${String(id)} AND j.attempts >= 1 AND j.last_error IS NOT NULL`;
        return rows.length > 0 ? rows : null;
      });
      await work.stop();
      const failure = lines.find((l) => l.includes("Failed task") && l.includes("application-mail"));
      expect(failure, "the failed job is logged").toBeDefined();

      const secrets = [applicant.name, "Rowan", "Unlisted", applicant.email, "rowan.unlisted", applicant.phone, applicant.message];
      for (const line of lines) for (const secret of secrets) expect(line, `a log line contains "${secret}": ${line.slice(0, 400)}`).not.toContain(secret);
      // Nor does the job queue's own record of the failure.
      for (const secret of secrets) expect(failed[0]!.last_error).not.toContain(secret);
      // What operators get instead: the reply code and the command, which tell a refused recipient from a server that is down.
      expect(failure).toContain("550 at RCPT TO");
      expect(failed[0]!.last_error).toContain("550 at RCPT TO");
    } finally {
      await work.stop();
      await smtp.close();
    }
  });
});
