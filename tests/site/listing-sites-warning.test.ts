import { describe, expect, it } from "vitest";
import { troubledSites } from "@/components/staff/listing-sites-warning";
import type { ListingSiteView } from "@/lib/listings/uploads/schemas";

// The staff dashboard warns about an enabled site whose last upload failed,
// or that has had no successful upload in 26 hours; never about a site
// switched off, one just added, or one sent within the day.

const NOW = new Date("2026-11-27T12:00:00Z");
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();

function site(fields: Partial<ListingSiteView>): ListingSiteView {
  return {
    id: 1,
    organizationId: 1,
    site: "petfinder",
    host: "members.petfinder.com",
    port: 21,
    secure: false,
    username: "ca1234",
    accountId: "CA1234",
    enabled: true,
    lastUpload: null,
    lastSentAt: null,
    createdAt: hoursAgo(1),
    updatedAt: hoursAgo(1),
    ...fields,
  };
}

const failed = {
  id: 9,
  siteId: 1,
  reason: "change" as const,
  startedAt: hoursAgo(1),
  finishedAt: hoursAgo(1),
  outcome: "failed" as const,
  animals: 3,
  photos: 0,
  warnings: [],
  error: "530 Login incorrect.",
};

describe("troubledSites", () => {
  it("names a failed last upload with the server's answer", () => {
    expect(troubledSites([site({ lastUpload: failed, lastSentAt: hoursAgo(2) })], NOW).map((t) => t.why)).toEqual([
      "its last upload failed: 530 Login incorrect.",
    ]);
  });

  it("names a site with no success in 26 hours, or none since it was added a day and more ago", () => {
    expect(troubledSites([site({ lastSentAt: hoursAgo(27) })], NOW).map((t) => t.why)).toEqual(["no upload has succeeded in 26 hours"]);
    expect(troubledSites([site({ createdAt: hoursAgo(30) })], NOW).map((t) => t.why)).toEqual(["no upload has succeeded since it was added"]);
  });

  it("is quiet for healthy, new and switched-off sites", () => {
    expect(troubledSites([site({ lastSentAt: hoursAgo(25) }), site({}), site({ enabled: false, lastUpload: failed })], NOW)).toEqual([]);
  });
});
