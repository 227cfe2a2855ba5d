import "server-only";
import { GET as getCategories } from "@/app/v1/categories/route";
import { GET as getSession } from "@/app/v1/session/route";
import type { Category } from "@/lib/pets/schemas";
import { serverApi } from "@/lib/site/server-api";
import type { SessionInfo } from "@/lib/staff/schemas";

// What the staff pages know while rendering on the server, asked of the same
// /v1 handlers the browser uses. null when the API said no (rate limit,
// database down): the page then asks again from the browser.

export async function currentSession(): Promise<SessionInfo | null> {
  const res = await serverApi<SessionInfo>(getSession, "/v1/session");
  return res.status === 200 ? res.body : null;
}

export async function categoriesForStaff(): Promise<Category[] | null> {
  const res = await serverApi<Category[]>(getCategories, "/v1/categories");
  return res.status === 200 ? res.body : null;
}
