import { beforeAll, describe, expect, it, vi } from "vitest";
import { sessionCookieName } from "@/lib/core/cookies";
import { createStaffSession } from "@/lib/sessions/service";
import { staffSession } from "../api/helpers";
import { configurableEnv } from "../env";

// The staff inbox (app/(staff)/staff/applications/page.tsx) tells staff,
// before they decide anything, when applicants get no email: without
// SMTP_URL it shows a note saying so; with it, nothing. (The end-to-end
// server sends email to the suite's SMTP server, so only the latter can be
// seen there: e2e/ui/staff-applications.spec.ts.)

const incoming = new Headers();
vi.mock("server-only", () => ({}));
vi.mock("next/headers", () => ({ headers: async () => incoming }));

const configure = configurableEnv();
let staffId: number;

beforeAll(async () => {
  staffId = (await staffSession()).staffId;
  incoming.set("host", "localhost");
});

async function signedInAsStaff(): Promise<void> {
  const { token } = await createStaffSession(BigInt(staffId), new Date());
  incoming.set("cookie", `${sessionCookieName()}=${token}`);
}

interface Element {
  type: unknown;
  props: { role?: string; children?: unknown };
}

const isElement = (node: unknown): node is Element => typeof node === "object" && node !== null && "props" in node;
const childrenOf = (node: Element): unknown[] => [node.props.children].flat();

/** The rendered tree's elements with role="note" (the page's own markup; client components are not run). */
function notes(node: unknown): Element[] {
  if (Array.isArray(node)) return node.flatMap(notes);
  if (!isElement(node)) return [];
  return [...(node.props.role === "note" ? [node] : []), ...childrenOf(node).flatMap(notes)];
}

/** An element's text, as a browser would show it. */
function textOf(node: unknown): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  return isElement(node) ? childrenOf(node).map(textOf).join("") : "";
}

async function renderPage(): Promise<unknown> {
  const { default: ApplicationsPage } = await import("@/app/(staff)/staff/applications/page");
  return ApplicationsPage();
}

describe("the applications inbox's note on email", () => {
  it("without SMTP_URL: staff are told applicants get no confirmation or decision by email", async () => {
    configure({ SMTP_URL: undefined });
    await signedInAsStaff();
    const shown = notes(await renderPage());
    expect(shown).toHaveLength(1);
    expect(textOf(shown[0]).replace(/\s+/g, " ")).toContain(
      "Email is not set up (SMTP_URL), so applicants get no confirmation or decision by email: they follow their application only through the private link shown when they applied.",
    );
  });

  it("with SMTP_URL: no note", async () => {
    configure({ SMTP_URL: "smtp://127.0.0.1:2525" });
    await signedInAsStaff();
    expect(notes(await renderPage())).toEqual([]);
  });

  it("not signed in as staff: no note (the page says nothing of the setup)", async () => {
    configure({ SMTP_URL: undefined });
    incoming.delete("cookie");
    expect(notes(await renderPage())).toEqual([]);
  });
});
