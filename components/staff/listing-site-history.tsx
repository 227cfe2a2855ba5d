"use client";

import { DateTime } from "@/components/staff/date-time";
import { FormAlert } from "@/components/staff/form-alert";
import { panelClass } from "@/components/staff/styles";
import { SITE_HISTORY_SHOWN, useListingSiteHistory } from "@/components/staff/use-listing-sites";
import { type AuditedField, type ListingSiteHistoryEntry } from "@/lib/listings/uploads/schemas";
import { SITE_NAMES } from "@/lib/core/listing-sites";
import { describeError } from "@/lib/site/api-client";
import { TableScroll } from "@/components/staff/table-scroll";

// Who changed which listing site's settings, and how.

const FIELD_NAMES: Record<AuditedField, string> = {
  host: "server",
  port: "port",
  secure: "FTPS",
  username: "user name",
  password: "password",
  accountId: "account id",
  enabled: "switched",
};

function settingText(field: AuditedField, value: unknown): string {
  if (field === "secure") return value ? "FTPS" : "plain FTP";
  if (value === null || value === undefined || value === "") return "none";
  return String(value);
}

/** One history entry in words: "Changed server members.petfinder.com → ftp.example.org; password". */
function changeText(entry: ListingSiteHistoryEntry): string {
  if (entry.action === "created") return `Added (${entry.after?.host ?? "?"}, user ${entry.after?.username ?? "?"})`;
  if (entry.action === "deleted") return `Removed (${entry.before?.host ?? "?"}, user ${entry.before?.username ?? "?"})`;
  const changed = entry.fields
    .filter((field) => field !== "enabled")
    .map((field) =>
      field === "password"
        ? "a new password"
        : `${FIELD_NAMES[field]} ${settingText(field, entry.before?.[field])} → ${settingText(field, entry.after?.[field])}`,
    );
  const switched = entry.fields.includes("enabled") ? (entry.after?.enabled ? "switched on" : "switched off") : null;
  const text = [changed.length ? `changed ${changed.join("; ")}` : null, switched].filter(Boolean).join("; ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function whoText(actor: ListingSiteHistoryEntry["actor"]): string {
  return actor.kind === "staff" ? actor.email : `API key “${actor.name}” (#${actor.id})`;
}

/** Who added, changed and removed the organisation's sites: a new server or password shows here, whoever made it. */
export function SiteHistory() {
  const history = useListingSiteHistory();
  return (
    <section aria-labelledby="listing-sites-history" className={`${panelClass} space-y-3`}>
      <h2 id="listing-sites-history" className="text-lg font-semibold">
        Changes
      </h2>
      <p className="text-sm text-stone-700">Who added, changed and removed your sites, newest first. Passwords are never shown, only that one was changed.</p>
      {history.isPending ? (
        <p className="text-sm text-stone-700">Loading changes…</p>
      ) : history.error ? (
        <FormAlert>Could not load the changes. {describeError(history.error)}</FormAlert>
      ) : history.data.entries.length === 0 ? (
        <p className="text-sm text-stone-700">No changes yet.</p>
      ) : (
        <TableScroll label="Changes to the listing sites, scrollable">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Changes to the listing sites, newest first</caption>
            <thead>
              <tr className="border-b border-stone-200">
                <th scope="col" className="py-1 pr-3">
                  When
                </th>
                <th scope="col" className="py-1 pr-3">
                  Site
                </th>
                <th scope="col" className="py-1 pr-3">
                  Who
                </th>
                <th scope="col" className="py-1">
                  What
                </th>
              </tr>
            </thead>
            <tbody>
              {history.data.entries.map((entry) => (
                <tr key={entry.id} className="border-b border-stone-100 align-top">
                  <td className="py-1 pr-3">
                    <DateTime iso={entry.at} />
                  </td>
                  <td className="py-1 pr-3">{SITE_NAMES[entry.site]}</td>
                  <td className="py-1 pr-3 break-all">{whoText(entry.actor)}</td>
                  <td className="py-1 break-words">{changeText(entry)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {history.data?.more ? (
        <p className="text-sm text-stone-700">Showing the {SITE_HISTORY_SHOWN} most recent changes; GET /v1/listing-sites/history pages through the rest.</p>
      ) : null}
    </section>
  );
}
