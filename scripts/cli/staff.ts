import { Command } from "commander";
import { organizationId, validated, withDatabase } from "./shared";

export const staffCommand = new Command("staff").description("Shelter staff accounts (sign in at /staff/sign-in).");

/**
 * A password, never from the command line (it would show in the process
 * list and shell history): standard input when it is piped, else a prompt
 * that does not echo.
 */
async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString("utf8")
      .replace(/\r?\n$/, "");
  }
  const { createInterface } = await import("node:readline");
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const output = rl as unknown as { _writeToOutput: (s: string) => void };
  let muted = false;
  output._writeToOutput = (s) => {
    if (!muted) process.stderr.write(s);
  };
  return new Promise((resolve) => {
    rl.question(prompt, (answer) => {
      process.stderr.write("\n");
      rl.close();
      resolve(answer);
    });
    muted = true;
  });
}

const PASSWORD_HELP =
  'The password is read from standard input (e.g. `printf %s "$PW" | npm run cli -- ...`) or asked for at a prompt; never from an argument.';

staffCommand
  .command("create")
  .description(`Create a staff account. The password is stored as a scrypt hash. ${PASSWORD_HELP}`)
  .requiredOption("--email <email>", "the staff member's email address")
  .option("--org <id|slug>", "the organisation whose data the account sees and changes (required when there are several; default: the only one)")
  .option("--platform-admin", "someone who runs the service: sees every organisation's data and adds organisations")
  .action((opts: { email: string; org?: string; platformAdmin?: boolean }) =>
    withDatabase(async () => {
      if (opts.org !== undefined && opts.platformAdmin) throw new Error("give --org or --platform-admin, not both");
      const { newStaffSchema } = await import("@/lib/staff/schemas");
      const { createStaff } = await import("@/lib/staff/service");
      const role = opts.platformAdmin
        ? ({ platformAdmin: true } as const)
        : { organizationId: await organizationId(opts.org, "--platform-admin for someone who runs the service") };
      const password = await readPassword(`Password for ${opts.email} (at least 12 characters): `);
      const staff = await createStaff(await validated(newStaffSchema, { email: opts.email, password }), role);
      console.log(
        `Created staff account ${staff.id} for ${staff.email} (${"platformAdmin" in role ? "platform admin" : `organisation ${role.organizationId}`}).`,
      );
    }),
  );

staffCommand
  .command("set-password")
  .description(`Set a staff account's password; signs it out everywhere. ${PASSWORD_HELP}`)
  .requiredOption("--email <email>", "the staff member's email address")
  .action((opts: { email: string }) =>
    withDatabase(async () => {
      const { emailSchema, newPasswordSchema } = await import("@/lib/staff/schemas");
      const { setStaffPassword } = await import("@/lib/staff/service");
      const email = await validated(emailSchema, opts.email);
      const password = await validated(newPasswordSchema, await readPassword(`New password for ${email} (at least 12 characters): `));
      const ended = await setStaffPassword(email, password);
      console.log(`Changed the password of ${email}; ended ${ended} session${ended === 1 ? "" : "s"}.`);
    }),
  );

staffCommand
  .command("digest")
  .description("Opt a staff member in to (or out of) the daily email of new adoption applications (needs SMTP_URL).")
  .requiredOption("--email <email>", "the staff member's email address")
  .option("--off", "stop the digest (default: start it)")
  .action((opts: { email: string; off?: boolean }) =>
    withDatabase(async () => {
      const { emailSchema } = await import("@/lib/staff/schemas");
      const { db } = await import("@/lib/db");
      const email = await validated(emailSchema, opts.email);
      const { count } = await db().staffUser.updateMany({ where: { email }, data: { applicationDigest: !opts.off } });
      if (count === 0) throw new Error(`There is no staff account for ${email}.`);
      console.log(`${email} ${opts.off ? "no longer gets" : "now gets"} the daily digest of new adoption applications.`);
    }),
  );

staffCommand
  .command("delete")
  .description("Delete a staff account and end its sessions.")
  .requiredOption("--email <email>", "the staff member's email address")
  .action((opts: { email: string }) =>
    withDatabase(async () => {
      const { emailSchema } = await import("@/lib/staff/schemas");
      const { deleteStaff } = await import("@/lib/staff/service");
      const email = await validated(emailSchema, opts.email);
      await deleteStaff(email);
      console.log(`Deleted the staff account ${email}.`);
    }),
  );

staffCommand
  .command("list")
  .description("List staff accounts: id, email, created, active sessions, and whether it has the published demo password.")
  .option("--json", "print JSON")
  .action((opts: { json?: boolean }) =>
    withDatabase(async () => {
      const { listStaff } = await import("@/lib/staff/service");
      const staff = await listStaff(new Date());
      if (opts.json) return console.log(JSON.stringify(staff, null, 2));
      if (!staff.length) return console.log("No staff accounts. Create one with: npm run cli -- staff create --email E");
      for (const s of staff) {
        const whose = s.platformAdmin ? "platform admin" : `organisation ${s.organizationId}`;
        console.log(
          `${s.id}\t${s.email}\t${whose}\tcreated ${s.createdAt}\t${s.activeSessions} active session(s)${s.demoPassword ? "\tDEMO PASSWORD: change or delete" : ""}`,
        );
      }
    }),
  );

staffCommand
  .command("lockouts")
  .description(
    "Sign-in lock-outs in force and failed attempts being counted (per account and address, and per address). Only a keyed hash of each email tried is kept: staff accounts are named, other emails shown as guesses (run with the server's SESSION_SECRET).",
  )
  .action(() =>
    withDatabase(async () => {
      const { listLockouts } = await import("@/lib/staff/throttle");
      const rows = await listLockouts(new Date());
      if (!rows.length) return console.log("No failed sign-ins are being counted.");
      for (const r of rows) {
        const who =
          r.scope === "staff"
            ? `${r.email} from ${r.address}`
            : r.scope === "unknown_email"
              ? `an email that is no staff account, from ${r.address}`
              : `address ${r.address}`;
        const state = r.lockedUntil ? `locked until ${r.lockedUntil.toISOString()} (lock-out ${r.lockouts} in a row)` : `${r.attempts} failed attempt(s)`;
        console.log(`${who}\t${state}`);
      }
    }),
  );

staffCommand
  .command("unlock")
  .description("Lift sign-in lock-outs: of an account (from every address, or --address only), or of an address.")
  .option("--email <email>", "the account's email address")
  .option("--address <ip>", "the client address (IPv6 addresses count by their /64)")
  .action((opts: { email?: string; address?: string }) =>
    withDatabase(async () => {
      if (!opts.email && !opts.address) throw new Error("give --email, --address, or both");
      const { emailSchema } = await import("@/lib/staff/schemas");
      const { normalizeAddress } = await import("@/lib/core/client");
      const { unlock } = await import("@/lib/staff/throttle");
      const email = opts.email ? await validated(emailSchema, opts.email) : undefined;
      const address = opts.address ? normalizeAddress(opts.address) : undefined;
      if (opts.address && !address) throw new Error(`"${opts.address}" is not an IP address`);
      const lifted = await unlock({ email, address: address ?? undefined });
      console.log(`Lifted ${lifted} lock-out record${lifted === 1 ? "" : "s"}.`);
    }),
  );
