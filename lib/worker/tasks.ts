import type { TaskList } from "graphile-worker";
import { expireAlerts, sendAlertMail, sendDueAlerts } from "@/lib/alerts/mail";
import type { AlertMailJob } from "@/lib/alerts/queries";
import { sendApplicationDigest, sendApplicationMail, type MailJob } from "@/lib/applications/mail";
import { sendFosterMail, type FosterMailJob } from "@/lib/fosters/mail";
import { anonymiseExpiredApplications } from "@/lib/applications/retention";
import { closeApplicationsOfAnimalLeavingCare } from "@/lib/applications/service";
import { now } from "@/lib/clock";
import { maintainGrownTables } from "@/lib/db-statistics";
import { sweepEvents } from "@/lib/events/service";
import { isoDay } from "@/lib/pets/age";
import { refreshAgeGroups } from "@/lib/pets/queries/age-groups";
import { runImport } from "@/lib/imports/run";
import { sweepImportReports } from "@/lib/imports/service";
import { recoverStalledImports } from "@/lib/imports/recovery";
import { recoverStalledUploads } from "@/lib/listings/uploads/recovery";
import { attemptDeliveries } from "@/lib/webhooks/delivery";
import { TASK_NAMES } from "@/lib/jobs/queue";
import { yieldToRequests, type UtilisationSource } from "@/lib/jobs/yield";
import type { UploadJob } from "@/lib/listings/uploads/jobs";
import { runUpload } from "@/lib/listings/uploads/run";
import { queueDailyUploads } from "@/lib/listings/uploads/schedule";

// Every background job, registered in this one list, and the schedule of the
// periodic ones. They run on graphile-worker (docs/decisions/006), started by
// lib/worker/runner.ts in every app instance. A job is idempotent: it may run
// twice after a crash (the delivery's lease makes the second a no-op, and
// receivers dedupe on webhook-id).

export interface TaskContext {
  /** This process's application_name: who holds a delivery's lease. */
  owner: string;
  /** Aborted when the process stops: in-flight attempts are handed back. */
  signal: AbortSignal;
  /** How busy this process is with requests: deliveries wait (a bounded time) while it is saturated. */
  load: UtilisationSource;
}

export function taskList(context: TaskContext): TaskList {
  const tasks: Record<(typeof TASK_NAMES)[number], TaskList[string]> = {
    // One attempt of each of a few webhook deliveries (their schedule lives in webhook_deliveries).
    "deliver-webhooks": async (payload) => {
      const { deliveryIds } = payload as { deliveryIds: string[] };
      await yieldToRequests(context.load, { signal: context.signal });
      await attemptDeliveries(deliveryIds.map(BigInt), context);
    },
    // Events (and their deliveries) older than 30 days.
    "sweep-events": async () => {
      await sweepEvents(new Date());
    },
    // Stored age groups moved on to today (the list's age filter is exact
    // without it, but re-checks more animals the longer it has not run).
    "refresh-age-groups": async () => {
      await refreshAgeGroups(isoDay(new Date()));
    },
    // An email to an applicant (queued with the change it reports; retried on failure).
    "application-mail": async (payload) => {
      await sendApplicationMail(payload as MailJob);
    },
    // The morning email of new applications, to staff who opted in.
    "application-digest": async () => {
      await sendApplicationDigest(new Date());
    },
    // Closed applications past the retention period lose their personal data.
    "anonymise-applications": async () => {
      await anonymiseExpiredApplications(new Date());
    },
    // A foster's or foster applicant's email, or a note's notice to the organisation (queued with the change; retried on failure).
    "foster-mail": async (payload) => {
      await sendFosterMail(payload as FosterMailJob);
    },
    // An alert's own email: its confirmation, or the renewal question.
    "alert-mail": async (payload) => {
      await sendAlertMail(payload as AlertMailJob);
    },
    // Every alert with an email due (matches are found by the runner from the feed: lib/alerts/matching.ts).
    "send-alerts": async () => {
      await sendDueAlerts(now());
    },
    // Unconfirmed alerts after 7 days; the renewal question after 12 months untouched, and deletion 30 days later.
    "expire-alerts": async () => {
      await expireAlerts(now());
    },
    // One upload of one listing site (queued per site, so never two at once: lib/listings/uploads/jobs.ts).
    "listing-upload": async (payload) => {
      await runUpload(payload as UploadJob);
    },
    // Every enabled listing site's full daily upload.
    "listing-daily": async () => {
      await queueDailyUploads();
    },
    // An import's rows, then its photos (queued with the import: lib/imports/queries.ts).
    "run-import": async (payload) => {
      await runImport(Number((payload as { importId: string }).importId), {
        load: context.load,
        signal: context.signal,
        leavingCare: closeApplicationsOfAnimalLeavingCare,
      });
    },
    // What autovacuum keeps (the planner's statistics, the visibility map) for tables it does not serve (docs/decisions/026).
    "maintain-grown-tables": async () => {
      await maintainGrownTables();
    },
    // Import reports 90 days after their import finished (the imports stay listed with their counts).
    "sweep-import-reports": async () => {
      await sweepImportReports(now());
    },
    // Long work a stopped process left (issue 48): imports and uploads resumed, or marked failed (lib/imports/recovery.ts).
    "recover-long-work": async () => {
      await recoverStalledImports();
      await recoverStalledUploads();
    },
  };
  return tasks;
}

/** graphile-worker runs each slot once across all instances (times in UTC). */
export const CRONTAB = [
  "17 * * * * sweep-events",
  // Hourly: the first run after midnight moves the groups on; the others find nothing to do (an index lookup).
  "1 * * * * refresh-age-groups",
  "23 3 * * * anonymise-applications",
  "0 7 * * * application-digest",
  // Alerts' emails are due at any minute (a daily digest is at 08:00 in each alert's own time zone).
  "* * * * * send-alerts",
  "41 * * * * expire-alerts",
  // Organisations keep no time zone: the daily full upload to listing sites is at 03:00 UTC.
  "0 3 * * * listing-daily",
  // Reports are gone for readers from their 90th day on; their rows are deleted within the hour.
  "29 * * * * sweep-import-reports",
  // Every minute: an import whose run's lease expired (its process killed) runs again or is marked failed within a minute of it.
  "* * * * * recover-long-work",
  // What autovacuum would do where it does not run: ANALYZE of a table changed by a tenth, VACUUM of one grown or dead by a fifth.
  "* * * * * maintain-grown-tables",
].join("\n");
