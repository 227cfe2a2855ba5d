import { Command } from "commander";
import { z } from "zod";
import { positiveInt, validated, withDatabase } from "./shared";

export const alertsCommand = new Command("alerts").description('Adopters\' email alerts ("Email me new matches").');

alertsCommand
  .command("delete")
  .description(
    'Honour an unsubscribe by mail ("unsubscribe alert N" sent to ALERTS_UNSUBSCRIBE_MAILTO): deletes alert N only if it goes to the sender\'s address (any case, +tag, or Gmail dots). Act only on mail whose From: passes DKIM/DMARC alignment; nothing else of the person is touched.',
  )
  .requiredOption("--id <n>", "the alert's id, from the email's subject", positiveInt)
  .requiredOption("--email <sender>", "the address in the email's From: line")
  .action((opts: { id: number; email: string }) =>
    withDatabase(async () => {
      const { email: sender } = await validated(z.object({ email: z.email("must be an email address") }), { email: opts.email.trim() });
      const { deleteAlertForSender } = await import("@/lib/alerts/service");
      // The same answer whether the alert is gone or another address's: the sender learns nothing of others' alerts.
      if (!(await deleteAlertForSender(opts.id, sender))) throw new Error(`No alert ${opts.id} goes to ${sender}: nothing was deleted.`);
      console.log(`Deleted alert ${opts.id} of ${sender}.`);
    }),
  );
