import path from "node:path";
import { Command } from "commander";
import { printable } from "@/lib/terminal";
import { organizationId, withDatabase } from "./shared";
import { STAFF_SCOPES } from "@/lib/sessions/caller";
import { closeApplicationsOfAnimalLeavingCare } from "@/lib/applications/service";

export const importCommand = new Command("import")
  .description(
    "Import a listing file (Petfinder, Adopt-a-Pet, RescueGroups, or a CSV with --mapping) into an organisation, as POST /v1/imports does; exits 1 when rows were rejected.",
  )
  .argument("<file>", "the CSV file")
  .option("--org <id|slug>", "the organisation the animals are for (required when there are several; default: the only one)")
  .option("--format <format>", "petfinder, adoptapet, rescuegroups or generic (default: found from the file)")
  .option("--mapping <file>", "for a generic CSV: a JSON file mapping our fields to its columns (default: the organisation's last one)")
  .option("--dry-run", "report what the import would do, and change nothing")
  .option("--missing <policy>", "keep (default), or adopted: the organisation's available animals absent from the file become sold", "keep")
  .option("--as <email>", "the staff account the changes are recorded under (default: the organisation's only staff account)")
  .action((file: string, opts: { org?: string; format?: string; mapping?: string; dryRun?: boolean; missing: string; as?: string }) =>
    withDatabase(async () => {
      const fs = await import("node:fs");
      const { db } = await import("@/lib/db");
      const { createImport, listImportIssues } = await import("@/lib/imports/service");
      const { ImportBusyError, runImport } = await import("@/lib/imports/run");
      const { ApiError } = await import("@/lib/core/errors");
      // Cells, names and messages from the file are printed as text, never as the escape sequences they may hold.
      const say = (line: string) => console.log(printable(line));
      const org = await organizationId(opts.org);
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(file);
      } catch (error) {
        throw new Error(`cannot read ${file}: ${(error as { code?: string }).code ?? String(error)}`);
      }
      // The changes are recorded under a person, as every change to an animal is (the audit trail names who).
      const staff = await db().staffUser.findMany({
        where: opts.as ? { email: opts.as.toLowerCase() } : { organizationId: BigInt(org) },
        select: { id: true, email: true, organizationId: true, platformAdmin: true },
        take: 2,
      });
      const actor = staff[0];
      if (!actor || (opts.as && actor.organizationId !== BigInt(org) && !actor.platformAdmin)) {
        throw new Error(
          opts.as
            ? `${opts.as} is not a staff account of this organisation (npm run cli -- staff list).`
            : "The organisation has no staff account to record the changes under: add one (npm run cli -- staff create), or name one with --as <email>.",
        );
      }
      if (!opts.as && staff.length > 1) throw new Error("The organisation has several staff accounts: say whose name the changes go under with --as <email>.");
      const fields: Record<string, string> = { missing: opts.missing, dryRun: opts.dryRun ? "true" : "false" };
      if (opts.format) fields.format = opts.format;
      if (opts.mapping) fields.mapping = fs.readFileSync(opts.mapping, "utf8");
      const created = await createImport(
        { file: bytes, fileName: path.basename(file), fields },
        // A staff member's import: staff hold every staff scope, records:write (a history) among them.
        {
          actor: { kind: "staff", id: Number(actor.id), email: actor.email },
          requestId: `cli-import`,
          tenancy: { kind: "organization", organizationId: org },
          scopes: STAFF_SCOPES,
        },
      ).catch((error: unknown) => {
        if (!(error instanceof ApiError)) throw error;
        const detail = error.details?.map((d) => `${d.field}: ${d.issue}`).join("; ");
        throw new Error(`${error.message}${detail && !error.message.includes(detail) ? ` (${detail})` : ""}`);
      });
      say(`Import ${created.id}: ${created.counts.rows} rows, ${created.format} (${created.encoding})${created.dryRun ? ", dry run" : ""}.`);
      // A bar on a terminal; nothing in between for a script or a log.
      const tty = process.stdout.isTTY;
      const draw = async () => {
        const row = await db().import.findUnique({ where: { id: BigInt(created.id) }, select: { counts: true, photos: true } });
        if (!row) return;
        const c = row.counts as { rows: number; created: number; updated: number; unchanged: number; rejected: number };
        const p = row.photos as { queued: number; stored: number; failed: number };
        const rowsDone = c.created + c.updated + c.unchanged + c.rejected;
        const [done, total, what] = rowsDone < c.rows || !p.queued ? [rowsDone, c.rows, "rows"] : [p.stored + p.failed, p.queued, "photos"];
        const width = 30;
        const filled = total ? Math.round((done / total) * width) : width;
        process.stdout.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${what}   `);
      };
      const timer = tty ? setInterval(() => void draw().catch(() => {}), 200) : undefined;
      try {
        // Queued, the import has a job too: a running server's worker may take it first. One runs it (the
        // lease); the other follows it to the end.
        await runImport(created.id, { leavingCare: closeApplicationsOfAnimalLeavingCare }).catch(async (error: unknown) => {
          if (!(error instanceof ImportBusyError)) throw error;
          say(`Import ${created.id} is being run by the server's job worker: following it.`);
          for (;;) {
            const row = await db().import.findUnique({ where: { id: BigInt(created.id) }, select: { status: true } });
            if (!row || row.status === "done" || row.status === "failed") return;
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
        });
      } finally {
        if (timer) clearInterval(timer);
      }
      if (tty) {
        await draw();
        process.stdout.write("\n");
      }
      const { getImport } = await import("@/lib/imports/service");
      const report = await getImport(created.id, org);
      const c = report.counts;
      for (let cursor: string | undefined, first = true; first || cursor; first = false) {
        const page = await listImportIssues(created.id, org, { limit: 500, cursor }, STAFF_SCOPES.includes("records:read"));
        for (const e of page.issues)
          say(`  line ${e.line}${e.field ? ` (${e.field})` : ""}${e.result === "refused" ? " refused" : " imported, warning"}: ${e.message}`);
        cursor = page.next;
      }
      // The words no value map covers: what a person adds to the mapping's `values` before the real run.
      for (const [field, words] of Object.entries(report.unknownWords))
        say(`Unknown ${field} words (add them to values.${field}): ${words.map((w) => `"${w.word}" ×${w.count}`).join(", ")}`);
      say(
        `${report.status === "done" ? (report.dryRun ? "Would import" : "Imported") : "FAILED after"}: ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged, ${c.rejected} rejected` +
          `${c.adopted ? `, ${c.adopted} marked adopted` : ""}; photos: ${report.photos.stored} stored, ${report.photos.failed} failed of ${report.photos.queued}.`,
      );
      if (report.status !== "done" || c.rejected > 0) process.exitCode = 1;
    }),
  );
