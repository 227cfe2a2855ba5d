import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrateJobQueue } from "./launch";
import { ROOT } from "./database";

// A real PostgreSQL primary with a real streaming replica, for the tests of
// reads from replicas (tests/api/replicas.test.ts, and `npm run bench -- --replicas`): Debian's PostgreSQL
// binaries (initdb, pg_ctl, pg_basebackup -R) on two spare ports, run as the
// `postgres` user (initdb refuses root). The machine's own cluster accepts
// no replication connections, so the pair is the tests' own.

const BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export const canRunReplicaCluster =
  fs.existsSync(path.join(BIN, "pg_basebackup")) && (process.getuid?.() !== 0 || spawnSync("id", ["-u", "postgres"]).status === 0);

export interface ReplicaCluster {
  primaryUrl: string;
  replicaUrl: string;
  /** Runs SQL on the replica as a superuser (pause and resume replay). */
  onReplica(sql: string): Promise<void>;
  stopReplica(): void;
  startReplica(): void;
  stop(): void;
}

/** Runs a PostgreSQL binary as the `postgres` user (as root), or as ourselves. */
function pgBin(command: string, args: string[]): string {
  const binary = path.join(BIN, command);
  const [file, argv] = process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", binary, ...args]] : [binary, args];
  return execFileSync(file, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Starts the pair, with a database `petstore` migrated on the primary (and so on the replica). */
export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "petstore-replica-"));
  fs.chmodSync(base, 0o777);
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", base]);
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryDir = path.join(base, "primary");
  const replicaDir = path.join(base, "replica");

  pgBin("initdb", ["-D", primaryDir, "-U", "postgres", "--auth=trust", "--no-sync"]);
  fs.appendFileSync(
    path.join(primaryDir, "postgresql.conf"),
    [
      `port = ${primaryPort}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${base}'`,
      "wal_level = replica",
      "max_wal_senders = 5",
      "hot_standby = on",
      // A test cluster: durability is not the point, speed is.
      "fsync = off",
      "full_page_writes = off",
      "",
    ].join("\n"),
  );
  pgBin("pg_ctl", ["-D", primaryDir, "-l", path.join(base, "primary.log"), "-w", "start"]);

  const primaryUrl = `postgresql://postgres@127.0.0.1:${primaryPort}/petstore`;
  const admin = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${primaryPort}/postgres` });
  await admin.connect();
  await admin.query("CREATE DATABASE petstore");
  await admin.end();
  const migrate = spawnSync(path.join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: primaryUrl },
    encoding: "utf8",
  });
  if (migrate.status !== 0) throw new Error(`prisma migrate deploy failed:\n${migrate.stdout}\n${migrate.stderr}`);
  await migrateJobQueue(primaryUrl);

  // The replica: a base backup that writes its own standby configuration (-R), on its own port.
  // --checkpoint=fast: the default spread checkpoint paces the freshly migrated
  // primary's writes over most of checkpoint_timeout, about two minutes of waiting here.
  pgBin("pg_basebackup", [
    "-h",
    "127.0.0.1",
    "-p",
    String(primaryPort),
    "-U",
    "postgres",
    "-D",
    replicaDir,
    "-R",
    "-X",
    "stream",
    "--no-sync",
    "--checkpoint=fast",
  ]);
  fs.appendFileSync(path.join(replicaDir, "postgresql.conf"), `\nport = ${replicaPort}\n`);
  const startReplica = () => pgBin("pg_ctl", ["-D", replicaDir, "-l", path.join(base, "replica.log"), "-w", "start"]);
  startReplica();

  return {
    primaryUrl,
    replicaUrl: `postgresql://postgres@127.0.0.1:${replicaPort}/petstore`,
    async onReplica(sql: string) {
      const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${replicaPort}/postgres` });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    },
    stopReplica() {
      pgBin("pg_ctl", ["-D", replicaDir, "-m", "immediate", "-w", "stop"]);
    },
    startReplica() {
      startReplica();
    },
    stop() {
      for (const dir of [replicaDir, primaryDir]) {
        try {
          pgBin("pg_ctl", ["-D", dir, "-m", "immediate", "-w", "stop"]);
        } catch {
          // already stopped
        }
      }
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
