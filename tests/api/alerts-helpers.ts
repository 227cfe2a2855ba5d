import { POST as createRoute } from "@/app/v1/alerts/route";
import { POST as confirmRoute } from "@/app/v1/alerts/[token]/confirm/route";
import { db } from "@/lib/db";
import { openToken } from "@/lib/mail/sealed-token";
import { call, type CallOptions } from "./helpers";

// Alerts in tests: created through the API like the site's form; the link's
// token read back the way the mail job reads it (from its sealed copy),
// since only the email carries it.

export function createAlert(key: string, body: Record<string, unknown>, options: CallOptions = {}) {
  return call(createRoute, "/v1/alerts", { method: "POST", key, json: { frequency: "hourly", consent: true, ...body }, ...options });
}

/** The newest alert's token for this address. */
export async function tokenOf(email: string): Promise<string> {
  const row = await db().alert.findFirstOrThrow({ where: { email }, orderBy: { id: "desc" }, select: { sealedToken: true } });
  return openToken(row.sealedToken);
}

export function confirm(token: string) {
  return call(confirmRoute, `/v1/alerts/${token}/confirm`, { method: "POST", params: { token } });
}

/** Creates and confirms an alert; its token. */
export async function confirmedAlert(key: string, email: string, filters: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await createAlert(key, { email, filters, ...extra });
  if (res.status !== 202) throw new Error(`alert not created: ${res.status} ${await res.text()}`);
  const token = await tokenOf(email);
  const confirmed = await confirm(token);
  if (confirmed.status !== 200) throw new Error(`alert not confirmed: ${confirmed.status}`);
  return token;
}
