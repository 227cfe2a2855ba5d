import { Command } from "commander";
import { withDatabase } from "./shared";

// `people` (alias `applicants`, its name before alerts): everything held
// about one person, applications, alerts and organisations' people records
// (fosters), by email address.
export const peopleCommand = new Command("people")
  .alias("applicants")
  .description("People's personal data, by email (access and erasure requests): adoption applications, alerts and organisations' people records.");

peopleCommand
  .command("export")
  .description("Print everything held about one person (applications, alerts, people records), as JSON.")
  .requiredOption("--email <email>", "the person's email (any case)")
  .action((opts: { email: string }) =>
    withDatabase(async () => {
      const { exportPerson } = await import("@/lib/privacy/service");
      console.log(JSON.stringify(await exportPerson(opts.email), null, 2));
    }),
  );

peopleCommand
  .command("erase")
  .description(
    "Anonymise every application of one person now (undecided ones are withdrawn), delete their alerts and erase their people records (not one with an animal placed); the animals' history stays.",
  )
  .requiredOption("--email <email>", "the person's email (any case)")
  .option("--yes", "do it (without it, only says how much would be)")
  .action((opts: { email: string; yes?: boolean }) =>
    withDatabase(async () => {
      const { erasePerson, exportPerson } = await import("@/lib/privacy/service");
      if (!opts.yes) {
        const { applications, alerts, people } = await exportPerson(opts.email);
        const records = people.filter((p) => !p.erased).length;
        console.log(
          `${applications.length} application(s) of ${opts.email} would be anonymised and ${alerts.length} alert(s) deleted${records ? `, and ${records} people record(s) erased` : ""}. Run again with --yes to do it.`,
        );
        return;
      }
      const erased = await erasePerson(opts.email);
      const people = erased.people.erased ? `, and erased ${erased.people.erased} people record(s)` : "";
      console.log(`Anonymised ${erased.applications} application(s) and deleted ${erased.alerts} alert(s) of ${opts.email}${people}.`);
      for (const kept of erased.people.refused) {
        console.log(
          `Not erased: person ${kept.id} of organisation ${kept.organizationId} has ${kept.placed} animal(s) placed with them. End the placement(s), then run this again.`,
        );
      }
    }),
  );
