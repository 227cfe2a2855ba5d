import { Command } from "commander";
import { positiveInt, withDatabase } from "./shared";

export const auditCommand = new Command("audit")
  .description("Print an animal's change history (the audit trail), oldest first: when, what, who, the request id.")
  .requiredOption("--pet <id>", "the animal's id", positiveInt)
  .option("--json", "print the entries as JSON (newest first, as GET /v1/pets/{id}/history serves them)")
  .action((opts: { pet: number; json?: boolean }) =>
    withDatabase(async () => {
      const { listPetHistory } = await import("@/lib/pets/reads");
      const { petView } = await import("@/lib/pets/present");
      const { describeActor, describeChanges } = await import("@/lib/pets/history-format");
      const { LIMIT_MAX } = await import("@/lib/core/schemas");
      const entries = [];
      let cursor: string | undefined;
      do {
        const page = await listPetHistory(opts.pet, { limit: LIMIT_MAX, cursor }, petView(new Date()));
        entries.push(...page.entries);
        cursor = page.next;
      } while (cursor);
      if (opts.json) return console.log(JSON.stringify(entries, null, 2));
      if (!entries.length) return console.log(`Animal ${opts.pet} has no recorded changes (it was loaded, not added through the app).`);
      for (const e of entries.reverse()) {
        console.log(`${e.at}  ${e.action} v${e.version}  by ${describeActor(e.actor)}  request ${e.requestId}  ${describeChanges(e)}`);
      }
    }),
  );
