import { Command } from "commander";
import { withDatabase } from "./shared";

// `people` (alias `applicants`, its name before alerts): everything held
// about one person, applications and alerts, by email address.
export const peopleCommand = new Command("people")
  .alias("applicants")
  .description("People's personal data, by email (access and erasure requests): adoption applications and alerts.");

peopleCommand
  .command("export")
  .description("Print everything held about one person (applications, alerts), as JSON.")
  .requiredOption("--email <email>", "the person's email (any case)")
  .action((opts: { email: string }) =>
    withDatabase(async () => {
      const { exportPerson } = await import("@/lib/privacy/service");
      console.log(JSON.stringify(await exportPerson(opts.email), null, 2));
    }),
  );

peopleCommand
  .command("erase")
  .description("Anonymise every application of one person now (undecided ones are withdrawn) and delete their alerts; the animals' history stays.")
  .requiredOption("--email <email>", "the person's email (any case)")
  .option("--yes", "do it (without it, only says how much would be)")
  .action((opts: { email: string; yes?: boolean }) =>
    withDatabase(async () => {
      const { erasePerson, exportPerson } = await import("@/lib/privacy/service");
      if (!opts.yes) {
        const { applications, alerts } = await exportPerson(opts.email);
        console.log(
          `${applications.length} application(s) of ${opts.email} would be anonymised and ${alerts.length} alert(s) deleted. Run again with --yes to do it.`,
        );
        return;
      }
      const erased = await erasePerson(opts.email);
      console.log(`Anonymised ${erased.applications} application(s) and deleted ${erased.alerts} alert(s) of ${opts.email}.`);
    }),
  );
