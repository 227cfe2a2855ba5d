/**
 * The operators' command line: `npm run cli -- <command>`.
 * Works against the embedded database (DATABASE_URL unset) or DATABASE_URL.
 * Every command has --help; bad input exits non-zero with a clear message.
 */

// One file per command group in scripts/cli/ (db, orgs, keys, people, alerts,
// webhooks, staff, audit, import), what they share in scripts/cli/shared.ts;
// this module assembles them, in the order --help lists them.

import "./require-node";
import { Command, CommanderError } from "commander";
import { printable } from "@/lib/terminal";
import { dbCommand } from "./cli/db";
import { orgsCommand } from "./cli/orgs";
import { keysCommand } from "./cli/keys";
import { peopleCommand } from "./cli/people";
import { alertsCommand } from "./cli/alerts";
import { webhooksCommand } from "./cli/webhooks";
import { staffCommand } from "./cli/staff";
import { auditCommand } from "./cli/audit";
import { importCommand } from "./cli/import";

const program = new Command()
  .name("npm run cli --")
  .description("Petstore operations: database, organisations, API keys, webhooks, staff accounts.")
  .showHelpAfterError()
  .configureOutput({ outputError: (str, write) => write(`error: ${str.replace(/^error: /, "")}`) });

/** A group's commands take the program's settings (help after an error, the error prefix), as program.command() gives them. */
function inherit(command: Command, parent: Command): Command {
  command.copyInheritedSettings(parent);
  for (const sub of command.commands) inherit(sub, command);
  return command;
}

for (const group of [dbCommand, orgsCommand, keysCommand, peopleCommand, alertsCommand, webhooksCommand, staffCommand, auditCommand, importCommand])
  program.addCommand(inherit(group, program));

export { program };

if (process.argv[1]?.endsWith("cli.ts")) {
  program.parseAsync(process.argv).catch((error: unknown) => {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    // A message may quote a file's cells (the first line of a file whose format cannot be told): printed as text.
    console.error(`error: ${printable(error instanceof Error ? error.message : String(error))}`);
    process.exit(1);
  });
}
