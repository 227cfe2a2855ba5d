import { expect, test } from "@playwright/test";
import { docScreenshot } from "../doc-screenshots";
import { bearer, createKey } from "../helpers";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff, uniqueName } from "./staff-helpers";

// Staff's inbox of foster applications (/staff/fosters/applications), as a
// coordinator uses it: reached from the roster's tabs, each applicant with
// what they sent, one approved (an active foster), one declined with a
// message; a decided applicant leaves the list and the page says what was
// done. At 390 px and 1280 px.

let key: string;
test.beforeAll(() => {
  key = createKey("e2e foster inbox", "--scopes", "pets:read,applications:write,people:read", "--plan", "business");
});

for (const [width, suffix] of [
  [390, "-phone"],
  [1280, ""],
] as const) {
  test(`at ${width} px: staff approve one foster applicant and decline another with a message`, async ({ page, context, baseURL, request }) => {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    const names = [uniqueName("Avery Applicant"), uniqueName("Blair Applicant")];
    for (const name of names) {
      const res = await request.post("/v1/organizations/1/foster-applications", {
        headers: bearer(key),
        data: {
          name,
          email: `${name.replace(/\s+/g, ".").toLowerCase()}@example.org`,
          address: { city: "Evanston", postcode: "60201", country: "US" },
          species: ["cat"],
          capacity: 2,
          message: `${name} has a spare room.`,
          consent: true,
        },
      });
      expect(res.status(), await res.text()).toBe(202);
    }

    await signInAsStaff(context, baseURL!);
    await page.goto("/staff/fosters");
    await page.getByRole("navigation", { name: "Foster care" }).getByRole("link", { name: "Applications" }).click();
    await expect(page).toHaveURL(/\/staff\/fosters\/applications$/);
    await expect(page.getByRole("navigation", { name: "Foster care" }).getByRole("link", { name: "Applications" })).toHaveAttribute("aria-current", "page");
    const applicants = page.getByRole("list", { name: "Foster applicants" });
    const [avery, blair] = names.map((name) => applicants.getByRole("listitem", { name }));
    await expect(avery!).toContainText("has a spare room.");
    await expect(avery!).toContainText("Evanston, 60201, US");
    await expect(avery!).toContainText("2 at once; cat");
    await expectNoHorizontalScroll(page);
    await expectNoSeriousA11yViolations(page);
    await docScreenshot(page, `foster-inbox${suffix}.png`, { fullPage: width >= 600 });

    await avery!.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Approved ${names[0]}: an active foster now` })).toBeVisible();
    await expect(avery!).toHaveCount(0);

    await blair!.getByRole("button", { name: "Decline…" }).click();
    await blair!.getByLabel(/Message to the applicant/).fill("We are full of cat fosters this season.");
    await blair!.getByRole("button", { name: "Decline", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: `Declined ${names[1]}: they are told by email, with your message.` })).toBeVisible();
    await expect(blair!).toHaveCount(0);

    // What the API says of them now.
    const people = await request.get(`/v1/organizations/1/people?role=foster&q=${encodeURIComponent("Applicant")}&limit=100`, {
      headers: bearer(key),
    });
    const statuses = Object.fromEntries(
      ((await people.json()) as { name: string; foster: { status: string } }[]).filter((p) => names.includes(p.name)).map((p) => [p.name, p.foster.status]),
    );
    expect(statuses).toEqual({ [names[0]!]: "active", [names[1]!]: "inactive" });
  });
}
